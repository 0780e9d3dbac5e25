"""The only ways hidden cards leave the domain: per-viewer views and event redaction (RULES §15).

A viewer is a seat number, or None for a spectator (and anyone else without a seat).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec.structs import replace

from .cards import card_table
from .docs import doc
from .events import (
    CardsDrawn,
    Event,
    GameStarted,
    RevealedActionReturned,
    RoundStarted,
    SetFormed,
)
from .ruleset import RuleSet
from .scoring import stack_value
from .state import CardSet, DraftInProgress, GameState, Pending, Status

Viewer = int | None
Visibility = Literal["public", "server"] | int  # an int: that seat alone sees it in full


class SetView(msgspec.Struct, frozen=True, gc=False):
    """One set in a seat's stack as every viewer sees it (§15, §17 A45)."""

    type: Annotated[str, doc("The set's asset type, e.g. `jewels`.")]
    count: Annotated[int, doc("Number of cards in the set.")]
    top: Annotated[str, doc("Id of the set's top card, always an asset of the set's type.")]
    cards: Annotated[
        tuple[str, ...] | None,
        doc(
            "Every card id in the set, assets first, then wilds. null unless the rule set's"
            " public_set_composition is on, or (rules version 3 on) the game is over (§17 A45)."
        ),
    ]


class SeatView(msgspec.Struct, frozen=True, gc=False):
    """What every viewer sees of one seat: hand size, stack and scores; never its hand's cards."""

    seat: Annotated[int, doc("The seat number, 0-based.")]
    hand_count: Annotated[int, doc("Number of cards in the seat's hand; 0 before the first deal.")]
    stack: Annotated[
        tuple[SetView, ...],
        doc(
            "The seat's sets, bottom first: the first is the bottom set, which can never be"
            " challenged; the last is the top set (§4, §7.3)."
        ),
    ]
    stack_value: Annotated[
        int | None,
        doc(
            "Dollar value of every card in the stack, its score if the round ended now (§11)."
            " null when the set's cards are: it would tell a wild from an asset."
        ),
    ]
    total: Annotated[
        int, doc("Cumulative score in dollars over the rounds finished so far (§11, §12).")
    ]
    round_wins: Annotated[
        int,
        doc(
            "Rounds this seat won with the unique highest round score; only"
            " first_to_2_round_wins decides the game by them (§12, §17 A53)."
        ),
    ]


class PileView(msgspec.Struct, frozen=True, gc=False):
    """One draft pile as every viewer sees it: its face-up top card and its size (§14, §15)."""

    top: Annotated[
        str | None,
        doc(
            "Id of the face-up top card. null when the pile is empty, or while its top card is"
            " face down: after a draft from the pile, until the draft is resolved (§17 A50)."
        ),
    ]
    count: Annotated[int, doc("Number of cards in the pile, face-down ones included.")]


