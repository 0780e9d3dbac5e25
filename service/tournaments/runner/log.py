"""A tournament's log in the database: appended with the same optimistic version check and hash
chain as a game's (`store.chain`), its read model (`projections.tournaments`) written in the
same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cya_rules.log.chain import event_hash
from service.events.event_store import EventStore
from service.events.tables import tournament_events
from service.projections.tournaments import Folded, rewrite_all, rows_of, write
from service.tournaments.events import TournamentEvent, visibility_of
from service.tournaments.state import Tournament, fold

_encode = msgspec.json.Encoder().encode
_decoder: msgspec.json.Decoder[TournamentEvent] = msgspec.json.Decoder(TournamentEvent)


class TournamentNotFound(KeyError):
    """No tournament has this id."""


class LogConflict(Exception):
    """Another writer appended to the tournament first: decide again on the fresh log."""


def type_of(event: TournamentEvent) -> str:
    return str(type(event).__struct_config__.tag)


@dataclass(frozen=True)
class StoredRow:
    version: int
    type: str
    schema_version: int
    visibility: str
    actor: str | None
    recorded_at: datetime
    hash: str
    data: bytes


async def read_rows(store: EventStore, tournament_id: str) -> list[StoredRow]:
    """The log as stored, undecoded (the audit hashes these bytes)."""
    c = tournament_events.c
    async with store.read() as conn:
        rows = (await conn.execute(
            sa.select(c.version, c.type, c.schema_version, c.visibility, c.actor,
                      c.recorded_at, c.hash, c.data)
            .where(c.tournament_id == tournament_id).order_by(c.version))).all()
    return [StoredRow(r.version, r.type, r.schema_version, r.visibility, r.actor,
                      r.recorded_at, r.hash,
                      r.data.encode() if isinstance(r.data, str) else bytes(r.data))
            for r in rows]


def decode(row: StoredRow) -> TournamentEvent:
    event = _decoder.decode(row.data)
    if type_of(event) != row.type:
        raise ValueError(f"the row's type is {row.type!r}, its data a {type_of(event)!r}")
    return event


async def load(store: EventStore, tournament_id: str) -> tuple[Tournament, datetime]:
    """The tournament folded from its whole log (secret seeds included: server use only),
    and when it was created."""
    rows = await read_rows(store, tournament_id)
    if not rows:
        raise TournamentNotFound(tournament_id)
    t = fold(Tournament(tournament_id), (decode(r) for r in rows))
    return msgspec.structs.replace(t, version=rows[-1].version, last_hash=rows[-1].hash), \
        rows[0].recorded_at


async def append(store: EventStore, t: Tournament, events: list[TournamentEvent],
                 created_at: datetime | None, actor: str = "service") -> Tournament:
    """Append `events` after `t.version` and rewrite the read model; `LogConflict` if another
    writer took the version first."""
    at = datetime.now(UTC)
    rows: list[dict[str, Any]] = []
    h = t.last_hash
    for i, ev in enumerate(events):
        version, etype, data = t.version + 1 + i, type_of(ev), _encode(ev)
        h = event_hash(h, t.tournament_id, version, etype, 1, visibility_of(ev), None, actor,
                       data)
        rows.append({"tournament_id": t.tournament_id, "version": version, "type": etype,
                     "schema_version": 1, "data": data.decode(), "visibility": visibility_of(ev),
                     "actor": actor, "recorded_at": at, "hash": h})
    after = msgspec.structs.replace(fold(t, events), version=t.version + len(events),
                                    last_hash=h)
    read_model = rows_of(t, after, events, created_at, at)
    try:
        async with store.write() as conn:
            await conn.execute(tournament_events.insert(), rows)
            await write(conn, read_model)
    except IntegrityError as exc:
        raise LogConflict(t.tournament_id) from exc
    return after


async def rebuild(store: EventStore) -> int:
    """Every tournament's read model again from the logs; how many."""
    c = tournament_events.c
    async with store.read() as conn:
        ids = list((await conn.scalars(sa.select(c.tournament_id).distinct())).all())
    folded = []
    for tournament_id in ids:
        t, created_at = await load(store, tournament_id)
        last = (await read_rows(store, tournament_id))[-1].recorded_at
        folded.append(Folded(t, created_at, last))
    await rewrite_all(store, folded)
    return len(ids)
