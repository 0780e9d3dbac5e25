"""The only ways hidden cards leave the domain: per-viewer views and event redaction (RULES §15).

A viewer is a seat number, or None for a spectator (and anyone else without a seat).
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec.structs import replace

from .cards import card_table
from .events import CardsDrawn, Event, GameStarted, RevealedActionReturned, RoundStarted
from .ruleset import RuleSet
from .scoring import stack_value
from .state import CardSet, DraftInProgress, GameState, Pending, Status

Viewer = int | None
Visibility = Literal["public", "server"] | int  # an int: that seat alone sees it in full


class SetView(msgspec.Struct, frozen=True, gc=False):
    type: str
    count: int
    top: str
    cards: tuple[str, ...] | None  # None unless set composition is public (§17 A45)


class SeatView(msgspec.Struct, frozen=True, gc=False):
    seat: int
    hand_count: int
    stack: tuple[SetView, ...]
    stack_value: int | None  # None unless set composition is public
    total: int
    round_wins: int


class PileView(msgspec.Struct, frozen=True, gc=False):
    top: str | None  # the face-up top card, if any
    count: int


class GameView(msgspec.Struct, frozen=True, gc=False):
    """What one viewer may know of the game. `hand` is None for a spectator."""

    viewer: int | None
    hand: tuple[str, ...] | None
    ruleset: RuleSet
    status: Status
    round_no: int
    active: int
    actions_taken: int
    pending: Pending
    awaiting: tuple[int, ...]
    seats: tuple[SeatView, ...]
    draw_count: int
    discard_pile: tuple[str, ...]  # the last card is the top
    draft_piles: tuple[PileView, ...]
    draft: DraftInProgress | None  # a drafted set waiting for its challenge window
    out_of_play: tuple[str, ...]
    removed: tuple[str, ...]
    round_scores: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]


def player_view(state: GameState, seat: int) -> GameView:
    return _view(state, seat)


def spectator_view(state: GameState) -> GameView:
    return _view(state, None)


# A stack's part of a view, found by the stack's identity: a command leaves most stacks alone,
# and the state after it shares them with the state before. Hashing the stack and the ruleset
# as a cache key cost as much as the rest of the view. Each entry holds its stack and ruleset,
# so their ids cannot be reused while it lives.
_STACK_PARTS: dict[int, tuple[tuple[CardSet, ...], RuleSet, tuple[SetView, ...], int | None]] = {}
_STACK_PARTS_MAX = 8192


def _stack_part(stack: tuple[CardSet, ...], ruleset: RuleSet
                ) -> tuple[tuple[SetView, ...], int | None]:
    """The stack's sets as a view shows them, and its value (None unless public)."""
    part = _STACK_PARTS.get(id(stack))
    if part is None or part[0] is not stack or part[1] is not ruleset:
        public = ruleset.public_set_composition
        sets = tuple(SetView(cs.type, len(cs.cards), cs.cards[0], cs.cards if public else None)
                     for cs in stack)
        value = stack_value(card_table(ruleset.edition), stack) if public else None
        if len(_STACK_PARTS) >= _STACK_PARTS_MAX:
            _STACK_PARTS.clear()
        part = _STACK_PARTS[id(stack)] = (stack, ruleset, sets, value)
    return part[2], part[3]


def _view(state: GameState, viewer: Viewer) -> GameView:
    rs, hands = state.ruleset, state.hands
    seats = []
    for i, stack in enumerate(state.stacks or ((),) * state.players):
        sets, value = _stack_part(stack, rs)
        seats.append(SeatView(i, len(hands[i]) if hands else 0, sets, value, state.totals[i],
                              state.round_wins[i]))
    piles = tuple(
        PileView(pile[0] if pile and up else None, len(pile))
        for pile, up in zip(state.draft_piles, state.draft_face_up, strict=True)
    )
    return GameView(
        viewer=viewer,
        hand=state.hands[viewer] if viewer is not None and state.hands else None,
        ruleset=state.ruleset,
        status=state.status,
        round_no=state.round_no,
        active=state.active,
        actions_taken=state.actions_taken,
        pending=state.pending,
        awaiting=state.pending_seats(),
        seats=tuple(seats),
        draw_count=len(state.draw_pile),
        discard_pile=state.discard_pile,
        draft_piles=piles,
        draft=state.draft,
        out_of_play=state.out_of_play,
        removed=state.removed,
        round_scores=state.round_scores,
        winners=state.winners,
    )


_SERVER_ONLY = frozenset({GameStarted, RoundStarted, RevealedActionReturned})


def visibility(event: Event) -> Visibility:
    """Who may see the event in full; everyone else gets `redact(event, viewer)`."""
    # By class: `isinstance` tries each class in turn, and this runs for every event stored.
    if type(event) in _SERVER_ONLY:
        return "server"
    if type(event) is CardsDrawn:
        return event.seat
    return "public"


def redact(event: Event, viewer: Viewer) -> Event:
    """The event as `viewer` may see it: hidden cards become counts (their public shadow)."""
    if isinstance(event, CardsDrawn):
        return event if viewer == event.seat else replace(event, cards=None)
    if isinstance(event, RoundStarted):
        hands = tuple(h if i == viewer else () for i, h in enumerate(event.hands))
        return replace(event, hands=hands, draft_piles=None, draw_pile=None)
    if isinstance(event, GameStarted):
        return replace(event, seed=None)
    if isinstance(event, RevealedActionReturned):
        return replace(event, position=None)
    return event
