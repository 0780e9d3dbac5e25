"""Turns: the actions of RULES §7, two actions per turn (§13.2), replenishing (§9) and the
end of a round (§10)."""

from __future__ import annotations

import hashlib

import pytest

from cya_rules import RuleSet, RuleViolation, execute, legal_commands, preset
from cya_rules.cards import Edition
from cya_rules.commands import (
    Challenge,
    Discard,
    EndTurn,
    FormSet,
    ImproveSet,
    PlayMove,
    PlaySwap,
    Respond,
)
from cya_rules.events import CardsDrawn, RoundEnded, RoundStarted, TurnStarted
from cya_rules.ruleset import AdvancedOptions
from cya_rules.state import AwaitingAction

from .table import assert_conserved, kinds, lay_out, run

HAND = ["piano", "toy_train", "comic_books", "jewels", "scooter"]


def _two_actions(**more: bool) -> RuleSet:
    return RuleSet(players=4, advanced=AdvancedOptions(two_actions=True, **more))


def test_given_two_actions_when_discarding_first_then_the_hand_refills_at_once() -> None:
    """[EN22] "If you discard as your first action, draw back to six cards right away. Then you
    may take a second action." ([DE24] "(und nur dann!)"; RULES §13.2, §17 A38: back to H)"""
    state = lay_out(_two_actions(), hands={s: HAND for s in range(4)})
    top_of_deck = state.draw_pile[0]
    events, state = execute(state, Discard(state.hands[0][0]), 0)

    assert events[-1] == CardsDrawn(0, 1, (top_of_deck,), "discard_refill")
    assert len(state.hands[0]) == 5
    assert state.pending == AwaitingAction(0, 1)
    assert EndTurn() in legal_commands(state, 0)

    events, state = execute(state, Discard(state.hands[0][0]), 0)  # second action: no refill
    assert kinds(events) == ["CardDiscarded", "CardsDrawn", "TurnStarted"]
    assert events[1] == CardsDrawn(0, 1, events[1].cards, "replenish")  # type: ignore[union-attr]
    assert_conserved(state)


def test_given_hand_size_six_when_discarding_first_then_the_refill_is_to_six() -> None:
    """RULES §13.1 + §13.2: "draw back to six cards right away" with the hand-size option."""
    state = lay_out(_two_actions(hand_size_six=True), hands={s: [*HAND, "piano"] for s in range(4)})
    _, state = execute(state, Discard(state.hands[0][0]), 0)
    assert len(state.hands[0]) == 6


def test_given_two_actions_when_forming_two_sets_then_both_land_and_the_turn_ends() -> None:
    """[EN22] "You may take two different actions or you may take the same action twice."
    Sets are never combined: "sets in your stack are never combined with previously played sets
    even if they are the same asset." (RULES §7.1, §13.2)"""
    state = lay_out(
        _two_actions(), hands={0: ["piano"] * 4 + ["jewels"], 1: HAND, 2: HAND, 3: HAND}
    )
    p = state.hands[0]
    events, state = run(state, (0, FormSet("hand", p[:2])), (0, FormSet("hand", p[2:4])))
    assert [s.type for s in state.stacks[0]] == ["piano", "piano"]
    assert isinstance(events[-1], TurnStarted) and events[-1].seat == 1


def test_given_one_action_per_turn_then_end_turn_is_never_offered() -> None:
    """RULES §6: one action, then the turn ends; passing is not allowed."""
    state = lay_out(preset("classic", 4), hands={s: HAND for s in range(4)})
    assert EndTurn() not in legal_commands(state, 0)
    with pytest.raises(RuleViolation) as err:
        execute(state, EndTurn(), 0)
    assert err.value.code == "action_required"


