"""`verify(game)`: walk the hash chain, then replay the shuffles (domain.audit) on the log."""

from __future__ import annotations

import typing

import msgspec
import sqlalchemy as sa

from .domain import Event
from .domain.audit import audit
from .events.chain import event_hash
from .events.store import EventStore
from .events.tables import events
from .game import GENESIS_HASH

_DOMAIN_EVENTS = typing.get_args(Event)


class VerifyReport(msgspec.Struct, frozen=True):
    game_id: str
    ok: bool
    events: int
    rounds_verified: int  # rounds whose revealed seed matched its commitment and its deal
    draws_verified: int
    first_bad_version: int | None
    reason: str | None


async def verify(store: EventStore, game_id: str) -> VerifyReport:
    cols = (events.c.version, events.c.type, events.c.schema_version, events.c.visibility,
            events.c.command_id, events.c.actor, events.c.data, events.c.hash)
    async with store.read() as conn:
        rows = (await conn.execute(
            sa.select(*cols).where(events.c.game_id == game_id).order_by(events.c.version)
        )).all()
    if not rows:
        return VerifyReport(game_id, False, 0, 0, 0, None, "no such game")

    def bad(version: int, reason: str, rounds: int = 0, draws: int = 0) -> VerifyReport:
        return VerifyReport(game_id, False, len(rows), rounds, draws, version, reason)

    prev = GENESIS_HASH
    log: list[Event] = []
    versions: list[int] = []
    for expected_version, r in enumerate(rows, start=1):
        if r.version != expected_version:
            return bad(expected_version, f"version {expected_version} is missing")
        data = r.data.encode() if isinstance(r.data, str) else bytes(r.data)
        h = event_hash(prev, game_id, r.version, r.type, r.schema_version, r.visibility,
                       r.command_id, r.actor, data)
        if h != r.hash:
            return bad(r.version, "the hash chain breaks here: the stored event or its hash "
                                  "was changed")
        prev = r.hash
        try:
            ev = store.codec.decode(r.type, r.schema_version, data)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
            return bad(r.version, f"the event does not decode: {exc}")
        if isinstance(ev, _DOMAIN_EVENTS):
            log.append(ev)
            versions.append(r.version)
    result = audit(log) if log else None
    if result is None:
        return VerifyReport(game_id, True, len(rows), 0, 0, None, None)
    if result.finding is not None:
        return bad(versions[result.finding.index], result.finding.reason,
                   result.rounds_verified, result.draws_verified)
    return VerifyReport(game_id, True, len(rows), result.rounds_verified, result.draws_verified,
                        None, None)
