"""The event log: append with optimistic concurrency and idempotency, read, redact per viewer.

`UNIQUE (game_id, version)` is the concurrency check: of two writers that read version v,
exactly one inserts v + 1; the other's INSERT fails and it learns the current version.
`UNIQUE (game_id, command_id)` (plus the `commands` row) makes a repeated command id find its
first outcome instead of acting twice, also when both copies race.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, get_args

import msgspec
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.domain import redact, visibility
from service.domain.views import Viewer
from service.store.chain import event_hash
from service.store.codec import AnyEvent, EventCodec, default_codec
from service.store.engine import WRITE_OPTION, is_sqlite
from service.store.tables import commands, events
from service.table.lobby import LobbyEvent
from service.table.timeouts import TimeoutEvent


class VersionConflict(Exception):
    def __init__(self, game_id: str, expected: int, current: int) -> None:
        super().__init__(f"game {game_id} is at version {current}, not {expected}")
        self.game_id, self.expected, self.current = game_id, expected, current


class DamagedLog(Exception):
    """A game's stored events cannot be read, or the rules cannot replay them: the database was
    changed outside the service (or a bug). The audit (`verify`) says where and how."""

    def __init__(self, game_id: str, version: int) -> None:
        super().__init__(f"game {game_id}: the stored log breaks at version {version}")
        self.game_id, self.version = game_id, version


class IdempotencyKeyReused(Exception):
    """The command id was used before with a different command."""

    def __init__(self, game_id: str, command_id: str) -> None:
        super().__init__(f"command id {command_id!r} was used for another command in {game_id}")
        self.game_id, self.command_id = game_id, command_id


# Frozen msgspec Structs rather than frozen dataclasses: a command builds several, and a frozen
# dataclass's __init__ costs about ten times as much.
class StoredEvent(msgspec.Struct, frozen=True, gc=False):
    game_id: str
    version: int
    type: str
    schema_version: int
    event: AnyEvent
    visibility: str
    command_id: str | None
    actor: str | None
    recorded_at: datetime
    hash: str


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


class StoredRow(msgspec.Struct, frozen=True, gc=False):
    """An event's row as stored: `data` undecoded."""

    version: int
    type: str
    schema_version: int
    visibility: str
    command_id: str | None
    actor: str | None
    recorded_at: datetime
    hash: str
    data: bytes


class Batch(msgspec.Struct, frozen=True, gc=False):
    """One command's events, encoded and hash-chained, not yet written."""

    game_id: str
    expected_version: int
    command_id: str | None
    body_sha256: str
    rows: list[dict[str, Any]]  # every column but `data`, which is in `data` (same order)
    data: list[str]
    stored: list[StoredEvent]

    def insert_rows(self) -> list[dict[str, Any]]:
        return [{**row, "data": text} for row, text in zip(self.rows, self.data, strict=True)]


class AppendRejected(Exception):
    """A unique constraint refused the append: the version or the command id is taken."""


@dataclass(frozen=True, slots=True)
class CommandRecord:
    body_sha256: str
    first_version: int
    last_version: int


# Seats and clocks: public facts. Looked up by class: `isinstance` against the two unions
# tried each of their classes in turn, a third of a microsecond per event.
_PUBLIC_SERVICE_EVENTS = frozenset(get_args(LobbyEvent) + get_args(TimeoutEvent))


def visibility_of(event: AnyEvent) -> str:
    if type(event) in _PUBLIC_SERVICE_EVENTS:
        return "public"
    return str(visibility(event))  # type: ignore[arg-type]  # a game event (mypy cannot tell)


def as_utc(t: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time we store is UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def redacted_for(stored: StoredEvent, viewer: Viewer) -> AnyEvent:
    """The event as `viewer` (a seat, or None for a spectator) may see it: by the event's own
    class, not the stored column, which a hand-edited row could make wrong."""
    visible_to = visibility_of(stored.event)
    if visible_to == "public" or (viewer is not None and visible_to == str(viewer)):
        return stored.event
    return redact(stored.event, viewer)  # type: ignore[arg-type]  # lobby events are public


class EventStore:
    def __init__(self, engine: AsyncEngine, codec: EventCodec = default_codec) -> None:
        self.engine = engine
        self.codec = codec
        self.sqlite = is_sqlite(str(engine.url))

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            if self.sqlite:
                await conn.execution_options(**{WRITE_OPTION: True})
            async with conn.begin():
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
                           r.command_id, r.actor, as_utc(r.recorded_at), r.hash)

    async def read_as_stored(self, game_id: str) -> list[StoredRow]:
        """A game's rows in version order, undecoded: audits need the bytes the hash chain
        covers (decoding and encoding again could differ, after an upcast)."""
        async with self.read() as conn:
            rows = (await conn.execute(_log_query(game_id))).all()
        return [StoredRow(r.version, r.type, r.schema_version, r.visibility, r.command_id,
                          r.actor, as_utc(r.recorded_at), r.hash,
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
