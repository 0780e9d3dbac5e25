"""The production backend: PostgreSQL through asyncpg.

A command's write joins the next group commit (`group_commit.py`: one statement per group).
The hottest reads, a seat's view from the projection rows and a process's catch-up on a log,
run on plain asyncpg pools of their own (`hot_reads.py`): through SQLAlchemy each cost more
than its query.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import asyncpg
import msgspec
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cya_rules.log.codec import EventCodec, default_codec
from service.events.event_store import EventStore
from service.events.faults import Fault
from service.events.group_commit import GroupCommitter
from service.events.hot_reads import HotRead, HotReads
from service.events.records import Batch, ReadModelRows, StoredEvent
from service.events.tables import SEATS_JSONB

# A worker's folded games trail the API processes' commits, and with several API processes
# each one's trail the others'. Through SQLAlchemy a catch-up read costs BEGIN, SELECT and
# COMMIT; here one round trip, which is most of a bot's reply latency after RQ's own overhead.
_AFTER = """
SELECT game_id, version, type, schema_version, data, visibility, command_id, actor,
       recorded_at, hash
FROM events WHERE game_id = $1 AND version > $2 ORDER BY version
"""
# A feed's check for publishes it missed, for every game a process follows: one array
# parameter, so one prepared statement however many games (an IN list is a statement per count).
_VERSIONS = "SELECT game_id, version FROM games WHERE game_id = ANY($1::text[])"
TAIL_CONNECTIONS = 2
VIEW_READ_CONNECTIONS = 8  # the hot reads' (views from the projection rows)

_json = msgspec.json.Encoder().encode


class PostgresEventStore(EventStore):
    dialect: ClassVar[str] = "postgresql"

    def __init__(self, engine: AsyncEngine, codec: EventCodec = default_codec) -> None:
        super().__init__(engine, codec)
        dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._committer = GroupCommitter(dsn)
        # Each pool opens at its first read: a worker never reads views, an API process
        # without other writers rarely catches up.
        self._tail = HotReads(dsn, max_size=TAIL_CONNECTIONS)
        self._reads = HotReads(dsn, max_size=VIEW_READ_CONNECTIONS)

    async def commit(self, batch: Batch, rows: ReadModelRows) -> None:
        await self._committer.commit(batch, rows)

    async def exclusive(self, conn: AsyncConnection, key: int) -> None:
        await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))

    async def reclaim(self, tables: Sequence[str]) -> None:
        # VACUUM runs outside a transaction. Until it has run, every index entry of the old
        # rows is still followed to a dead row: after a rebuild of 10^5 games the ratings'
        # catch-up read 87,000 pages for nothing (bench/scale.py), and this machine's
        # PostgreSQL, like some operators', runs without autovacuum.
        async with self.engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(sa.text(f"VACUUM (ANALYZE) {', '.join(tables)}"))

    async def tail(self, game_id: str, after: int) -> list[StoredEvent]:
        return [self.decode_row(r) for r in await self._tail.fetch(_AFTER, game_id, after)]

    async def recorded_versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        return {r[0]: r[1] for r in await self._tail.fetch(_VERSIONS, list(game_ids))}

    async def fetch(self, read: HotRead, game_id: str) -> Sequence[Any]:
        return await self._reads.fetch(read.sql, game_id)

    def seats_hold(self, player_id: str) -> sa.ColumnElement[bool]:
        # By JSON containment, which the seats' GIN index serves (`tables.SEATS_INDEX`).
        held = sa.cast(sa.literal(_json([{"player_id": player_id}]).decode()), JSONB)
        return SEATS_JSONB.op("@>")(held)

    @staticmethod
    def fault_of(cause: BaseException) -> Fault | None:
        """asyncpg's errors that are the database's doing (`faults.py`)."""
        if isinstance(cause, asyncpg.PostgresConnectionError | asyncpg.CannotConnectNowError
                      | asyncpg.InsufficientResourcesError):
            return Fault.UNREACHABLE
        if isinstance(cause, asyncpg.AdminShutdownError | asyncpg.CrashShutdownError
                      | asyncpg.ReadOnlySQLTransactionError):
            # The server is going (a restart, a switchover's demotion, a crash of one of its
            # backends), or the one reached is a standby (it was demoted under a pooled
            # connection, or HAProxy has not yet seen the failover): a failover in progress.
            # No transaction of ours is ever read-only by choice.
            return Fault.UNREACHABLE
        if isinstance(cause, asyncpg.InternalClientError):
            # A connection left mid-protocol by its server's going ("cannot switch to state
            # 12; another operation is in progress", asyncpg#1069): lost, not a bug of ours.
            return Fault.UNREACHABLE
        if isinstance(cause, asyncpg.UndefinedTableError | asyncpg.UndefinedColumnError):
            return Fault.NOT_MIGRATED
        return None

    async def close(self) -> None:
        await self._committer.close()
        await self._tail.close()
        await self._reads.close()
