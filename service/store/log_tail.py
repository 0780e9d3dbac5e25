"""The events a process has not seen yet, in one round trip.

A worker's folded games trail the commits of the API processes (the human's move it answers
is one of them), and with several API processes each one's trail the others'. Through
SQLAlchemy the catch-up read costs BEGIN, SELECT and COMMIT; on PostgreSQL a plain asyncpg
fetch does it in one round trip, which is most of a bot's reply latency budget after RQ's own
overhead.
"""

from __future__ import annotations

from service.store.event_store import EventStore, StoredEvent
from service.store.hot_reads import HotReads

_AFTER = """
SELECT game_id, version, type, schema_version, data, visibility, command_id, actor,
       recorded_at, hash
FROM events WHERE game_id = $1 AND version > $2 ORDER BY version
"""
TAIL_CONNECTIONS = 2


class LogTail:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._reads = None if store.sqlite else HotReads(store.engine, max_size=TAIL_CONNECTIONS)

    async def after(self, game_id: str, version: int) -> list[StoredEvent]:
        if self._reads is None:
            return await self.store.read_events(game_id, after=version)
        rows = await self._reads.fetch(_AFTER, game_id, version)
        return [self.store.decode_row(r) for r in rows]

    async def close(self) -> None:
        if self._reads is not None:
            await self._reads.close()
