"""Reads of the read models, for the API and the workers: no folding, one indexed query each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from service.projections.rows import seat_view_json
from service.store.event_store import as_utc
from service.store.tables import HANDS, SPECTATOR, due_work, game_views, games


@dataclass(frozen=True, slots=True)
class StoredView:
    version: int
    json: str  # exactly what the API serves


@dataclass(frozen=True, slots=True)
class DueWork:
    game_id: str
    version: int
    kind: str  # "bot_turn" | "deadline"
    seat: int
    due_at: datetime


# The `game_views` rows the spectator's view is made from, and those any seat's view is.
SPECTATOR_ROWS: tuple[int, ...] = (SPECTATOR,)
SEAT_ROWS: tuple[int, ...] = (HANDS, SPECTATOR)


def viewers(seat: int | None) -> tuple[int, ...]:
    """The `game_views` rows a seat's view (or the spectator's, for None) is made from."""
    return SPECTATOR_ROWS if seat is None else SEAT_ROWS


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


async def view(conn: AsyncConnection, game_id: str, seat: int | None) -> StoredView | None:
    """A seat's view, or the spectator's for `seat=None`."""
    picked = pick_view((await conn.execute(
        sa.select(game_views.c.viewer, game_views.c.version, game_views.c.view)
        .where(game_views.c.game_id == game_id, game_views.c.viewer.in_(viewers(seat)))
    )).all(), seat)
    return None if picked is None else StoredView(picked[0].version, picked[1].decode())


async def game(conn: AsyncConnection, game_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(sa.select(games).where(games.c.game_id == game_id))).first()
    return None if row is None else dict(row._mapping)


async def lobby(
    conn: AsyncConnection,
    *,
    status: str | None = None,
    public_only: bool = True,
    before: tuple[datetime, str] | None = None,
    limit: int = 50,
) -> list[dict[str, Any]]:
    """Games newest first; `before` is the (created_at, game_id) of the last row of the
    previous page (keyset pagination: stable while games are created)."""
    q = sa.select(games).order_by(games.c.created_at.desc(), games.c.game_id.desc()).limit(limit)
    if status is not None:
        q = q.where(games.c.status == status)
    if public_only:
        q = q.where(games.c.public.is_(True))
    if before is not None:
        q = q.where(sa.tuple_(games.c.created_at, games.c.game_id) < sa.tuple_(*before))
    return [dict(r._mapping) for r in (await conn.execute(q)).all()]


async def due(conn: AsyncConnection, now: datetime, limit: int = 500) -> list[DueWork]:
    """Work whose time has come, oldest first: what a sweeper (re-)enqueues."""
    rows = (await conn.execute(
        sa.select(due_work).where(due_work.c.due_at <= now)
        .order_by(due_work.c.due_at).limit(limit)
    )).all()
    return [DueWork(r.game_id, r.version, r.kind, r.seat, as_utc(r.due_at)) for r in rows]
