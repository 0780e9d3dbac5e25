"""The one place the backend is chosen: by the database URL, once, at wiring."""

from __future__ import annotations

from typing import Any

from cya_rules.log.codec import EventCodec, default_codec
from service.events.engine import create_engine, is_sqlite
from service.events.event_store import EventStore
from service.events.faults import Fault, fault_in
from service.events.postgres import PostgresEventStore
from service.events.sqlite import SqliteEventStore


def open_store(url: str, *, codec: EventCodec = default_codec,
               sqlite_busy_timeout_ms: int = 10_000, **engine_options: Any) -> EventStore:
    """The event store of the database at `url`, on an engine of its own (`store.engine`;
    `engine_options` go to SQLAlchemy)."""
    engine = create_engine(url, sqlite_busy_timeout_ms=sqlite_busy_timeout_ms, **engine_options)
    backend = SqliteEventStore if is_sqlite(url) else PostgresEventStore
    return backend(engine, codec)


def database_fault(exc: BaseException) -> Fault | None:
    """What `exc` says about the database (`faults.py`), each backend judging its own
    driver's errors: a process only ever sees its own backend's."""
    return fault_in(exc, (PostgresEventStore.fault_of, SqliteEventStore.fault_of))
