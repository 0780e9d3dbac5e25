"""Recompute every read model from the log: fold each game, write its rows.

Runs in one write transaction (readers keep the old rows until it commits), then reclaims the
old rows (`EventStore.reclaim`). Meant for a stopped service, a migration, or a repair; live
commands would wait behind it on SQLite.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from msgspec.structs import replace
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.event_store import EventStore
from service.events.tables import due_work, events, game_views, games, rating_changes
from service.events.tables import ratings as rating_rows
from service.projections import ratings
from service.projections.rows import games_row, view_rows
from service.table.clock import due_work_of
from service.table.game import Game, apply_at

BATCH_GAMES = 500


@dataclass(frozen=True)
class RebuildStats:
    games: int
    events: int
    seconds: float
    rated_games: int = 0


class _Batch:
    def __init__(self) -> None:
        self.games: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []
        self.due: list[dict[str, Any]] = []

    def add(self, game: Game) -> None:
        if game.lobby is None:
            return
        self.games.append(games_row(game))
        self.views.extend(view_rows(game))
        due = due_work_of(game)
        if due is not None:
            self.due.append(msgspec.structs.asdict(due))

    async def flush(self, conn: AsyncConnection) -> None:
        for table, rows in ((games, self.games), (game_views, self.views), (due_work, self.due)):
            if rows:
                await conn.execute(table.insert(), rows)
            rows.clear()


async def rebuild(store: EventStore) -> RebuildStats:
    started = time.perf_counter()
    n_games = n_events = 0
    batch = _Batch()
    cols = (events.c.game_id, events.c.version, events.c.type, events.c.schema_version,
            events.c.data, events.c.hash, events.c.recorded_at)
    async with store.write() as conn:
        for table in (due_work, game_views, games):
            await conn.execute(sa.delete(table))
        result = await conn.stream(sa.select(*cols).order_by(events.c.game_id, events.c.version))
        game: Game | None = None
        version, last_hash, first_at, last_at = 0, "", None, None
        async for part in result.partitions(2000):
            for game_id, v, etype, sv, data, h, at in part:
                if game is None or game.game_id != game_id:
                    if game is not None:
                        batch.add(_finish(game, version, last_hash, first_at, last_at))
                        n_games += 1
                        if len(batch.games) >= BATCH_GAMES:
                            await batch.flush(conn)
                    game, first_at = Game(game_id), at
                game = apply_at(game, store.codec.decode(etype, sv, data), at)
                version, last_hash, last_at = v, h, at
                n_events += 1
        if game is not None:
            batch.add(_finish(game, version, last_hash, first_at, last_at))
            n_games += 1
        await batch.flush(conn)
    rated = await ratings.rebuild(store)  # from the games rows just written
    await store.reclaim([t.name for t in (games, game_views, due_work, rating_rows,
                                          rating_changes)])
    return RebuildStats(n_games, n_events, time.perf_counter() - started, rated)


def _finish(game: Game, version: int, last_hash: str, first_at: datetime | None,
            last_at: datetime | None) -> Game:
    assert first_at is not None and last_at is not None
    return replace(game, version=version, last_hash=last_hash, created_at=first_at,
                   updated_at=last_at)
