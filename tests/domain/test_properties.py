"""Random games over every edition, player count and option set, checked at every step
(issue 2 "Tests"; RULES §4 invariants; §15 visibility)."""

from __future__ import annotations

import os
import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cya_rules import (
    Event,
    GameState,
    RuleSet,
    StartGame,
    execute,
    fold,
    legal_commands,
    new_game,
)
from cya_rules.cards import Edition
from cya_rules.commands import (
    Challenge,
    ChallengeDraft,
    Command,
    DraftSet,
    ImproveSet,
    PlayMove,
    PlaySwap,
    Respond,
    SeatCommand,
)
from cya_rules.ruleset import (
    CURRENT_RULES_VERSION,
    AdvancedOptions,
    EndMode,
    LaterRoundsStart,
    TiePolicy,
)

from .checks import (
    assert_decide_agrees_with_legal,
    assert_folds,
    assert_full_hands_while_deck_lasts,
    assert_sets_well_formed,
    assert_untracked,
    assert_view_shows_the_stacks,
    assert_views_hide_cards,
    finishes_within,
)
from .table import assert_conserved

MAX_COMMANDS = 20_000


@st.composite
def rulesets(draw: st.DrawFn, players: int | None = None) -> RuleSet:
    edition = draw(st.sampled_from(list(Edition)))
    players = players or draw(st.integers(2, 6))
    advanced = AdvancedOptions()
    if edition is not Edition.CLASSIC_2011:
        advanced = AdvancedOptions(
            hand_size_six=draw(st.booleans()),
            two_actions=draw(st.booleans()),
            no_rechallenge_after_loss=draw(st.sampled_from([None, True, False])),
            improve_set=draw(st.booleans()),
            action_cards=draw(st.booleans()),
            penny_jar=draw(st.booleans()),
            second_set_challenge=draw(st.booleans()),
        )
    return RuleSet(
        players=players,
        edition=edition,
        advanced=advanced,
        end_mode=draw(st.sampled_from(list(EndMode))),
        tie_policy=draw(st.sampled_from(list(TiePolicy))),
        first_player=draw(st.one_of(st.just("random"), st.integers(0, players - 1))),
        later_rounds_start=draw(st.sampled_from(list(LaterRoundsStart))),
        draft_challenge_requires_own_set=draw(st.booleans()),
        draft_set_first_set_protected=draw(st.booleans()),
        public_set_composition=draw(st.sampled_from([True, False, msgspec.UNSET])),
        rules_version=draw(st.integers(1, CURRENT_RULES_VERSION)),  # old games keep playing
    )


# Commands a uniform player rarely picks (discards dominate its choices), which an
# "aggressive" player prefers, so long challenges and revealed action cards get explored.
BOLD = (Challenge, ChallengeDraft, Respond, DraftSet, PlaySwap, PlayMove, ImproveSet)


def choose(legal: list[SeatCommand], rng: random.Random, aggressive: bool) -> SeatCommand:
    bold = [c for c in legal if isinstance(c, BOLD)]
    if aggressive and bold and rng.random() < 0.9:
        return rng.choice(bold)
    return rng.choice(legal)


def play_checked(
    ruleset: RuleSet, seed: bytes, rng_seed: int, aggressive: bool = False
) -> tuple[list[tuple[int | None, Command]], list[Event], GameState]:
    """Play random legal commands to the end, checking every step; returns the log."""
    rng = random.Random(rng_seed)
    commands: list[tuple[int | None, Command]] = [(None, StartGame(seed))]
    events, state = execute(new_game(ruleset), StartGame(seed), None)
    check_step(new_game(ruleset), events, state)
    sets_seen = [False] * ruleset.players
    for _ in range(MAX_COMMANDS):
        if state.status == "finished":
            break
        assert_decide_agrees_with_legal(state, rng)
        seat = state.pending_seats()[0]
        command = choose(legal_commands(state, seat), rng, aggressive)
        new, after = execute(state, command, seat)
        check_step(state, new, after)
        sets_seen = check_sets_never_vanish(state, after, sets_seen)
        commands.append((seat, command))
        events.extend(new)
        state = after
    assert state.status == "finished", "the game did not terminate"
    assert_decide_agrees_with_legal(state, rng)  # a finished game refuses everything
    return commands, events, state


def check_step(before: GameState, events: list[Event], after: GameState) -> None:
    assert events, "every accepted command records at least one event"
    assert_folds(before, events, after)
    assert_untracked(after)
    assert_untracked(events, "events")
    if after.hands:
        assert_conserved(after)
        assert_sets_well_formed(after)
        assert_full_hands_while_deck_lasts(after)
    assert_views_hide_cards(before, events)
    assert_view_shows_the_stacks(after)


def check_sets_never_vanish(before: GameState, after: GameState, seen: list[bool]) -> list[bool]:
    """RULES §4 invariant 2: once a seat has a set it keeps at least one for the round."""
    if after.round_no != before.round_no:
        return [bool(s) for s in after.stacks]
    for seat, stack in enumerate(after.stacks):
        assert stack or not seen[seat], f"seat {seat} lost its last set"
    return [a or bool(s) for a, s in zip(seen, after.stacks, strict=True)]


def replay(commands: list[tuple[int | None, Command]], ruleset: RuleSet) -> list[Event]:
    state, events = new_game(ruleset), []
    for actor, command in commands:
        new, state = execute(state, command, actor)
        events.extend(new)
    return events


