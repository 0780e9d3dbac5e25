"""Append + project as one atomic write: the only place a command's effects reach the database.

SQLite: one transaction of SQLAlchemy statements under `BEGIN IMMEDIATE`.

PostgreSQL: one statement — data-modifying CTEs write the projections, the main query inserts
the events — so a command costs one round trip and commits, or fails on a unique constraint,
atomically. Commands of different games that arrive while a write is in flight share the next
statement (group commit): PostgreSQL's per-statement and per-commit costs are paid once per
group. If a group hits a unique violation, each of its commands is retried alone, so one
command's conflict never fails another's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
from asyncpg.exceptions import UniqueViolationError

from .events.store import AppendRejected, Batch, EventStore
from .game import Game
from .projections.rows import due_row, games_row, view_rows
from .projections.writer import project

_GAME_COLS = ("game_id", "status", "creator", "public", "ruleset", "players", "seats",
              "turn_clock", "timeout_policy", "version", "pending_seats", "deadline",
              "created_at", "updated_at")
_GAME_TYPES = ("text", "text", "text", "bool", "text", "int", "text", "int", "text", "int",
               "text", "timestamptz", "timestamptz", "timestamptz")
_JSON_COLS = {"ruleset", "seats", "timeout_policy", "pending_seats"}
_EVENT_COLS = ("game_id", "version", "type", "schema_version", "data", "visibility",
               "command_id", "actor", "recorded_at", "hash")
_EVENT_TYPES = ("text", "int", "text", "int", "text", "text", "text", "text", "timestamptz",
                "text")


def _unnest(first: int, cols: Sequence[str], types: Sequence[str]) -> str:
    arrays = ", ".join(f"${first + i}::{t}[]" for i, t in enumerate(types))
    return f"unnest({arrays}) AS u({', '.join(cols)})"


def _select(cols: Sequence[str]) -> str:
    return ", ".join(f"u.{c}::json" if c in _JSON_COLS or c == "data" else f"u.{c}"
                     for c in cols)


_G = 6  # first parameter of the games arrays
_V = _G + len(_GAME_COLS)  # views: game_id, viewer, version, view
_D = _V + 4  # due work: games without any (for the delete), then the rows
_E = _D + 6  # events
_PG_COMMIT = f"""
WITH cmd AS (
    INSERT INTO commands (game_id, command_id, body_sha256, first_version, last_version)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[])
), game AS (
    INSERT INTO games ({", ".join(_GAME_COLS)})
    SELECT {_select(_GAME_COLS)} FROM {_unnest(_G, _GAME_COLS, _GAME_TYPES)}
    ON CONFLICT (game_id) DO UPDATE SET
        {", ".join(f"{c} = excluded.{c}" for c in _GAME_COLS[1:])}
), views AS (
    INSERT INTO game_views (game_id, viewer, version, view)
    SELECT {_select(("game_id", "viewer", "version", "view"))}
    FROM {_unnest(_V, ("game_id", "viewer", "version", "view"), ("text", "int", "int", "text"))}
    ON CONFLICT (game_id, viewer) DO UPDATE SET version = excluded.version, view = excluded.view
), due_gone AS (
    DELETE FROM due_work WHERE game_id = ANY(${_D}::text[])
), due AS (
    INSERT INTO due_work (game_id, version, kind, seat, due_at)
    SELECT * FROM {_unnest(_D + 1, ("game_id", "version", "kind", "seat", "due_at"),
                           ("text", "int", "text", "int", "timestamptz"))}
    ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, kind = excluded.kind,
        seat = excluded.seat, due_at = excluded.due_at
)
INSERT INTO events ({", ".join(_EVENT_COLS)})
SELECT {_select(_EVENT_COLS)} FROM {_unnest(_E, _EVENT_COLS, _EVENT_TYPES)}
"""


@dataclass
class _Write:
    batch: Batch
    game: Game
    due: dict[str, Any] | None
    done: asyncio.Future[None]


def _pg_args(writes: Sequence[_Write]) -> list[Any]:
    cmds = [w.batch for w in writes if w.batch.command_id is not None]
    games = [games_row(w.game) for w in writes]
    views = [v for w in writes for v in view_rows(w.game)]
    dues = [w.due for w in writes if w.due is not None]
    rows = [r for w in writes for r in w.batch.rows]
    return [
        [b.game_id for b in cmds], [b.command_id for b in cmds], [b.body_sha256 for b in cmds],
        [b.expected_version + 1 for b in cmds],
        [b.expected_version + len(b.rows) for b in cmds],
        *([g[c] for g in games] for c in _GAME_COLS),
        *([v[c] for v in views] for c in ("game_id", "viewer", "version", "view")),
        [w.game.game_id for w in writes if w.due is None],
        *([d[c] for d in dues] for c in ("game_id", "version", "kind", "seat", "due_at")),
        *([r[c] for r in rows] for c in _EVENT_COLS),
    ]


async def _keep_session(conn: asyncpg.Connection) -> None:
    """These connections only ever run the one autocommit statement, so there is no session
    state to reset; asyncpg's default reset would cost a round trip per command."""