def test_given_the_discard_top_when_pairing_then_a_wild_pairs_either_way_but_never_two() -> None:
    """[EN22] "Pairing … with one of the two cards being a Wild … you may not form a set with
    two Wilds or with more than two cards." (RULES §7.1, §17 A21)"""
    state = lay_out(
        preset("classic", 4), hands={0: ["gold", "piano", "silver"]}, discard=["silver"]
    )
    gold, piano, silver = state.hands[0]
    legal = legal_commands(state, 0)
    assert FormSet("discard", (piano,)) in legal
    assert FormSet("discard", (gold,)) not in legal
    assert FormSet("hand", (gold, silver)) not in legal
    for bad in (FormSet("hand", (gold, silver)), FormSet("hand", (gold, piano, silver))):
        with pytest.raises(RuleViolation):
            execute(state, bad, 0)
    _, after = execute(state, FormSet("discard", (piano,)), 0)
    assert after.stacks[0][-1].type == "piano"


def test_given_an_empty_discard_pile_then_no_set_uses_it() -> None:
    """[EN11] "Don't flip a card over from the deck to replenish it, just leave the pile empty
    until the next player discards a card." (RULES §17 A7)"""
    state = lay_out(preset("classic", 4), hands={0: ["piano", "gold"]})
    assert state.discard_pile == ()
    with pytest.raises(RuleViolation) as err:
        execute(state, FormSet("discard", ("piano#1",)), 0)
    assert err.value.code == "discard_pile_empty"


def test_given_improve_set_then_only_an_asset_of_the_top_type_improves_it() -> None:
    """[EN22] "Improve a Set: Add one asset to your top set. It must match the existing set and
    cannot be Wild." (RULES §7.5)"""
    rs = RuleSet(players=4, advanced=AdvancedOptions(improve_set=True, penny_jar=True))
    state = lay_out(
        rs, hands={0: ["piano", "gold", "penny_jar", "jewels"]}, stacks={0: [["piano"] * 2]}
    )
    piano, gold, pj, jewels = state.hands[0]
    assert {c.card for c in legal_commands(state, 0) if isinstance(c, ImproveSet)} == {piano}
    for card in (gold, pj, jewels):
        with pytest.raises(RuleViolation):
            execute(state, ImproveSet(card), 0)
    _, after = execute(state, ImproveSet(piano), 0)
    assert len(after.stacks[0][-1].cards) == 3


def test_given_a_swap_in_hand_then_it_takes_even_a_single_bottom_set_and_leaves_play() -> None:
    """[DE24] "Tausche das oberste Set deines Stapels mit dem obersten Set eines beliebigen
    anderen Stapels aus. Auch ein 'erstes Set' darf getauscht werden." [EN22] "These cards are
    removed from play once used … You may not block these cards." (RULES §7.6, §17 A34)"""
    rs = RuleSet(players=4, advanced=AdvancedOptions(action_cards=True))
    state = lay_out(
        rs,
        hands={0: ["swap", "piano"], 1: ["gold"], 2: HAND, 3: HAND},
        stacks={0: [["piano", "piano"]], 1: [["cabin", "gold"]]},
    )
    swap = state.hands[0][0]
    assert {c.target_seat for c in legal_commands(state, 0) if isinstance(c, PlaySwap)} == {1}
    events, after = execute(state, PlaySwap(swap, 1), 0)
    assert "ChallengeOpened" not in kinds(events)
    assert after.stacks[0][-1].type == "cabin" and after.stacks[1][-1].type == "piano"
    assert swap in after.out_of_play


def test_given_a_move_then_it_needs_a_stack_of_two_and_may_target_the_own_stack() -> None:
    """[DE24] "Lege ein beliebiges oberstes Set ganz nach unten im selben Stapel oder ein
    beliebiges unterstes Set ganz nach oben … Es darf sich auch um deinen Stapel handeln."
    (RULES §7.7, §17 A35)"""
    rs = RuleSet(players=4, advanced=AdvancedOptions(action_cards=True))
    state = lay_out(
        rs,
        hands={0: ["move", "piano"], 1: HAND, 2: HAND, 3: HAND},
        stacks={0: [["piano", "piano"], ["jewels", "jewels"]], 1: [["cabin", "gold"]]},
    )
    move = state.hands[0][0]
    assert {c.target_seat for c in legal_commands(state, 0) if isinstance(c, PlayMove)} == {0}
    with pytest.raises(RuleViolation) as err:
        execute(state, PlayMove(move, 1, "top_to_bottom"), 0)
    assert err.value.code == "stack_too_small"
    _, after = execute(state, PlayMove(move, 0, "top_to_bottom"), 0)
    assert [s.type for s in after.stacks[0]] == ["jewels", "piano"]
    assert move in after.out_of_play


