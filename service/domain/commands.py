"""Commands: what a seat (or the server) asks the game to do. Imperative names, tagged by `type`."""

from __future__ import annotations

from typing import Literal

import msgspec

from .state import Direction


class _Command(msgspec.Struct, frozen=True, gc=False, tag_field="type", forbid_unknown_fields=True):
    pass


class StartGame(_Command, frozen=True, tag="start_game"):
    """Issued by the server, never by a seat: the master seed is secret (RULES §15)."""

    seed: bytes


class FormSet(_Command, frozen=True, tag="form_set"):
    """§7.1: `hand` takes two hand cards; `discard` takes one hand card and the discard top."""

    source: Literal["hand", "discard"]
    hand_cards: tuple[str, ...]


class Discard(_Command, frozen=True, tag="discard"):
    card: str


class Challenge(_Command, frozen=True, tag="challenge"):
    """§7.3: open a challenge on another seat's top (or second) set with an opening play."""

    target_seat: int
    position: Literal["top", "second"]
    cards: tuple[str, ...]


class DraftSet(_Command, frozen=True, tag="draft_set"):
    """§14.2: one hand card plus face-up draft pile tops (named by card id)."""

    hand_card: str
    pile_cards: tuple[str, ...]


class ImproveSet(_Command, frozen=True, tag="improve_set"):
    card: str


class PlaySwap(_Command, frozen=True, tag="play_swap"):
    card: str
    target_seat: int


class PlayMove(_Command, frozen=True, tag="play_move"):
    card: str
    target_seat: int
    direction: Direction


class EndTurn(_Command, frozen=True, tag="end_turn"):
    pass


class Respond(_Command, frozen=True, tag="respond"):
    """§8.4: answer a challenge with exactly the required play."""

    cards: tuple[str, ...]


class Concede(_Command, frozen=True, tag="concede"):
    pass


class ChallengeDraft(_Command, frozen=True, tag="challenge_draft"):
    """§14.3: the eligible opponent challenges a drafted set out of turn."""

    cards: tuple[str, ...]


class PassDraft(_Command, frozen=True, tag="pass_draft"):
    pass


class ChooseMoveDirection(_Command, frozen=True, tag="choose_move_direction"):
    """§14.6: the direction for the other affected seat's stack after a revealed Move."""

    direction: Direction


Command = (
    StartGame
    | FormSet
    | Discard
    | Challenge
    | DraftSet
    | ImproveSet
    | PlaySwap
    | PlayMove
    | EndTurn
    | Respond
    | Concede
    | ChallengeDraft
    | PassDraft
    | ChooseMoveDirection
)

# Commands a seat may send (StartGame is the server's).
SeatCommand = (
    FormSet
    | Discard
    | Challenge
    | DraftSet
    | ImproveSet
    | PlaySwap
    | PlayMove
    | EndTurn
    | Respond
    | Concede
    | ChallengeDraft
    | PassDraft
    | ChooseMoveDirection
)
