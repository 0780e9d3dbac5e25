"""The read-model rows of one game, computed from its folded state alone.

Every projection is a function of (game, its last recorded time), never of the events' order
of arrival, so `rebuild` (fold the log, compute) and the live path (compute after each
command) cannot disagree.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cya_rules import spectator_view
from service.events.records import ReadModelRows
from service.events.tables import HANDS, SPECTATOR
from service.table.clock import deadline, due_work_of
from service.table.game import Game

_encode = msgspec.json.Encoder().encode

def read_model_rows(game: Game, *, lobby_changed: bool) -> ReadModelRows:
    """Every read-model row of `game`, as a command that left it so writes them.
    `lobby_changed`: the command created the game or changed its lobby (seats, a resignation),
    so its whole games row is written, not only the progress columns."""
    return ReadModelRows(game.game_id, games_progress(game),
                         games_row(game) if lobby_changed else None, view_rows(game),
                         due_work_of(game))


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
        "spectator_delay": lobby.spectator_delay,
        "rated": lobby.rated,
        "invited": _encode(lobby.invited).decode(),
        "rematch_of": lobby.rematch_of,
        "rematch": lobby.rematch,
        "end_reason": lobby.end_reason,
        "created_at": game.created_at,
        **games_progress(game),
    }


def games_progress(game: Game) -> dict[str, Any]:
    """The `PROGRESS_COLUMNS` of the games row: those a command may change without touching
    the lobby."""
    pending = game.pending_seat()
    return {
        "game_id": game.game_id,
        "status": game.status,
        "version": game.version,
        "pending_seats": _encode([pending[0]] if pending else []).decode(),
        "deadline": deadline(game),
        "updated_at": game.updated_at,
    }


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