class GameView(msgspec.Struct, frozen=True, gc=False):
    """What one viewer may know of the game (§15). A seat sees its own hand; a spectator sees
    none. Everything else is the same for every viewer. Card ids are `<type>#<n>`, e.g.
    `toy_train#8`."""

    viewer: Annotated[int | None, doc("The seat this view is for; null for a spectator.")]
    hand: Annotated[
        tuple[str, ...] | None,
        doc("Card ids in the viewer's hand; null for a spectator, and before the first deal."),
    ]
    ruleset: Annotated[RuleSet, doc("The rules the game is played with.")]
    status: Annotated[Status, doc("playing, or finished once the game is over.")]
    round_no: Annotated[int, doc("The current round, from 1; 0 before the first deal.")]
    active: Annotated[
        int,
        doc("The seat whose turn it is, also while other seats answer during that turn."),
    ]
    actions_taken: Annotated[
        int,
        doc("Actions the active seat has taken this turn: up to 1, or 2 with two_actions (§13.2)."),
    ]
    pending: Annotated[
        Pending, doc("The decision the game waits for; its `type` says which (§6).")
    ]
    awaiting: Annotated[
        tuple[int, ...],
        doc("The seat whose decision the game waits for, as a list of one; empty when none."),
    ]
    seats: Annotated[tuple[SeatView, ...], doc("Every seat, in seat order.")]
    draw_count: Annotated[int, doc("Number of cards left in the draw pile.")]
    discard_pile: Annotated[
        tuple[str, ...],
        doc("The discard pile, bottom first: the last card is the top, the only usable one."),
    ]
    draft_piles: Annotated[
        tuple[PileView, ...],
        doc(
            "The three draft piles, by pile number from 0, in 2- and 3-player games of en_2022 and"
            " de_2024; empty otherwise. With 3 players pile i lies between seat i and seat"
            " i + 1 mod 3 (§14.1)."
        ),
    ]
    draft: Annotated[
        DraftInProgress | None,
        doc(
            "A drafted set waiting for its challenge window, or for the challenge on it, to"
            " end (§14.3); null otherwise."
        ),
    ]
    out_of_play: Annotated[
        tuple[str, ...],
        doc(
            "Action cards used up this round, played from hand or revealed on a draft pile,"
            " in the order they left play (§13.4, §14.6)."
        ),
    ]
    removed: Annotated[
        tuple[str, ...],
        doc(
            "The edition's cards left out of this round's deck: the 2-player reduction and"
            " advanced cards whose options are off (§5.1)."
        ),
    ]
    round_scores: Annotated[
        tuple[tuple[int, ...], ...],
        doc("One list per finished round, oldest first: each seat's score in dollars (§11)."),
    ]
    winners: Annotated[
        tuple[int, ...],
        doc("Empty until the game is over, then the winning seats: several on a shared win."),
    ]


def player_view(state: GameState, seat: int) -> GameView:
    return _view(state, seat)


def spectator_view(state: GameState) -> GameView:
    return _view(state, None)


# A stack's part of a view, found by the stack's identity: a command leaves most stacks alone,
# and the state after it shares them with the state before. Hashing the stack and the ruleset
# as a cache key cost as much as the rest of the view. Each entry holds its stack and ruleset,
# so their ids cannot be reused while it lives.
_STACK_PARTS: dict[
    int, tuple[tuple[CardSet, ...], RuleSet, tuple[SetView, ...], int | None, bool]] = {}
_STACK_PARTS_MAX = 8192


def _stack_part(stack: tuple[CardSet, ...], ruleset: RuleSet, public: bool
                ) -> tuple[tuple[SetView, ...], int | None]:
    """The stack's sets as a view shows them, and its value (None unless public)."""
    part = _STACK_PARTS.get(id(stack))
    if part is None or part[0] is not stack or part[1] is not ruleset or part[4] is not public:
        sets = tuple(SetView(cs.type, len(cs.cards), cs.cards[0], cs.cards if public else None)
                     for cs in stack)
        value = stack_value(card_table(ruleset.edition), stack) if public else None
        if len(_STACK_PARTS) >= _STACK_PARTS_MAX:
            _STACK_PARTS.clear()
        part = _STACK_PARTS[id(stack)] = (stack, ruleset, sets, value, public)
    return part[2], part[3]


def sets_shown(state: GameState) -> bool:
    """Whether views show the sets' cards: always with public_set_composition; else, since
    rules version 3, once the game is over and its last round scored (§17 A45, §18)."""
    rs = state.ruleset
    return rs.sets_public or (state.status == "finished" and rs.since(3))


def _view(state: GameState, viewer: Viewer) -> GameView:
    rs, hands = state.ruleset, state.hands
    public = sets_shown(state)
    seats = []
    for i, stack in enumerate(state.stacks or ((),) * state.players):
        sets, value = _stack_part(stack, rs, public)
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
    if type(event) is SetFormed and event.secret:
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
    if isinstance(event, SetFormed) and event.secret and viewer != event.seat:
        return replace(event, cards=event.face_up())
    return event
