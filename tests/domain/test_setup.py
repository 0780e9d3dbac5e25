"""Editions, decks and setup (RULES §1–3, §5): the deck checks of §2.4 as constants, rule set
validation, the deal and who starts."""

from __future__ import annotations

import re
from collections import Counter

import msgspec
import pytest

from cya_rules import RuleSet, StartGame, execute, new_game, preset
from cya_rules.cards import EDITIONS, Edition, Kind, all_cards, card_table, card_type
from cya_rules.commands import Discard
from cya_rules.events import RoundStarted
from cya_rules.rounds import round_deck
from cya_rules.ruleset import ALL_ADVANCED, AdvancedOptions, EndMode, LaterRoundsStart
from cya_rules.shuffle import round_seed, shuffled

from .table import assert_conserved, lay_out, started

# RULES §2.4: edition -> (classic cards, advanced cards, total, 2p classic, 2p + advanced)
DECK_CHECKS = {
    Edition.CLASSIC_2011: (110, 0, 110, 110, None),
    Edition.EN_2022: (104, 6, 110, 93, 99),
    Edition.DE_2024: (104, 6, 110, 93, 99),
}
# RULES §2.3: total value of the classic cards.
DECK_VALUES = {
    Edition.CLASSIC_2011: 1_360_000,
    Edition.EN_2022: 1_385_000,
    Edition.DE_2024: 1_385_000,
}


def in_play(ruleset: RuleSet) -> int:
    return 110 - len(started(ruleset).removed)


@pytest.mark.parametrize("edition", list(Edition))
def test_given_each_edition_then_its_deck_matches_the_section_2_4_checks(edition: Edition) -> None:
    """RULES §2.4 "Deck checks (use as unit-test constants)"."""
    classic, advanced, total, two_p, two_p_advanced = DECK_CHECKS[edition]
    spec = EDITIONS[edition]
    assert sum(s.copies for s in spec.classic) == classic
    assert sum(s.copies for s in spec.advanced) == advanced
    assert len(all_cards(edition)) == len(set(all_cards(edition))) == total
    values = card_table(edition)
    assert (
        sum(
            values[c].value
            for s in spec.classic
            for c in all_cards(edition)
            if card_type(c) == s.type
        )
        == DECK_VALUES[edition]
    )
    assert in_play(RuleSet(players=2, edition=edition)) == two_p
    if two_p_advanced is not None:
        assert in_play(preset("advanced_all", 2, edition)) == two_p_advanced
        assert in_play(preset("advanced_all", 4, edition)) == 110


@pytest.mark.parametrize(
    ("edition", "house"), [(Edition.EN_2022, "cabin"), (Edition.DE_2024, "home")]
)
def test_given_two_players_then_eight_houses_two_silver_and_one_gold_are_removed(
    edition: Edition, house: str
) -> None:
    """[EN22] "Remove the following cards from the deck: All 8 cabins, 2 Silver, and 1 Gold."
    [DE24] "Alle 8 Eigenheime, 2x Silber und 1x Gold." (RULES §5.1, §14.1, §17 A46)"""
    removed = Counter(card_type(c) for c in started(RuleSet(players=2, edition=edition)).removed)
    assert removed == {house: 8, "silver": 2, "gold": 1, "swap": 2, "move": 2, "penny_jar": 2}
    with_advanced = started(preset("advanced_all", 2, edition)).removed
    assert Counter(card_type(c) for c in with_advanced) == {house: 8, "silver": 2, "gold": 1}


def test_given_only_some_advanced_options_then_only_their_cards_join_the_deck() -> None:
    """RULES §17 A40: Swap/Move iff action_cards, Penny Jar iff penny_jar."""
    only_pj = started(RuleSet(players=4, advanced=AdvancedOptions(penny_jar=True))).removed
    assert Counter(card_type(c) for c in only_pj) == {"swap": 2, "move": 2}
    only_actions = started(RuleSet(players=4, advanced=AdvancedOptions(action_cards=True)))
    assert Counter(card_type(c) for c in only_actions.removed) == {"penny_jar": 2}


