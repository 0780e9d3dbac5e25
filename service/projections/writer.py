"""Writes a game's read models inside the command's transaction, and rebuilds them all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from service.projections.rows import due_row, games_row, view_rows
from service.store.tables import due_work, game_views, games
from service.table.game import Game

_INSERTS: dict[str, Callable[..., Any]] = {
    "postgresql": postgresql.insert,
    "sqlite": sqlite.insert,
}
_upserts: dict[tuple[str, str], Any] = {}


def _upsert(dialect: str, table: sa.Table) -> Any:
    """INSERT … ON CONFLICT (primary key) DO UPDATE, built once per dialect and table."""
    key = (dialect, table.name)
    if key not in _upserts:
        ins = _INSERTS[dialect](table)
        pk = [c.name for c in table.primary_key.columns]
        _upserts[key] = ins.on_conflict_do_update(
            index_elements=pk,
            set_={c.name: ins.excluded[c.name] for c in table.columns if c.name not in pk},
        )
    return _upserts[key]


async def project(conn: AsyncConnection, game: Game) -> dict[str, Any] | None:
    """Bring every read model of `game` up to its version; returns the due-work row, if any."""
    if game.lobby is None:
        return None
    dialect = conn.dialect.name
    await conn.execute(_upsert(dialect, games), [games_row(game)])
    await conn.execute(_upsert(dialect, game_views), view_rows(game))
    due = due_row(game)
    if due is None:
        await conn.execute(sa.delete(due_work).where(due_work.c.game_id == game.game_id))
    else:
        await conn.execute(_upsert(dialect, due_work), [due])
    return due


async def clear(conn: AsyncConnection) -> None:
    for table in (due_work, game_views, games):
        await conn.execute(sa.delete(table))
