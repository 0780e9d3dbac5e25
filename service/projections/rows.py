"""The read-model rows of one game, computed from its folded state alone.

Every projection is a function of (game, its last recorded time), never of the events' order
of arrival, so `rebuild` (fold the log, compute) and the live path (compute after each
command) cannot disagree.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import msgspec

from service.domain import spectator_view
from service.store.tables import HANDS, SPECTATOR
from service.table.game import Game
from service.table.lobby import BotSeat, HumanSeat

_encode = msgspec.json.Encoder().encode

BOT_TURN = "bot_turn"
DEADLINE = "deadline"


def games_row(game: Game) -> dict[str, Any]:
    lobby, state = game.lobby, game.state
    assert lobby is not None and state is not None, "a game row needs game_created"
    return {
        "creator": lobby.creator,
        "public": lobby.public,
        "ruleset": _encode(state.ruleset).decode(),
        "players": state.players,
        "seats": _encode(lobby.seats).decode(),
        "turn_clock": lobby.turn_clock,
        "timeout_policy": _encode(lobby.timeout_policy).decode(),
        "created_at": game.created_at,
        **games_progress(game),
    }


def games_progress(game: Game) -> dict[str, Any]:
    """The columns of the games row that a command may change without touching the lobby
    (the rest come from the lobby, the ruleset and the creation time)."""
    pending = game.pending_seat()
    return {
        "game_id": game.game_id,
        "status": game.status,
        "version": game.version,
        "pending_seats": _encode([pending[0]] if pending else []).decode(),
        "deadline": deadline(game),
        "updated_at": game.updated_at,
    }


def deadline(game: Game) -> datetime | None:
    """A human's decision under a turn clock expires `turn_clock` seconds after the command
    that made it pending (every command of the rules restarts the clock of the decision it
    leaves; another seat's resignation does not)."""
    pending = game.pending_seat()
    if pending is None or game.lobby is None or game.lobby.turn_clock is None:
        return None
    if not isinstance(pending[1], HumanSeat) or game.decision_since is None:
        return None
    return game.decision_since + timedelta(seconds=game.lobby.turn_clock)


def view_rows(game: Game) -> list[dict[str, Any]]:
    """The spectator's view, exactly as the API serves it, and every seat's hand.

    A seat sees what a spectator sees plus its own hand, so the API serves a seat
    `seat_view_json(hands, seat, spectator)`: a command writes two rows, not one view per seat
    (tests hold the result equal to `player_view`). The hands row is a JSON array indexed by
    seat (`null` before the deal).
    """
    state = game.state
    assert state is not None
    return [
        {"game_id": game.game_id, "viewer": HANDS, "version": game.version,
         "view": _encode(state.hands if state.hands else None).decode()},
        {"game_id": game.game_id, "viewer": SPECTATOR, "version": game.version,
         "view": _encode(spectator_view(state)).decode()},
    ]


_SPECTATOR_HEAD = b'{"viewer":null,"hand":null,'  # GameView's first two fields
_decode_hands = msgspec.json.Decoder(list[list[str]] | None).decode


def seat_view_json(hands: bytes, seat: int, spectator: bytes) -> bytes:
    """A seat's view: its own hand from the hands row, then the spectator's view, as one
    object."""
    if not spectator.startswith(_SPECTATOR_HEAD):
        raise ValueError("not a stored spectator view")
    held = _decode_hands(hands)
    own = _encode({"viewer": seat, "hand": held[seat] if held else None})
    return own[:-1] + b"," + spectator[len(_SPECTATOR_HEAD):]


def due_row(game: Game) -> dict[str, Any] | None:
    """What the workers must do next for this game, if anything."""
    pending = game.pending_seat()
    if pending is None or game.updated_at is None:
        return None
    seat, controller = pending
    if isinstance(controller, BotSeat):
        kind, due_at = BOT_TURN, game.updated_at
    else:
        at = deadline(game)
        if at is None:
            return None
        kind, due_at = DEADLINE, at
    return {"game_id": game.game_id, "version": game.version, "kind": kind, "seat": seat,
            "due_at": due_at}
