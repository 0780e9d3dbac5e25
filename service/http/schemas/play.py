"""The shapes of play (`routes/play.py`, `routes/audit.py`): your view, your legal commands, a
command's result, your view at a past version."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from cya_rules import GameView
from cya_rules.commands import SeatCommand
from cya_rules.docs import doc
from service.http.schemas.descriptions import (
    AWAITING_DOC,
    DEADLINE_DOC,
    GAME_ID_DOC,
    SEAT_DOC,
    VERSION_DOC,
)
from service.http.schemas.events import EventOut
from service.receipts import Receipt
from service.table.turns import GameStatus, Turn


class ViewOut(msgspec.Struct):
    """Your view of a game, as `GET /v1/games/{game_id}/view` returns it (ETag: the version)."""

    game_id: Annotated[str, doc(GAME_ID_DOC)]
    version: Annotated[int, doc(VERSION_DOC)]
    seat: Annotated[int | None, doc(SEAT_DOC)]
    status: Annotated[GameStatus, doc("`lobby` before the deal, `playing` or `finished`.")]
    awaiting: Annotated[list[int], doc(AWAITING_DOC)]
    deadline: Annotated[datetime | None, doc(DEADLINE_DOC)]
    view: Annotated[
        GameView | None,
        doc("The game as you may see it (a hand only if it is yours); null before the deal."),
    ]


class LegalCommands(msgspec.Struct):
    """Your legal commands now, as `GET /v1/games/{game_id}/legal-commands` returns them."""

    game_id: Annotated[str, doc(GAME_ID_DOC)]
    version: Annotated[int, doc("The game version the commands are legal at.")]
    seat: Annotated[int, doc("Your seat.")]
    commands: Annotated[
        list[SeatCommand],
        doc("Each ready to post to `POST /v1/games/{game_id}/commands` as it is; empty while"
            " the decision is another seat's or the game is not being played."),
    ]


class CommandResult(msgspec.Struct):
    """The answer of `POST /v1/games/{game_id}/commands`: the events caused and the new version."""

    game_id: Annotated[str, doc(GAME_ID_DOC)]
    version: Annotated[
        int,
        doc("The game's version after the command (for a dry run, the one its shown events"
            " would reach)."),
    ]
    events: Annotated[
        list[EventOut],
        doc("The events the command caused, as you may see them; a dry run's as a spectator"
            " would, and only as far as `partial` says."),
    ]
    replayed: Annotated[
        bool,
        doc("True when this `Idempotency-Key` came with this command before: the answer is"
            " the first request's result, and nothing new happened."),
    ]
    committed: Annotated[bool, doc("Whether the events were stored: false for `?dry_run=true`.")]
    partial: Annotated[
        bool,
        doc("True for a dry run that stops short: the game would go on by itself from there in"
            " a way that depends on cards hidden from you (whether another seat holds an"
            " answer, a face-down pile card, a round's end), so those events are left out, and"
            " so is whether they would happen. False otherwise."),
    ]
    receipt: Annotated[Receipt | None, doc(
        "The server's signed receipt for the log at `version` (docs/receipts.md): keep it."
        " Null for a dry run (nothing was stored), or when the operator turned receipts off.")]
    turn: Annotated[Turn | None, doc(
        "With `?turn=true`: your turn after the command, as `GET /turn?timeout=0` answers it"
        " (its `version` may be past this one: bots may have moved since). Null otherwise.")] \
        = None


class StateOut(msgspec.Struct):
    """Your view of a game at a past version, as `GET /v1/games/{game_id}/state` returns it."""

    game_id: Annotated[str, doc(GAME_ID_DOC)]
    version: Annotated[int, doc("The version asked for.")]
    seat: Annotated[int | None, doc(SEAT_DOC)]
    view: Annotated[
        GameView | None,
        doc("The game at that version as you may see it; null if it was not dealt yet."),
    ]
