"""A Swap revealed on a draft pile while an affected seat has no set (RULES §14.6, §17 A31),
under each rules version (§18). [EN22]: "Swap: The two affected players Swap their top set of
assets with each other. If one, or both players, do not have a set, return the action card to
the middle of the stack, face-down, and flip another card." """

from __future__ import annotations

from pathlib import Path

import msgspec

from cya_rules import RuleSet, execute
from cya_rules.commands import DraftSet
from cya_rules.events import (
    PileCardRevealed,
    RevealedActionDiscarded,
    RevealedActionReturned,
    RoundStarted,
)
from cya_rules.replay import audit
from cya_rules.ruleset import AdvancedOptions
from cya_rules.state import GameState
from tests.playthroughs.record import Playthrough, path_of

from .checks import finishes_within
from .table import assert_conserved, lay_out

ACTIONS = AdvancedOptions(action_cards=True)


def _swap_over_swap(version: int, under: list[str]) -> GameState:
    """Seat 0 drafts the scooter on pile 0; two Swaps lie under it, then `under`. Seat 1 has
    no set, so neither Swap can apply."""
    return lay_out(
        RuleSet(players=2, advanced=ACTIONS, rules_version=version),
        hands={0: ["scooter", "piano"], 1: ["toy_train"]},
        draft_piles=[["scooter", "swap", "swap", *under], ["toy_train"], ["toy_train"]],
    )


def _draft(state: GameState) -> tuple[list[object], GameState]:
    with finishes_within(5):
        events, after = execute(state, DraftSet(state.hands[0][0], (state.draft_piles[0][0],)), 0)
    assert_conserved(after)
    return list(events), after


def test_given_version_2_and_the_other_swap_next_with_room_then_both_go_back_and_a_card_flips(
) -> None:
    """[EN22] "return the action card to the middle of the stack, face-down, and flip another
    card": under version 2 also when the card flipped next is the other Swap."""
    state = _swap_over_swap(2, ["comic_books", "piano", "jewels"])
    _, swap_a, swap_b, *_ = state.draft_piles[0]

    events, state = _draft(state)

    assert not any(isinstance(e, RevealedActionDiscarded) for e in events)
    returned = [e.card for e in events if isinstance(e, RevealedActionReturned)]
    assert returned[:2] == [swap_a, swap_b]
    assert state.out_of_play == ()
    assert {swap_a, swap_b} <= set(state.draft_piles[0][1:])  # face down, in the middle
    assert state.draft_face_up[0] and state.draft_piles[0][0] not in (swap_a, swap_b)
    assert len(state.draft_piles[0]) == 5


def test_given_version_1_and_the_other_swap_next_then_the_first_goes_out_of_play() -> None:
    """Games created under version 1 keep its rule (§18): a Swap whose next card is the other
    Swap went out of play, whatever lay under them."""
    state = _swap_over_swap(1, ["comic_books", "piano", "jewels"])
    _, swap_a, swap_b, *_ = state.draft_piles[0]

    events, state = _draft(state)

    assert RevealedActionDiscarded(0, swap_a) in events
    assert state.out_of_play == (swap_a,)
    assert swap_b in state.draft_piles[0][1:]


def test_given_version_2_and_one_card_under_the_two_swaps_then_the_first_goes_out_of_play(
) -> None:
    """§17 A31: it stays out of play only when returning it cannot end. With [Swap, Swap, X]
    face down the one interior place (§17 A32) is under the other Swap, which would then go
    back under this one, forever."""
    state = _swap_over_swap(2, ["comic_books"])
    _, swap_a, swap_b, comic = state.draft_piles[0]

    events, state = _draft(state)

    assert RevealedActionDiscarded(0, swap_a) in events
    assert [e for e in events if isinstance(e, PileCardRevealed)][-1] == PileCardRevealed(0, comic)
    assert state.out_of_play == (swap_a,) and state.draft_piles[0] == (comic, swap_b)


def test_given_version_2_and_nothing_under_the_two_swaps_then_both_go_out_of_play() -> None:
    """No other card to flip: neither Swap can go back into the pile and flip another."""
    state = _swap_over_swap(2, [])
    _, swap_a, swap_b = state.draft_piles[0]

    events, state = _draft(state)

    assert [e for e in events if isinstance(e, RevealedActionDiscarded)] == [
        RevealedActionDiscarded(0, swap_a), RevealedActionDiscarded(0, swap_b)]
    assert state.draft_piles[0] == ()


def _recording(name: str) -> Playthrough:
    return msgspec.json.decode(Path(path_of(name)).read_bytes(), type=Playthrough)


def test_given_the_game_recorded_under_version_1_then_it_verifies_and_v2_deals_the_same() -> None:
    """The playthrough recorded before version 2 (its Swap over a Swap went out of play with
    eight cards under it) still audits clean; the same deal under version 2 puts it back."""
    old = _recording("2p-en2022-advanced-all-swap-over-swap")
    new = _recording("2p-en2022-advanced-all-swap-over-swap-v2")
    assert (old.ruleset.rules_version, new.ruleset.rules_version) == (1, 2)

    assert audit(old.events).finding is None
    assert audit(new.events).finding is None
    deal_old = next(e for e in old.events if isinstance(e, RoundStarted))
    deal_new = next(e for e in new.events if isinstance(e, RoundStarted))
    assert deal_old == deal_new
    swap = "swap#2"
    assert RevealedActionDiscarded(0, swap) in old.events
    assert not any(isinstance(e, RevealedActionDiscarded) and e.card == swap for e in new.events)
    assert any(isinstance(e, RevealedActionReturned) and e.card == swap for e in new.events)
