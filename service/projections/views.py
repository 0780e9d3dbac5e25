"""The body of `GET /view`: from the projection row, or from this process's folded game.

Both render the same bytes: the header fields, then the view exactly as the projection stores
it (`projections.rows.view_rows`). Memory is used only when this process is the only writer
(see `HttpSettings.views_from_memory`), where its cache is never behind the log.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from service.domain import player_view, spectator_view
from service.projections.queries import pick_view
from service.projections.rows import deadline
from service.table.game import Game

_encode = msgspec.json.Encoder().encode


def view_body(game_id: str, version: int, seat: int | None, status: str, awaiting: list[int],
              when: datetime | None, view: bytes | None) -> bytes:
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    head = _encode({"game_id": game_id, "version": version, "seat": seat, "status": status,
                    "awaiting": awaiting, "deadline": when})
    return head[:-1] + b',"view":' + (view if status != "lobby" and view else b"null") + b"}"


def body_from_rows(game_id: str, seat: int | None, rows: Sequence[Any]) -> tuple[int, bytes] | None:
    """The version and body from the projection rows `_VIEW` reads (see
    `projections.queries.pick_view`)."""
    picked = pick_view(rows, seat)
    if picked is None:
        return None
    spectator, view = picked
    return spectator.version, view_body(game_id, spectator.version, seat, spectator.status,
                                        msgspec.json.decode(spectator.pending_seats),
                                        spectator.deadline, view)


class MemoryViews:
    """Rendered views of cached games, keyed by (game, viewer, version); bounded LRU."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._bodies: OrderedDict[tuple[str, int | None, int], bytes] = OrderedDict()

    def body(self, game: Game, seat: int | None) -> bytes:
        key = (game.game_id, seat, game.version)
        found = self._bodies.get(key)
        if found is not None:
            return found
        state = game.state
        view = None
        if state is not None and game.status != "lobby":
            view = _encode(spectator_view(state) if seat is None else player_view(state, seat))
        pending = game.pending_seat()
        body = view_body(game.game_id, game.version, seat, game.status,
                         [pending[0]] if pending else [], deadline(game), view)
        self._bodies[key] = body
        while len(self._bodies) > self._size:
            self._bodies.popitem(last=False)
        return body
