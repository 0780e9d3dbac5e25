"""Append + project as one atomic write: the only place a command's effects reach the database.

Generic path: one transaction of SQLAlchemy statements (SQLite; `BEGIN IMMEDIATE`).
PostgreSQL path: one statement. Data-modifying CTEs write the projections and the main query
inserts the events, so the whole command costs a single round trip and commits (or fails on
`UNIQUE (game_id, version)`) atomically — the same price as a bare single-row INSERT.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
from asyncpg.exceptions import UniqueViolationError

from .events.store import AppendRejected, Batch, EventStore
from .game import Game
from .projections.rows import due_row, games_row, view_rows
from .projections.writer import project

_GAME_COLS = ("status", "creator", "public", "ruleset", "players", "seats", "turn_clock",
              "timeout_policy", "version", "pending_seats", "deadline", "created_at",
              "updated_at")
_JSON_COLS = {"ruleset", "seats", "timeout_policy", "pending_seats"}


def _game_values() -> tuple[str, str]:
    placeholders = ", ".join(
        f"${i}::json" if c in _JSON_COLS else f"${i}" for i, c in enumerate(_GAME_COLS, start=14)
    )
    updates = ", ".join(f"{c} = excluded.{c}" for c in _GAME_COLS)
    return placeholders, updates


_PLACEHOLDERS, _UPDATES = _game_values()
_PG_COMMIT = f"""
WITH cmd AS (
    INSERT INTO commands (game_id, command_id, body_sha256, first_version, last_version)
    SELECT $1::text, $9::text, $10::text, $11::int, $12::int WHERE $9::text IS NOT NULL
), game AS (
    INSERT INTO games (game_id, {", ".join(_GAME_COLS)}) VALUES ($1, {_PLACEHOLDERS})
    ON CONFLICT (game_id) DO UPDATE SET {_UPDATES}
), views AS (
    INSERT INTO game_views (game_id, viewer, version, view)
    SELECT $1::text, u.viewer, $12::int, u.view::json
    FROM unnest($28::int[], $29::text[]) AS u(viewer, view)
    ON CONFLICT (game_id, viewer) DO UPDATE SET version = excluded.version, view = excluded.view
), due_gone AS (
    DELETE FROM due_work WHERE game_id = $1 AND $30::text IS NULL
), due AS (
    INSERT INTO due_work (game_id, version, kind, seat, due_at)
    SELECT $1::text, $12::int, $30::text, $31::int, $32::timestamptz
    WHERE $30::text IS NOT NULL
    ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, kind = excluded.kind,
        seat = excluded.seat, due_at = excluded.due_at
)
INSERT INTO events (game_id, version, type, schema_version, data, visibility, command_id,
                    actor, recorded_at, hash)
SELECT $1::text, u.version, u.type, u.schema_version, u.data::json, u.visibility,
       u.command_id, $2::text, $3::timestamptz, u.hash
FROM unnest($4::int[], $5::text[], $6::int[], $7::text[], $8::text[], $13::text[],
            $27::text[]) AS u(version, type, schema_version, data, visibility, command_id, hash)
"""


class Committer:
    """Writes a command's batch and its game's read models atomically; returns the due work."""

    def __init__(self, store: EventStore, pool_size: int = 20) -> None:
        self.store = store
        self._pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._pool_lock = asyncio.Lock()

    async def commit(self, batch: Batch, game: Game) -> dict[str, Any] | None:
        if self.store.sqlite or game.lobby is None:
            async with self.store.write() as conn:
                await self.store.append(conn, batch)
                return await project(conn, game)
        due = due_row(game)
        pool = self._pool or await self._open_pool()
        try:
            await pool.execute(_PG_COMMIT, *_pg_args(batch, game, due))
        except UniqueViolationError as exc:
            raise AppendRejected(batch.game_id) from exc
        return due

    async def _open_pool(self) -> asyncpg.Pool:
        # Straight asyncpg, not SQLAlchemy's pool: its statement cache keeps the one big
        # statement prepared per connection, and there is no per-command checkout overhead.
        async with self._pool_lock:
            if self._pool is None:
                url = self.store.engine.url.set(drivername="postgresql")
                self._pool = await asyncpg.create_pool(
                    url.render_as_string(hide_password=False),
                    min_size=1, max_size=self._pool_size,
                )
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None


def _pg_args(batch: Batch, game: Game, due: dict[str, Any] | None) -> list[Any]:
    rows, row, views = batch.rows, games_row(game), view_rows(game)
    return [
        batch.game_id, rows[0]["actor"], rows[0]["recorded_at"],                    # $1-$3
        [r["version"] for r in rows], [r["type"] for r in rows],                     # $4-$5
        [r["schema_version"] for r in rows], [r["data"] for r in rows],              # $6-$7
        [r["visibility"] for r in rows],                                             # $8
        batch.command_id, batch.body_sha256,                                         # $9-$10
        batch.expected_version + 1, rows[-1]["version"],                             # $11-$12
        [r["command_id"] for r in rows],                                             # $13
        *(row[c] for c in _GAME_COLS),                                               # $14-$26
        [r["hash"] for r in rows],                                                   # $27
        [v["viewer"] for v in views], [v["view"] for v in views],                    # $28-$29
        *((due["kind"], due["seat"], due["due_at"]) if due else (None, None, None)), # $30-$32
    ]