@pytest.mark.parametrize(
    ("edition", "players", "advanced", "hand", "piles"),
    [
        (Edition.CLASSIC_2011, 2, AdvancedOptions(), 5, 0),
        (Edition.CLASSIC_2011, 3, AdvancedOptions(), 5, 0),  # [EN11] "two or three" (§17 A2)
        (Edition.CLASSIC_2011, 4, AdvancedOptions(), 4, 0),
        (Edition.CLASSIC_2011, 6, AdvancedOptions(), 4, 0),
        (Edition.EN_2022, 2, AdvancedOptions(), 6, 3),
        (Edition.EN_2022, 3, AdvancedOptions(), 5, 3),
        (Edition.EN_2022, 3, AdvancedOptions(hand_size_six=True), 6, 3),  # §17 A5
        (Edition.DE_2024, 4, AdvancedOptions(), 5, 0),
        (Edition.DE_2024, 6, AdvancedOptions(hand_size_six=True), 6, 0),
    ],
)
def test_given_a_player_count_then_the_deal_follows_the_section_5_2_table(
    edition: Edition, players: int, advanced: AdvancedOptions, hand: int, piles: int
) -> None:
    """RULES §5.2: deal size H, draft piles of 10 for 2–3 players (2022/2024), one card flipped
    to the discard pile (§17 A6)."""
    state = started(RuleSet(players=players, edition=edition, advanced=advanced))
    assert [len(h) for h in state.hands] == [hand] * players
    assert [len(p) for p in state.draft_piles] == [10] * piles
    assert all(state.draft_face_up)
    assert len(state.discard_pile) == 1
    assert_conserved(state)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": 1}, "Expected `int` >= 2 - at `$.players`"),
        ({"players": 7}, "Expected `int` <= 6 - at `$.players`"),
        (
            {"players": 4, "edition": "classic_2011", "advanced": {"penny_jar": True}},
            "advanced options need edition",
        ),
        ({"players": 3, "first_player": 3}, "first_player must be"),
        ({"players": 4, "colour": "red"}, "unknown field"),
    ],
)
def test_given_an_invalid_rule_set_then_decoding_it_fails_with_a_clear_error(
    fields: dict[str, object], message: str
) -> None:
    """RULES §3: "Advanced toggles MUST be rejected for classic_2011"; 2–6 players (§17 A39,
    A54); unknown fields are refused."""
    with pytest.raises(msgspec.ValidationError, match=re.escape(message)):
        msgspec.json.decode(msgspec.json.encode(fields), type=RuleSet)


def test_given_an_invalid_rule_set_when_built_in_python_then_it_raises_value_error() -> None:
    """RULES §3: the same checks run when a RuleSet is created in code."""
    with pytest.raises(ValueError, match="players"):
        RuleSet(players=7)
    with pytest.raises(ValueError, match="advanced"):
        RuleSet(players=4, edition=Edition.CLASSIC_2011, advanced=ALL_ADVANCED)
    with pytest.raises(ValueError, match="preset"):
        preset("everything", 4)


def test_given_the_presets_then_classic_has_no_option_and_advanced_all_has_all_six() -> None:
    """RULES §3: "A preset advanced_all turns all six on"."""
    assert not preset("classic", 4).advanced.any_on()
    adv = preset("advanced_all", 4).advanced
    assert all(
        (
            adv.hand_size_six,
            adv.two_actions,
            adv.improve_set,
            adv.action_cards,
            adv.penny_jar,
            adv.second_set_challenge,
        )
    )


def test_given_a_chosen_first_player_then_that_seat_starts_and_is_dealt_first() -> None:
    """RULES §5.4 (`first_player` = a seat) and §17 A51: hands are dealt one card at a time from
    the first player clockwise, after the draft piles, then the discard flip."""
    rs = RuleSet(players=3, first_player=2)
    events, state = execute(new_game(rs), StartGame(bytes(32)), None)
    deal = next(e for e in events if isinstance(e, RoundStarted))
    assert deal.first_player == 2 and state.active == 2
    order = shuffled(round_deck(rs)[0], round_seed(bytes(32), 1))
    # No action cards in this deck, so the piles are the first thirty cards as shuffled.
    assert state.draft_piles == (tuple(order[:10]), tuple(order[10:20]), tuple(order[20:30]))
    assert deal.hands[2][0] == order[30]
    assert deal.hands[0][0] == order[31]
    assert deal.discard_pile == (order[30 + 3 * 5],)