def check_game(ruleset: RuleSet, seed: bytes, rng_seed: int) -> None:
    # The low bit of the player's seed picks its style, so both get their share of examples.
    with finishes_within(60):
        commands, events, state = play_checked(
            ruleset, seed, rng_seed, aggressive=rng_seed % 2 == 1
        )
    assert fold(new_game(ruleset), events) == state
    again = replay(commands, ruleset)
    assert msgspec.json.encode(again) == msgspec.json.encode(events)
    assert state.winners and state.totals == tuple(map(sum, zip(*state.round_scores, strict=True)))


GAME = given(ruleset=rulesets(), seed=st.binary(min_size=32, max_size=32), rng_seed=st.integers())


def _per_player_count(players: int, examples: int) -> object:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        ruleset=rulesets(players),
        seed=st.binary(min_size=32, max_size=32),
        rng_seed=st.integers(),
    )
    def run(ruleset: RuleSet, seed: bytes, rng_seed: int) -> None:
        check_game(ruleset, seed, rng_seed)

    return run


# Examples per player count: bigger tables play longer games (about 1 ms per checked step).
EXAMPLES = {2: 40, 3: 35, 4: 25, 5: 20, 6: 15}


@pytest.mark.parametrize("players", sorted(EXAMPLES))
def test_random_games_keep_every_invariant(players: int) -> None:
    """Every edition, end mode and option set, played by random seats to the end."""
    _per_player_count(players, EXAMPLES[players])()  # type: ignore[operator]


@pytest.mark.parametrize("players", [2, 3])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), rng_seed=st.integers())
def test_random_draft_games_with_every_option_keep_every_invariant(
    players: int, seed: bytes, rng_seed: int
) -> None:
    """2–3 players with all advanced options: the richest rules (draft piles, revealed actions)."""
    from cya_rules import preset

    for edition in (Edition.EN_2022, Edition.DE_2024):
        check_game(preset("advanced_all", players, edition), seed, rng_seed)


SOAK_EXAMPLES = int(os.environ.get("CYA_SOAK_EXAMPLES", "10"))


@pytest.mark.soak
@settings(max_examples=SOAK_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@GAME
def test_soak_random_games_keep_every_invariant(
    ruleset: RuleSet, seed: bytes, rng_seed: int
) -> None:
    """The same property, as long as CYA_SOAK_EXAMPLES asks (CI runs a few)."""
    check_game(ruleset, seed, rng_seed)


def crowd_piles_with_actions(state: GameState, rng: random.Random) -> GameState:
    """Shorten the draft piles (their lower cards join the draw pile) and move every Swap and
    Move into them — just under the top or among their last three cards, Swaps often side by
    side — trading places with the cards there (so card conservation still holds). Flips then
    run into actions early, while seats still lack sets."""
    from msgspec.structs import replace

    from cya_rules.cards import SWAP, Kind, card_table

    table = card_table(state.ruleset.edition)
    hands = [list(h) for h in state.hands]
    draw = list(state.draw_pile)
    piles = [list(p) for p in state.draft_piles]
    for pile in piles:
        keep = rng.randint(3, len(pile))
        draw.extend(pile[keep:])
        del pile[keep:]
    actions = [c for c in (*draw, *(c for h in hands for c in h)) if table[c].kind is Kind.ACTION]
    last: tuple[int, int] | None = None
    for card in actions:
        p = rng.randrange(len(piles))
        spot = rng.choice([rng.randrange(1, 3), rng.randrange(len(piles[p]) - 2, len(piles[p]))])
        if table[card].type == SWAP and last and rng.random() < 0.8:
            p, spot = last[0], min(last[1] + 1, len(piles[last[0]]) - 1)
        pile = piles[p]
        if table[pile[spot]].kind is Kind.ACTION:
            continue
        displaced = pile[spot]
        pile[spot] = card
        if table[card].type == SWAP:
            last = (p, spot)
        for place in (draw, *hands):
            if card in place:
                place[place.index(card)] = displaced
    return replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        draw_pile=tuple(draw),
        draft_piles=tuple(tuple(p) for p in piles),
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 3]),
    edition=st.sampled_from([Edition.EN_2022, Edition.DE_2024]),
    seed=st.binary(min_size=32, max_size=32),
    rng_seed=st.integers(),
)
def test_given_action_cards_crowding_the_draft_piles_then_a_round_still_ends_cleanly(
    players: int, edition: Edition, seed: bytes, rng_seed: int
) -> None:
    """RULES §14.6: revealed Swaps and Moves, their chains and returns, with seats that often
    have no set yet — every flip sequence ends and every invariant holds."""
    from cya_rules import preset

    rng = random.Random(rng_seed)
    rs = preset("advanced_all", players, edition, end_mode=EndMode.QUICK)
    _, state = execute(new_game(rs), StartGame(seed), None)
    state = crowd_piles_with_actions(state, rng)
    assert_conserved(state)
    with finishes_within(30):
        for _ in range(MAX_COMMANDS):
            if state.status == "finished" or state.round_no > 1:
                return
            assert_decide_agrees_with_legal(state, rng)
            seat = state.pending_seats()[0]
            command = choose(legal_commands(state, seat), rng, aggressive=True)
            new, after = execute(state, command, seat)
            check_step(state, new, after)
            state = after
    pytest.fail("the round did not end")
