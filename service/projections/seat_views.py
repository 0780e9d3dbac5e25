"""A seat's view of a game as `GET /view` serves it: read from the projection rows, or rendered
from this process's folded game.

Both render the same bytes: the header fields, then the view exactly as the projection stores
it (`projections.rows.view_rows`). Memory is used only when this process is the only writer
(see `HttpSettings.views_from_memory`), where its cache is never behind the log.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa

from cya_rules import player_view, spectator_view
from service.events.event_store import EventStore
from service.events.hot_reads import HotRead
from service.events.tables import HANDS, SPECTATOR, game_views, games
from service.projections.rows import seat_view_json
from service.table.clock import deadline
from service.table.game import Game

_encode = msgspec.json.Encoder().encode

# The `game_views` rows the spectator's view is made from, and those any seat's view is.
SPECTATOR_ROWS: tuple[int, ...] = (SPECTATOR,)
SEAT_ROWS: tuple[int, ...] = (HANDS, SPECTATOR)


def viewers(seat: int | None) -> tuple[int, ...]:
    """The `game_views` rows a seat's view (or the spectator's, for None) is made from."""
    return SPECTATOR_ROWS if seat is None else SEAT_ROWS


_VIEW = sa.select(game_views.c.viewer, game_views.c.version, game_views.c.view, games.c.status,
                  games.c.pending_seats, games.c.deadline, games.c.seats).join(
    games, games.c.game_id == game_views.c.game_id)
# One statement per set of rows a view is made from, built once, its viewers written into it:
# building it for every request (an expanding IN) cost more than running it.
_VIEW_ROWS = {rows: HotRead(_VIEW.where(game_views.c.game_id == sa.bindparam("game_id"),
                                        game_views.c.viewer.in_([sa.literal_column(str(v))
                                                                 for v in rows])))
              for rows in (SPECTATOR_ROWS, SEAT_ROWS)}
_VERSION = HotRead(sa.select(games.c.version).where(games.c.game_id == sa.bindparam("game_id")))


async def view_rows(store: EventStore, game_id: str, seat: int | None) -> Sequence[Any]:
    """The rows `body_from_rows` makes a seat's view of (the spectator's, for None) from, each
    with the games row's status, pending seats, deadline and seats."""
    return await store.fetch(_VIEW_ROWS[viewers(seat)], game_id)


async def recorded_version(store: EventStore, game_id: str) -> int | None:
    """The version a game's read models are at, None for no such game."""
    found = await store.fetch(_VERSION, game_id)
    return found[0].version if found else None


def pick_view(rows: Iterable[Any], seat: int | None) -> tuple[Any, bytes] | None:
    """From a game's rows for `viewers(seat)`: the spectator's row (it carries the version) and
    the view as served, the seat's hand spliced into the spectator's view."""
    by_viewer = {r.viewer: r for r in rows}
    spectator = by_viewer.get(SPECTATOR)
    if spectator is None:
        return None
    view = spectator.view.encode()
    if seat is None:
        return spectator, view
    hands = by_viewer.get(HANDS)
    return None if hands is None else (spectator, seat_view_json(hands.view.encode(), seat, view))


def view_body(game_id: str, version: int, seat: int | None, status: str, awaiting: list[int],
              when: datetime | None, view: bytes | None) -> bytes:
    head = _encode({"game_id": game_id, "version": version, "seat": seat, "status": status,
                    "awaiting": awaiting, "deadline": when})
    return head[:-1] + b',"view":' + (view if status != "lobby" and view else b"null") + b"}"


def body_from_rows(game_id: str, seat: int | None, rows: Sequence[Any]) -> tuple[int, bytes] | None:
    """The version and body from the projection rows `view_rows` reads (see `pick_view`)."""
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
