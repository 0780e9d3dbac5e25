"""The event log's recorder: append with optimistic concurrency and idempotency, read, redact
per viewer.

`UNIQUE (game_id, version)` is the concurrency check: of two writers that read version v,
exactly one inserts v + 1; the other's INSERT fails and it learns the current version.
`UNIQUE (game_id, command_id)` (plus the `commands` row) makes a repeated command id find its
first outcome instead of acting twice, also when both copies race.

`EventStore` holds what every backend shares; where the backends differ (how a command's
write is committed, the hottest reads, one JSON query) each has its own subclass, chosen once
at wiring (`store.backends.open_store`): `sqlite.SqliteEventStore`, `postgres.PostgresEventStore`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, ClassVar

import msgspec
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cya_rules.log.chain import event_hash
from cya_rules.log.codec import AnyEvent, EventCodec, default_codec
from cya_rules.log.visibility import visibility_of
from cya_rules.views import Viewer
from service.events.hot_reads import HotRead
from service.events.records import (
    AppendRejected,
    Batch,
    CommandRecord,
    DamagedLog,
    ReadModelRows,
    StoredEvent,
    StoredRow,
    redacted_for,
)
from service.events.tables import commands, events, games


def _log_query(game_id: str, after: int = 0, upto: int | None = None) -> sa.Select[Any]:
    """A game's events after version `after` (up to `upto`), in order, as stored."""
    q = (
        sa.select(events.c.game_id, events.c.version, events.c.type, events.c.schema_version,
                  events.c.data, events.c.visibility, events.c.command_id, events.c.actor,
                  events.c.recorded_at, events.c.hash)
        .where(events.c.game_id == game_id, events.c.version > after)
        .order_by(events.c.version)
    )
    return q if upto is None else q.where(events.c.version <= upto)



