"""The read-model rows of one game, computed from its folded state alone.

Every projection is a function of (game, its last recorded time), never of the events' order
of arrival, so `rebuild` (fold the log, compute) and the live path (compute after each
command) cannot disagree.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import msgspec
from msgspec.structs import replace

from service.domain import GameState, GameView, spectator_view
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
    """The exact JSON the API serves: one view per seat and the spectator's."""
    state = game.state
    assert state is not None
    spectator = spectator_view(state)
    rows = [
        {"game_id": game.game_id, "viewer": seat, "version": game.version,
         "view": _encode(_seat_view(state, spectator, seat)).decode()}
        for seat in range(state.players)
    ]
    rows.append({"game_id": game.game_id, "viewer": SPECTATOR, "version": game.version,
                 "view": _encode(spectator).decode()})
    return rows


def _seat_view(state: GameState, spectator: GameView, seat: int) -> GameView:
    """`player_view(state, seat)`, built from the spectator's view: a seat sees exactly what a
    spectator sees plus its own hand (tests hold this equal to `player_view`)."""
    hand = state.hands[seat] if state.hands else None
    return replace(spectator, viewer=seat, hand=hand)


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
