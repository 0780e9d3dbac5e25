"""How a game ends (RULES §12): the four end modes and the tie policy."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from cya_rules import GameState, RuleSet, execute
from cya_rules.cards import Edition
from cya_rules.commands import Discard
from cya_rules.events import Event, GameEnded, RoundEnded, RoundStarted
from cya_rules.ruleset import EndMode, TiePolicy

from .table import lay_out

# classic_2011 values: Home $20,000, Jewels $15,000 (RULES §2.3).
HOMES = [["home", "home"]]  # $40,000
JEWELS = [["jewels", "jewels"]]  # $30,000


def last_discard(
    end_mode: EndMode,
    stacks: dict[int, list[list[str]]],
    *,
    totals: tuple[int, int] = (0, 0),
    round_wins: tuple[int, int] = (0, 0),
    rounds_played: int = 0,
    tie_policy: TiePolicy = TiePolicy.EXTRA_ROUND,
) -> list[Event]:
    """Seat 0 holds the round's last card; the draw pile is empty. Its discard ends the round."""
    rs = RuleSet(players=2, edition=Edition.CLASSIC_2011, end_mode=end_mode, tie_policy=tie_policy)
    state = lay_out(rs, hands={0: ["stocks"]}, stacks=stacks, rest="discard")
    state = replace(
        state,
        totals=totals,
        round_wins=round_wins,
        round_scores=((0, 0),) * rounds_played,
        round_no=rounds_played + 1,
    )
    return execute(state, Discard(state.hands[0][0]), 0)[0]


def outcome(events: list[Event]) -> tuple[int, ...] | str:
    """The winners if the game ended, else "next round"."""
    for e in events:
        if isinstance(e, GameEnded):
            return e.winners
    assert any(isinstance(e, RoundStarted) for e in events)
    return "next round"


def test_given_to_million_when_a_total_reaches_exactly_a_million_then_that_seat_wins() -> None:
    """[DE24] "bis jemand am Ende eines Durchgangs … insgesamt 1.000.000 Dollar oder mehr";
    (RULES §12 `to_million`, §17 A24: total ≥ $1,000,000, checked at round end)"""
    events = last_discard(EndMode.TO_MILLION, {0: HOMES, 1: JEWELS}, totals=(960_000, 0))
    assert outcome(events) == (0,)
    ended = next(e for e in events if isinstance(e, GameEnded))
    assert ended.totals == (1_000_000, 30_000)


def test_given_to_million_when_no_total_reaches_a_million_then_another_round_is_dealt() -> None:
    """RULES §12: "Play as many rounds as required for a player to pass $1,000,000 total"."""
    events = last_discard(EndMode.TO_MILLION, {0: HOMES, 1: JEWELS}, totals=(959_000, 900_000))
    assert outcome(events) == "next round"


def test_given_two_seats_over_a_million_then_the_highest_total_wins() -> None:
    """[EN11] "If more than one player reaches a million in the same hand, the player with the
    highest score wins." (RULES §12, §17 A25)"""
    events = last_discard(EndMode.TO_MILLION, {0: HOMES, 1: JEWELS}, totals=(970_000, 985_000))
    assert outcome(events) == (1,)  # 1,015,000 beats 1,010,000


@pytest.mark.parametrize(
    ("tie_policy", "expected"),
    [(TiePolicy.EXTRA_ROUND, "next round"), (TiePolicy.SHARED_WIN, (0, 1))],
)
def test_given_a_perfect_tie_over_a_million_then_the_tie_policy_decides(
    tie_policy: TiePolicy, expected: object
) -> None:
    """[EN11] "In the result of a perfect tie … Alternatively, you can just play an additional
    round" (RULES §12.5, §17 A23: `extra_round` by default, `shared_win` as an option)"""
    events = last_discard(
        EndMode.TO_MILLION,
        {0: HOMES, 1: JEWELS},
        totals=(970_000, 980_000),
        tie_policy=tie_policy,
    )
    assert outcome(events) == expected


def test_given_quick_then_the_highest_round_score_wins_after_one_round() -> None:
    """[EN22] "Quick Game: The player with the highest score at the end of one round wins."
    (RULES §12, §17 A26)"""
    assert outcome(last_discard(EndMode.QUICK, {0: HOMES, 1: JEWELS})) == (0,)


def test_given_quick_when_the_round_is_tied_then_an_extra_round_decides() -> None:
    """RULES §12.5: a shared top total plays another full round under `extra_round`."""
    assert outcome(last_discard(EndMode.QUICK, {0: HOMES, 1: HOMES})) == "next round"
    tie = last_discard(EndMode.QUICK, {0: HOMES, 1: HOMES}, tie_policy=TiePolicy.SHARED_WIN)
    assert outcome(tie) == (0, 1)


@pytest.mark.parametrize(("rounds_played", "expected"), [(1, "next round"), (2, (1,))])
def test_given_highest_after_3_rounds_then_only_the_third_round_ends_the_game(
    rounds_played: int, expected: object
) -> None:
    """[EN22] "Highest score after 3 rounds: Record scores after each round. After 3 rounds, the
    highest score wins!" (RULES §12, §17 A26: the sum of the three rounds)"""
    events = last_discard(
        EndMode.HIGHEST_AFTER_3_ROUNDS,
        {0: HOMES, 1: JEWELS},
        totals=(100_000, 120_000),
        rounds_played=rounds_played,
    )
    assert outcome(events) == expected


def test_given_first_to_2_round_wins_when_a_seat_wins_its_second_round_then_it_wins() -> None:
    """[EN22] "First to win 2 rounds: Only record which player has the highest score at the end
    of each round. The first player to win 2 rounds wins!" (RULES §12)"""
    events = last_discard(
        EndMode.FIRST_TO_2_ROUND_WINS,
        {0: HOMES, 1: JEWELS},
        totals=(0, 900_000),  # money does not count in this mode (§17 A53)
        round_wins=(1, 1),
        rounds_played=2,
    )
    assert outcome(events) == (0,)


def test_given_first_to_2_round_wins_when_a_round_is_tied_then_nobody_wins_it() -> None:
    """RULES §12.5, §17 A23: "In first_to_2_round_wins a round whose highest score is shared
    gives no round win"."""
    events = last_discard(
        EndMode.FIRST_TO_2_ROUND_WINS,
        {0: HOMES, 1: HOMES},
        round_wins=(1, 1),
        rounds_played=2,
    )
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.round_winner is None
    assert outcome(events) == "next round"


def test_given_a_finished_game_then_every_command_is_refused() -> None:
    """RULES §12: the game is over once its winners are known."""
    from cya_rules import RuleViolation

    rs = RuleSet(players=2, edition=Edition.CLASSIC_2011, end_mode=EndMode.QUICK)
    state: GameState = lay_out(rs, hands={0: ["stocks"]}, stacks={0: HOMES}, rest="discard")
    card = state.hands[0][0]
    _, state = execute(state, Discard(card), 0)
    assert state.status == "finished"
    with pytest.raises(RuleViolation) as err:
        execute(state, Discard(card), 0)
    assert err.value.code == "game_over"
