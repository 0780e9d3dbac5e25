"""Folding draft events: drafted sets, flips and revealed action cards (RULES §14)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from .cards import Kind, card_table
from .events import (
    DraftChallengePassed,
    MoveDirectionChosen,
    PileCardRevealed,
    RevealedActionDiscarded,
    RevealedActionReturned,
    RevealedMoveApplied,
    RevealedMoveAwaitingChoices,
    RevealedSwapApplied,
    SetDrafted,
)
from .stack_edits import after_flip, assets_first, move_stack, push_set, put, swap_tops, take_hand
from .state import (
    AwaitingDraftChallenge,
    AwaitingMoveDirections,
    CardSet,
    DraftInProgress,
    Flipping,
    GameState,
    StackMove,
)


def _set_drafted(s: GameState, e: SetDrafted) -> GameState:
    piles = s.draft_piles
    face_up = s.draft_face_up
    for pc in e.pile_cards:
        piles = put(piles, pc.pile, piles[pc.pile][1:])
        face_up = put(face_up, pc.pile, False)  # the next card flips after the draft (§17 A50)
    drafted = CardSet(e.set_type, assets_first(s, (e.hand_card, *[pc.card for pc in e.pile_cards])))
    s = replace(
        s,
        hands=take_hand(s, e.seat, (e.hand_card,)),
        draft_piles=piles,
        draft_face_up=face_up,
        actions_taken=s.actions_taken + 1,
        draft=DraftInProgress(e.seat, drafted, tuple([pc.pile for pc in e.pile_cards])),
    )
    if e.eligible is None:
        return _keep_draft(s)
    return replace(s, pending=AwaitingDraftChallenge(e.seat, e.eligible))


def _keep_draft(s: GameState) -> GameState:
    assert s.draft is not None
    return start_flips(replace(s, stacks=push_set(s.stacks, s.draft.drafter, s.draft.set)))


def start_flips(s: GameState) -> GameState:
    # An emptied draft pile stays empty for the rest of the round (§17 A33).
    assert s.draft is not None
    queue = tuple([p for p in s.draft.piles if s.draft_piles[p]])
    return after_flip(replace(s, draft=None, flip_queue=queue))


def _draft_challenge_passed(s: GameState, e: DraftChallengePassed) -> GameState:
    return _keep_draft(s)


def _pile_card_revealed(s: GameState, e: PileCardRevealed) -> GameState:
    s = replace(s, draft_face_up=put(s.draft_face_up, e.pile, True))
    if card_table(s.ruleset.edition)[e.card].kind is Kind.ACTION:
        return replace(s, pending=Flipping())  # its effect follows (§14.6)
    return after_flip(replace(s, flip_queue=s.flip_queue[1:]))


def _spend_revealed(s: GameState, pile: int, card: str) -> GameState:
    """The revealed action card goes out of play; a non-empty pile flips its next card (chain)."""
    rest = s.draft_piles[pile][1:]
    queue = s.flip_queue[1:]
    if rest:
        queue = (pile, *queue)
    return after_flip(
        replace(
            s,
            draft_piles=put(s.draft_piles, pile, rest),
            draft_face_up=put(s.draft_face_up, pile, False),
            out_of_play=(*s.out_of_play, card),
            flip_queue=queue,
        )
    )


def _revealed_swap_applied(s: GameState, e: RevealedSwapApplied) -> GameState:
    a, b = e.seats
    return _spend_revealed(replace(s, stacks=swap_tops(s.stacks, a, b)), e.pile, e.card)


def _revealed_action_returned(s: GameState, e: RevealedActionReturned) -> GameState:
    assert e.position is not None
    rest = list(s.draft_piles[e.pile][1:])
    rest.insert(e.position, e.card)
    return replace(
        s,
        draft_piles=put(s.draft_piles, e.pile, tuple(rest)),
        draft_face_up=put(s.draft_face_up, e.pile, False),
        pushbacks=s.pushbacks + 1,
        pending=Flipping(),
    )


def _revealed_action_discarded(s: GameState, e: RevealedActionDiscarded) -> GameState:
    return _spend_revealed(s, e.pile, e.card)


def _revealed_move_awaiting(s: GameState, e: RevealedMoveAwaitingChoices) -> GameState:
    return replace(s, pending=AwaitingMoveDirections(e.pile, e.card, e.choosers, ()))


def _move_direction_chosen(s: GameState, e: MoveDirectionChosen) -> GameState:
    p = s.pending
    assert isinstance(p, AwaitingMoveDirections)
    return replace(
        s,
        pending=replace(
            p, awaiting=p.awaiting[1:], choices=(*p.choices, StackMove(e.target_seat, e.direction))
        ),
    )


def _revealed_move_applied(s: GameState, e: RevealedMoveApplied) -> GameState:
    stacks = s.stacks
    for move in e.moves:
        stacks = put(stacks, move.seat, move_stack(stacks[move.seat], move.direction))
    return _spend_revealed(replace(s, stacks=stacks), e.pile, e.card)


DRAFT_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    SetDrafted: _set_drafted,
    DraftChallengePassed: _draft_challenge_passed,
    PileCardRevealed: _pile_card_revealed,
    RevealedSwapApplied: _revealed_swap_applied,
    RevealedActionReturned: _revealed_action_returned,
    RevealedActionDiscarded: _revealed_action_discarded,
    RevealedMoveAwaitingChoices: _revealed_move_awaiting,
    MoveDirectionChosen: _move_direction_chosen,
    RevealedMoveApplied: _revealed_move_applied,
}