def test_given_a_challenge_then_the_active_seat_replenishes_first_and_a_short_deck_runs_dry() -> (
    None
):
    """[EN11] "At the end of each turn, all players must draw enough cards to bring their hand
    back … The player whose turn it was draws first." (RULES §9, §17 A15, A16: one card at a time
    in that order until the draw pile is empty)"""
    active, defender = 2, 1
    state = lay_out(
        preset("classic", 4, Edition.CLASSIC_2011),
        hands={
            0: ["stocks"] * 4,
            1: ["jewels", "gold", "stocks", "stocks"],
            2: ["jewels", "jewels", "stocks", "stocks"],
            3: ["piggy_bank"] * 4,
        },
        stacks={1: [["home", "home"], ["jewels", "jewels"]], 2: [["stamp_collection"] * 2]},
        draw=["baseball_cards", "baseball_cards"],
        rest="discard",
        active=active,
    )
    j1, j2 = state.hands[active][:2]
    jewels, gold = state.hands[defender][:2]
    events, state = run(
        state,
        (active, Challenge(defender, "top", (j1,))),
        (defender, Respond((jewels,))),
        (active, Respond((j2,))),
        (defender, Respond((gold,))),
    )
    # The challenger (active) conceded automatically; both spent two cards; two remain to draw.
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert [(e.seat, e.count) for e in drawn] == [(active, 2)]
    assert state.draw_pile == ()
    assert len(state.hands[defender]) == 2
    assert_conserved(state)


def test_given_an_empty_draw_pile_then_empty_hands_are_skipped_and_the_round_ends() -> None:
    """[EN22] "When the draw deck is depleted, play continues until everyone has played all of the
    remaining cards in their hand." (RULES §10, §17 A17: seats with empty hands are skipped)"""
    state = lay_out(
        preset("classic", 3, Edition.CLASSIC_2011),
        hands={0: ["stocks"], 2: ["jewels"]},
        stacks={0: [["home", "home"]], 1: [["gold", "jewels"]], 2: [["stocks", "stocks"]]},
        rest="discard",
    )
    events, state = execute(state, Discard(state.hands[0][0]), 0)
    assert events[-1] == TurnStarted(2)

    events, state = execute(state, Discard(state.hands[2][0]), 2)
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.scores == (40_000, 65_000, 20_000)  # RULES §11: the face value of the stacks
    assert ended.round_winner == 1
    # The round seed is revealed and matches the commitment published when it started.
    assert hashlib.sha256(ended.seed).hexdigest() == _commitment(state, ended.round_no)


def _commitment(state: object, round_no: int) -> str:
    from cya_rules.shuffle import commitment, round_seed

    return commitment(round_seed(state.master_seed, round_no))  # type: ignore[attr-defined]


def test_given_a_new_round_then_it_deals_afresh_and_its_first_event_commits_to_its_seed() -> None:
    """RULES §5.1, §17 A52: every round builds the deck afresh; the deal's commitment is
    SHA-256 of the round seed."""
    state = lay_out(
        preset("classic", 3, Edition.CLASSIC_2011),
        hands={0: ["stocks"]},
        stacks={0: [["home", "home"]]},
        rest="discard",
    )
    events, state = execute(state, Discard(state.hands[0][0]), 0)
    deal = next(e for e in events if isinstance(e, RoundStarted))
    assert deal.round_no == 2 and deal.seed_sha256 == _commitment(state, 2)
    assert state.stacks == ((), (), ()) and all(len(h) == 5 for h in state.hands)
    assert_conserved(state)
