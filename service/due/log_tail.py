"""The events a worker has not seen yet, in one round trip.

A worker's folded games trail the commits of the API processes (the human's move it answers
is one of them). Through SQLAlchemy the catch-up read costs BEGIN, SELECT and COMMIT; on
PostgreSQL a plain asyncpg fetch does it in one round trip, which is most of a bot's reply
latency budget after RQ's own overhead.
"""

from __future__ import annotations

import asyncio

import asyncpg

from service.events.store import EventStore, StoredEvent, as_utc

_AFTER = """
SELECT version, type, schema_version, data, visibility, command_id, actor, recorded_at, hash
FROM events WHERE game_id = $1 AND version > $2 ORDER BY version
"""


class LogTail:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._pool: asyncpg.Pool | None = None
        self._lock = asyncio.Lock()

    async def after(self, game_id: str, version: int) -> list[StoredEvent]:
        if self.store.sqlite:
            async with self.store.read() as conn:
                return await self.store.load(conn, game_id, after=version)
        pool = self._pool or await self._open()
        rows = await pool.fetch(_AFTER, game_id, version)
        decode = self.store.codec.decode
        return [
            StoredEvent(game_id, r["version"], r["type"], r["schema_version"],
                        decode(r["type"], r["schema_version"], r["data"]), r["visibility"],
                        r["command_id"], r["actor"], as_utc(r["recorded_at"]), r["hash"])
            for r in rows
        ]

    async def _open(self) -> asyncpg.Pool:
        async with self._lock:
            if self._pool is None:
                url = self.store.engine.url.set(drivername="postgresql")
                self._pool = await asyncpg.create_pool(
                    url.render_as_string(hide_password=False), min_size=1, max_size=2)
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
