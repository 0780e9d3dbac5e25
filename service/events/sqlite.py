"""The embedded backend: an SQLite file through aiosqlite.

A command's write is one transaction under `BEGIN IMMEDIATE` (see `engine.py`): the events,
then its game's read-model rows. Reads go through SQLAlchemy; there is one writer at a time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar

import msgspec
import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import insert
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.engine import WRITE_OPTION
from service.events.event_store import EventStore
from service.events.faults import Fault
from service.events.hot_reads import HotRead
from service.events.records import Batch, ReadModelRows
from service.events.tables import (
    PROGRESS_COLUMNS,
    RATINGS_COLUMNS,
    due_work,
    game_views,
    games,
    webhook_messages,
)


def _upsert(table: sa.Table, keep: tuple[str, ...] = ()) -> Any:
    """INSERT … ON CONFLICT (primary key) DO UPDATE every other column but `keep`."""
    ins = insert(table)
    key = [c.name for c in table.primary_key.columns]
    return ins.on_conflict_do_update(
        index_elements=key,
        set_={c.name: ins.excluded[c.name] for c in table.columns
              if c.name not in key and c.name not in keep})


_UPSERT_GAME = _upsert(games, keep=RATINGS_COLUMNS)
_UPSERT_VIEWS, _UPSERT_DUE = _upsert(game_views), _upsert(due_work)
# Bound under other names: SQLAlchemy keeps the columns' own names for its VALUES.
_UPDATE_PROGRESS = (games.update().where(games.c.game_id == sa.bindparam("_game_id"))
                    .values({c: sa.bindparam(f"_{c}") for c in PROGRESS_COLUMNS[1:]}))


class SqliteEventStore(EventStore):
    dialect: ClassVar[str] = "sqlite"

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            await conn.execution_options(**{WRITE_OPTION: True})  # BEGIN IMMEDIATE
            async with conn.begin():
                yield conn

    async def commit(self, batch: Batch, rows: ReadModelRows) -> None:
        async with self.write() as conn:
            await self.append(conn, batch)
            await write_read_models(conn, rows)

    async def fetch(self, read: HotRead, game_id: str) -> Sequence[Any]:
        async with self.engine.connect() as conn:
            # One statement sees one committed snapshot: no transaction of its own.
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            rows: Sequence[Any] = (await conn.execute(read.statement, {"game_id": game_id})).all()
            return rows

    def seats_hold(self, player_id: str) -> sa.ColumnElement[bool]:
        # No JSON index here: a substring of the seats' compact JSON (msgspec's).
        return sa.cast(games.c.seats, sa.Text).contains(f'"player_id":"{player_id}"')

    @staticmethod
    def fault_of(cause: BaseException) -> Fault | None:
        """sqlite3's errors that are the database's doing (`faults.py`): its file locked past
        the busy timeout, or a table or column missing."""
        if not isinstance(cause, sqlite3.OperationalError):
            return None
        if "locked" in str(cause):
            return Fault.UNREACHABLE
        if str(cause).startswith(("no such table", "no such column")):
            return Fault.NOT_MIGRATED
        return None


async def write_read_models(conn: AsyncConnection, rows: ReadModelRows) -> None:
    if rows.game is not None:
        await conn.execute(_UPSERT_GAME, [rows.game])
    else:
        await conn.execute(_UPDATE_PROGRESS, [{f"_{c}": v for c, v in rows.progress.items()}])
    await conn.execute(_UPSERT_VIEWS, rows.views)
    if rows.due is None:
        await conn.execute(sa.delete(due_work).where(due_work.c.game_id == rows.game_id))
    else:
        await conn.execute(_UPSERT_DUE, [msgspec.structs.asdict(rows.due)])
    if rows.messages:
        await conn.execute(sa.insert(webhook_messages), rows.messages)
