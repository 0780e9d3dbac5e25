"""The hottest reads on PostgreSQL: one statement on a plain asyncpg pool.

For a one-row lookup, SQLAlchemy's execution path (checkout, the compiled statement's cache
key, the greenlet hop, result wrapping) costs more than the query does: a seat's view from the
projection rows, and a worker's catch-up on the log, go around it. The statements themselves
are still built with SQLAlchemy Core and compiled once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
from sqlalchemy.dialects.postgresql import asyncpg as asyncpg_dialect
from sqlalchemy.sql import ClauseElement, Select


class Row(asyncpg.Record):  # type: ignore[misc]
    """Columns by attribute too, as SQLAlchemy's rows have them, so one row-reading function
    serves both paths."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def compiled(statement: ClauseElement) -> str:
    """A Core statement as asyncpg runs it ($1, $2, … in the order of its bind parameters)."""
    dialect = asyncpg_dialect.dialect()  # type: ignore[no-untyped-call]
    return str(statement.compile(dialect=dialect))


class HotRead:
    """A hot read of one game's rows: a Core statement with a `game_id` bind parameter, kept
    with its asyncpg text (compiled once). `EventStore.fetch` runs it."""

    def __init__(self, statement: Select[Any]) -> None:
        self.statement, self.sql = statement, compiled(statement)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """asyncpg resets every released connection with a statement of its own (RESET ALL,
    UNLISTEN *, …): a second round trip per read. These connections only ever run single
    autocommit SELECTs, which leave no session state behind to reset."""


class HotReads:
    """A pool opened at the first read. `max_size`: reads past it wait for a connection, which
    holds one only for its statement (never across an await of the caller's)."""

    def __init__(self, dsn: str, *, max_size: int) -> None:
        self._url = dsn  # asyncpg's: no SQLAlchemy driver name
        self._max_size = max_size
        self._pool: asyncpg.Pool | None = None
        self._lock = asyncio.Lock()

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        pool = self._pool or await self._open()
        return await pool.fetch(sql, *args, record_class=Row)  # type: ignore[no-any-return]

    async def _open(self) -> asyncpg.Pool:
        async with self._lock:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(
                    self._url, min_size=1, max_size=self._max_size, reset=_keep_session)
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
