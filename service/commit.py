"""Append + project as one atomic write: the only place a command's effects reach the database.

Generic path: one transaction of SQLAlchemy statements (SQLite; `BEGIN IMMEDIATE`).
PostgreSQL path: one statement. Data-modifying CTEs write the projections and the main query
inserts the events, so the whole command costs a single round trip and commits (or fails on
`UNIQUE (game_id, version)`) atomically — the same price as a bare single-row INSERT.
"""

from __future__ import annotations

from typing import Any

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
    SELECT $1::text, u.viewer, $12::int, u.view::json FROM unnest($28::int[], $29::text[]) AS u(viewer, view)
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


async def commit(store: EventStore, batch: Batch, game: Game) -> dict[str, Any] | None:
    """Write the batch and `game`'s read models atomically; returns the due-work row."""
    if store.sqlite or game.lobby is None:
        async with store.write() as conn:
            await store.append(conn, batch)
            return await project(conn, game)
    due = due_row(game)
    args = _pg_args(batch, game, due)
    async with store.engine.connect() as conn:
        raw = await conn.get_raw_connection()
        try:
            await raw.driver_connection.execute(_PG_COMMIT, *args)  # type: ignore[union-attr]
        except UniqueViolationError as exc:
            raise AppendRejected(batch.game_id) from exc
    return due


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