class Committer:
    """Writes a command's batch and its game's read models atomically; returns the due work."""

    def __init__(self, store: EventStore, *, pool_size: int = 8, max_group: int = 64,
                 writers: int = 2) -> None:
        self.store = store
        self._pool_size, self._max_group, self._writers = pool_size, max_group, writers
        self._pool: asyncpg.Pool | None = None
        self._pool_lock = asyncio.Lock()
        self._pending: list[_Write] = []
        self._active = 0

    async def commit(self, batch: Batch, game: Game) -> dict[str, Any] | None:
        if self.store.sqlite:
            async with self.store.write() as conn:
                await self.store.append(conn, batch)
                return await project(conn, game)
        write = _Write(batch, game, due_row(game), asyncio.get_running_loop().create_future())
        self._pending.append(write)
        if self._active < self._writers:
            self._active += 1
            asyncio.create_task(self._drain())  # noqa: RUF006 - awaited through the futures
        await write.done
        return write.due

    async def _drain(self) -> None:
        try:
            while self._pending:
                await self._write(self._take())
        finally:
            self._active -= 1

    def _take(self) -> list[_Write]:
        """The next group: at most one command per game, since one statement cannot upsert a
        row twice (the later command of a game waits for the next group, and most likely
        fails there on the version the earlier one took)."""
        group: list[_Write] = []
        rest: list[_Write] = []
        games: set[str] = set()
        for write in self._pending:
            if len(group) < self._max_group and write.batch.game_id not in games:
                games.add(write.batch.game_id)
                group.append(write)
            else:
                rest.append(write)
        self._pending = rest
        return group

    async def _write(self, group: list[_Write]) -> None:
        try:
            pool = self._pool or await self._open_pool()
            try:
                await pool.execute(_PG_COMMIT, *_pg_args(group))
            except UniqueViolationError:
                if len(group) == 1:
                    raise
                for write in group:  # find out whose it was: each alone
                    await self._write([write])
                return
        except UniqueViolationError:  # a group of one: this command lost its race
            group[0].done.set_exception(AppendRejected(group[0].batch.game_id))
            return
        except BaseException as exc:  # the waiting commands must hear of any failure
            for write in group:
                if not write.done.done():
                    write.done.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for write in group:
            write.done.set_result(None)

    async def _open_pool(self) -> asyncpg.Pool:
        # Straight asyncpg, not SQLAlchemy's pool: its statement cache keeps the one big
        # statement prepared per connection, and there is no per-command checkout overhead.
        async with self._pool_lock:
            if self._pool is None:
                url = self.store.engine.url.set(drivername="postgresql")
                self._pool = await asyncpg.create_pool(
                    url.render_as_string(hide_password=False),
                    min_size=1, max_size=self._pool_size, reset=_keep_session,
                )
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
