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
from service.events.tables import SPECTATOR
from service.game import Game
from service.lobby import BotSeat, HumanSeat

_encode = msgspec.json.Encoder().encode

BOT_TURN = "bot_turn"
DEADLINE = "deadline"


def games_row(game: Game) -> dict[str, Any]:
    lobby, state = game.lobby, game.state
    assert lobby is not None and state is not None, "a game row needs game_created"
    pending = game.pending_seat()
    return {
        "game_id": game.game_id,
        "status": game.status,
        "creator": lobby.creator,
        "public": lobby.public,
        "ruleset": _encode(state.ruleset).decode(),
        "players": state.players,
        "seats": _encode(lobby.seats).decode(),
        "turn_clock": lobby.turn_clock,
        "timeout_policy": _encode(lobby.timeout_policy).decode(),
        "version": game.version,
        "pending_seats": _encode([pending[0]] if pending else []).decode(),
        "deadline": deadline(game),
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }


def deadline(game: Game) -> datetime | None:
    """A human's decision under a turn clock expires `turn_clock` seconds after the command
    that made it pending (every command restarts the clock of the decision it leaves)."""
    pending = game.pending_seat()
    if pending is None or game.lobby is None or game.lobby.turn_clock is None:
        return None
    if not isinstance(pending[1], HumanSeat) or game.updated_at is None:
        return None
    return game.updated_at + timedelta(seconds=game.lobby.turn_clock)


def view_rows(game: Game) -> list[dict[str, Any]]:
    """The spectator's view, exactly as the API serves it, and each seat's private part.

    A seat sees what a spectator sees plus its own hand, so its row holds only
    `{"viewer":seat,"hand":[...]}` and the API serves `seat_view_json(that, spectator)`: a
    command writes one full view instead of one per seat (tests hold the result equal to
    `player_view`).
    """
    state = game.state
    assert state is not None
    rows = [
        {"game_id": game.game_id, "viewer": seat, "version": game.version,
         "view": _encode({"viewer": seat, "hand": state.hands[seat] if state.hands else None})
         .decode()}
        for seat in range(state.players)
    ]
    rows.append({"game_id": game.game_id, "viewer": SPECTATOR, "version": game.version,
                 "view": _encode(spectator_view(state)).decode()})
    return rows


_SPECTATOR_HEAD = b'{"viewer":null,"hand":null,'  # GameView's first two fields


def seat_view_json(seat_part: bytes, spectator: bytes) -> bytes:
    """A seat's view: its stored part with the spectator's view after it, as one object."""
    if not spectator.startswith(_SPECTATOR_HEAD):
        raise ValueError("not a stored spectator view")
    return seat_part[:-1] + b"," + spectator[len(_SPECTATOR_HEAD):]


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