def test_given_a_random_first_player_then_the_seed_decides_and_varies() -> None:
    """RULES §5.4, §17 A8: round 1's first player is drawn from the round seed."""
    firsts = {started(RuleSet(players=4), bytes([n]) * 32).first_player for n in range(40)}
    assert firsts == {0, 1, 2, 3}
    again = {started(RuleSet(players=4), bytes([n]) * 32).first_player for n in range(40)}
    assert again == firsts


def _next_round(rs: RuleSet, first: int, totals: tuple[int, ...]) -> int:
    from msgspec.structs import replace

    state = lay_out(
        rs,
        hands={first: ["stocks"]},
        stacks={first: [["home", "home"]]},
        rest="discard",
        active=first,
    )
    state = replace(state, first_player=first, totals=totals)
    _, state = execute(state, Discard(state.hands[first][0]), first)
    assert state.round_no == 2
    return state.first_player


def test_given_rotate_left_then_the_next_round_starts_one_seat_left() -> None:
    """[EN11] "The player to the left of the dealer plays first, they'll also deal at the start of
    the next round." (RULES §5.4, §17 A8 `rotate_left`)"""
    rs = RuleSet(players=4, edition=Edition.CLASSIC_2011, end_mode=EndMode.TO_MILLION)
    assert _next_round(rs, 1, (0, 0, 0, 0)) == 2
    assert _next_round(rs, 3, (0, 0, 0, 0)) == 0


def test_given_poorest_then_the_lowest_total_starts_ties_broken_by_rotation() -> None:
    """[DE24] "Der Ärmste von euch beginnt." (RULES §5.4, §17 A8 option `poorest`)"""
    rs = RuleSet(
        players=4, edition=Edition.CLASSIC_2011, later_rounds_start=LaterRoundsStart.POOREST
    )
    # After the round seat 1 (first) gains $40,000; seats 0 and 3 tie at the bottom.
    assert _next_round(rs, 1, (10_000, 50_000, 20_000, 10_000)) == 3
    assert _next_round(rs, 1, (10_000, 50_000, 5_000, 10_000)) == 2


def test_given_a_setup_then_no_action_card_tops_a_draft_pile() -> None:
    """RULES §14.5 and §5.3 step 2, across many seeds."""
    table = card_table(Edition.EN_2022)
    for n in range(30):
        state = started(preset("advanced_all", 3), bytes([n]) * 32)
        assert all(table[p[0]].kind is not Kind.ACTION for p in state.draft_piles)


def test_given_a_rule_set_built_from_plain_strings_then_it_plays_the_same_rules() -> None:
    """RULES §3: a RuleSet built in code with the values' strings (as JSON carries them) must
    not silently play other rules — no draft piles for classic_2011, advanced options refused,
    and a to_million game that goes on below $1,000,000 (§12)."""
    from cya_rules.scoring import game_winners

    classic = RuleSet(players=2, edition="classic_2011")  # type: ignore[arg-type]
    assert not classic.uses_draft_piles and classic.hand_size == 5
    with pytest.raises(ValueError, match="advanced"):
        RuleSet(players=4, edition="classic_2011", advanced=ALL_ADVANCED)  # type: ignore[arg-type]
    million = RuleSet(players=2, end_mode="to_million")  # type: ignore[arg-type]
    assert game_winners(million, (10_000, 0), (1, 0), 1) is None
    three = RuleSet(players=2, end_mode="highest_after_3_rounds")  # type: ignore[arg-type]
    assert game_winners(three, (10_000, 0), (1, 0), 1) is None
    tie = RuleSet(players=2, end_mode="quick", tie_policy="shared_win")  # type: ignore[arg-type]
    assert game_winners(tie, (10_000, 10_000), (0, 0), 1) == (0, 1)