class EventStore(ABC):
    dialect: ClassVar[str]  # SQLAlchemy's name of the backend: "sqlite" or "postgresql"

    def __init__(self, engine: AsyncEngine, codec: EventCodec = default_codec) -> None:
        self.engine = engine
        self.codec = codec

    # Where the backends differ.

    @abstractmethod
    async def commit(self, batch: Batch, rows: ReadModelRows) -> None:
        """Append a command's prepared events and write its game's read-model rows, atomically:
        `AppendRejected` if another writer took the version or the command id first."""

    @abstractmethod
    async def fetch(self, read: HotRead, game_id: str) -> Sequence[Any]:
        """The rows of a hot read of one game (one statement, no transaction around it)."""

    @abstractmethod
    def seats_hold(self, player_id: str) -> sa.ColumnElement[bool]:
        """Whether a `games` row's seats hold the player (`?mine=true`)."""

    async def exclusive(self, conn: AsyncConnection, key: int) -> None:
        """Hold `key` for the rest of `conn`'s write transaction, against every other writer
        that asks for it (SQLite: its one writer at a time already is)."""
        return None

    async def reclaim(self, tables: Sequence[str]) -> None:
        """After a rewrite of every row of `tables` (a rebuild): give back the old rows' space
        and refresh the planner's statistics, as autovacuum would later (SQLite: statistics)."""
        async with self.engine.connect() as conn:
            for table in tables:
                await conn.execute(sa.text(f"ANALYZE {table}"))
            await conn.commit()

    async def recorded_versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The versions these games' rows record (written with each batch of events), by
        game; those without a row left out. One primary-key lookup each, in one statement."""
        async with self.read() as conn:
            rows = await conn.execute(sa.select(games.c.game_id, games.c.version).where(
                games.c.game_id.in_(game_ids)))
            return {game_id: version for game_id, version in rows}

    async def tail(self, game_id: str, after: int) -> list[StoredEvent]:
        """The events after version `after`: all another process can have added to a game
        this one has folded (a catch-up)."""
        return await self.read_events(game_id, after=after)

    async def close(self) -> None:
        """Release what the backend holds besides the engine's pool."""
        return None

    # What they share.

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn, conn.begin():
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn, conn.begin():
            yield conn

    def prepare(
        self,
        game_id: str,
        expected_version: int,
        prev_hash: str,
        new_events: Sequence[AnyEvent],
        *,
        command_id: str | None = None,
        body_sha256: str | None = None,
        actor: str | None = None,
        recorded_at: datetime | None = None,
    ) -> Batch:
        """Encode and chain the events as versions expected+1…, ready to insert."""
        at = recorded_at or datetime.now(UTC)
        rows: list[dict[str, Any]] = []
        texts: list[str] = []
        stored: list[StoredEvent] = []
        h = prev_hash
        for i, ev in enumerate(new_events):
            version = expected_version + 1 + i
            etype = self.codec.type_of(ev)
            sv = self.codec.schema_version(etype)
            vis = visibility_of(ev)
            cid = command_id if i == 0 else None
            data = self.codec.encode(ev)
            h = event_hash(h, game_id, version, etype, sv, vis, cid, actor, data)
            rows.append({
                "game_id": game_id, "version": version, "type": etype, "schema_version": sv,
                "visibility": vis, "command_id": cid, "actor": actor, "recorded_at": at,
                "hash": h,
            })
            texts.append(data.decode())
            stored.append(StoredEvent(game_id, version, etype, sv, ev, vis, cid, actor, at, h))
        return Batch(game_id, expected_version, command_id, body_sha256 or "", rows, texts,
                     stored)

    async def append(self, conn: AsyncConnection, batch: Batch) -> None:
        """Insert a prepared batch; `AppendRejected` if another writer got there first."""
        try:
            if batch.rows:
                await conn.execute(events.insert(), batch.insert_rows())
            if batch.command_id is not None and batch.rows:
                await conn.execute(commands.insert().values(
                    game_id=batch.game_id, command_id=batch.command_id,
                    body_sha256=batch.body_sha256, first_version=batch.expected_version + 1,
                    last_version=batch.expected_version + len(batch.rows),
                ))
        except IntegrityError as exc:
            raise AppendRejected(batch.game_id) from exc

    async def current_version(self, conn: AsyncConnection, game_id: str) -> int:
        v = await conn.scalar(
            sa.select(sa.func.max(events.c.version)).where(events.c.game_id == game_id)
        )
        return int(v or 0)

    async def last_version_by(self, conn: AsyncConnection, game_id: str,
                              actors: Sequence[str]) -> int:
        """The version of the last event recorded by one of `actors` (0 if none)."""
        v = await conn.scalar(
            sa.select(sa.func.max(events.c.version))
            .where(events.c.game_id == game_id, events.c.actor.in_(actors))
        )
        return int(v or 0)

    async def load_of_type(self, conn: AsyncConnection, game_id: str, etype: str,
                           after: int = 0) -> list[StoredEvent]:
        """A game's events of one type after version `after`, in order."""
        rows = (await conn.execute(_log_query(game_id, after).where(events.c.type == etype))
                ).all()
        return [self.decode_row(r) for r in rows]

    async def find_command(
        self, conn: AsyncConnection, game_id: str, command_id: str
    ) -> CommandRecord | None:
        row = (await conn.execute(
            sa.select(commands.c.body_sha256, commands.c.first_version, commands.c.last_version)
            .where(commands.c.game_id == game_id, commands.c.command_id == command_id)
        )).first()
        return None if row is None else CommandRecord(row[0], row[1], row[2])

    async def load(
        self, conn: AsyncConnection, game_id: str, after: int = 0, upto: int | None = None
    ) -> list[StoredEvent]:
        rows = (await conn.execute(_log_query(game_id, after, upto))).all()
        return [self.decode_row(r) for r in rows]

    def decode_row(self, r: Any) -> StoredEvent:
        try:
            ev = self.codec.decode(r.type, r.schema_version, r.data)
        except (ValueError, msgspec.MsgspecError) as exc:
            raise DamagedLog(r.game_id, r.version) from exc
        return StoredEvent(r.game_id, r.version, r.type, r.schema_version, ev, r.visibility,
                           r.command_id, r.actor, r.recorded_at, r.hash)

    async def read_as_stored(self, game_id: str) -> list[StoredRow]:
        """A game's rows in version order, undecoded: audits need the bytes the hash chain
        covers (decoding and encoding again could differ, after an upcast)."""
        async with self.read() as conn:
            rows = (await conn.execute(_log_query(game_id))).all()
        return [StoredRow(r.version, r.type, r.schema_version, r.visibility, r.command_id,
                          r.actor, r.recorded_at, r.hash,
                          r.data.encode() if isinstance(r.data, str) else bytes(r.data))
                for r in rows]

    async def read_events(
        self, game_id: str, after: int = 0, upto: int | None = None
    ) -> list[StoredEvent]:
        async with self.read() as conn:
            return await self.load(conn, game_id, after, upto)

    async def read_for_viewer(
        self, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None
    ) -> list[tuple[int, AnyEvent]]:
        """The log as a seat (or a spectator, None) may see it: hidden cards redacted."""
        return [(s.version, redacted_for(s, viewer))
                for s in await self.read_events(game_id, after, upto)]
