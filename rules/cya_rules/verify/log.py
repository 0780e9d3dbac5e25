"""The checks of a game's log that need nothing but the log: the server's `GET /verify` runs
them on its stored rows, `cya-verify` on a downloaded history, so each check has one
implementation.

1. `read_log`: versions from 1 without a gap, the hash chain over every row's columns and
   stored bytes (`cya_rules.log.chain`), each row decodes as an event of its `type`, and its
   `visibility` is the one its event's class and content give.
2. `check_events`: the seeds of the deal (`seeds.check_seeds`), then every shuffle, draw and
   run of events replayed by the rules (`cya_rules.replay.audit`).
3. `check_times`: the recorded times, which the chain leaves out, never go back.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

import msgspec

from cya_rules import Event
from cya_rules.log.chain import GENESIS_HASH, event_hash
from cya_rules.log.codec import AnyEvent, EventCodec, default_codec
from cya_rules.log.visibility import visibility_of
from cya_rules.replay import audit
from cya_rules.table.endings import GameAbandoned, LobbyExpired
from cya_rules.verify.seeds import SeedsReport, check_seeds

_RULES_EVENTS = typing.get_args(Event)
# Processes that write one game take turns, each stamping its own clock: allow them this much
# disagreement before a time going back is a finding.
CLOCK_SKEW = timedelta(seconds=2)


class LogRow(Protocol):
    """A row of the log: the event store's `StoredRow`, or a history's line."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def schema_version(self) -> int: ...
    @property
    def visibility(self) -> str: ...
    @property
    def command_id(self) -> str | None: ...
    @property
    def actor(self) -> str | None: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def hash(self) -> str: ...
    @property
    def data(self) -> bytes | msgspec.Raw: ...


class Finding(msgspec.Struct, frozen=True, gc=False):
    version: int  # the event found wrong
    reason: str


class ReadLog(msgspec.Struct, frozen=True, gc=False):
    events: list[AnyEvent]  # every row that decoded, in order
    hashes: list[str]  # the chain recomputed, one a row read
    finding: Finding | None  # the first row found wrong
    complete: bool  # every row was read: the later checks may run


def read_log(game_id: str, rows: Sequence[LogRow], codec: EventCodec = default_codec
             ) -> ReadLog:
    prev = GENESIS_HASH
    events: list[AnyEvent] = []
    hashes: list[str] = []
    finding: Finding | None = None
    for expected, r in enumerate(rows, start=1):
        if r.version != expected:
            return ReadLog(events, hashes, finding or Finding(
                expected, f"version {expected} is missing"), False)
        data = bytes(r.data)
        h = event_hash(prev, game_id, r.version, r.type, r.schema_version, r.visibility,
                       r.command_id, r.actor, data)
        if h != r.hash and finding is None:
            finding = Finding(r.version, "the hash chain breaks here: the stored event or its "
                                         "hash was changed")
        prev = r.hash  # the chain as stored goes on: one changed event is named once
        hashes.append(h)
        try:
            ev = codec.decode(r.type, r.schema_version, data)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
            return ReadLog(events, hashes, finding or Finding(
                r.version, f"the event does not decode: {exc}"), False)
        if r.visibility != visibility_of(ev) and finding is None:
            finding = Finding(r.version, f"the event is stored as visible to {r.visibility!r}; "
                                         f"its type is visible to {visibility_of(ev)!r}")
        events.append(ev)
    return ReadLog(events, hashes, finding, True)


class EventsCheck(msgspec.Struct, frozen=True, gc=False):
    rounds_verified: int
    draws_verified: int
    seeds: SeedsReport | None
    ended: str | None  # how a game that ended without a result ended
    finding: Finding | None  # the earliest of the seeds' and the rules' first findings
    seeds_finding: Finding | None
    rules_finding: Finding | None


def check_events(events: Sequence[AnyEvent]) -> EventsCheck:
    """The seeds and the rules over the whole log, `events[i]` being version i + 1."""
    log: list[Event] = []
    versions: list[int] = []
    ended: str | None = None
    for version, ev in enumerate(events, start=1):
        if isinstance(ev, LobbyExpired | GameAbandoned):
            ended = f"{'expired' if isinstance(ev, LobbyExpired) else 'abandoned'}: {ev.reason}"
        if isinstance(ev, _RULES_EVENTS):
            log.append(ev)
            versions.append(version)
    checked = check_seeds(events)
    result = audit(log) if log else None
    rules = Finding(versions[result.finding.index], result.finding.reason) \
        if result is not None and result.finding is not None else None
    seeds = Finding(checked.index + 1, checked.reason) \
        if checked.reason is not None and checked.index is not None else None
    first = min((f for f in (rules, seeds) if f is not None), key=lambda f: f.version,
                default=None)  # the earliest of the two, as each check stops at its first
    rounds, draws = (result.rounds_verified, result.draws_verified) if result else (0, 0)
    return EventsCheck(rounds, draws, checked.report, ended, first, seeds, rules)


def check_times(rows: Sequence[LogRow], now: datetime | None = None) -> Finding | None:
    """The first event recorded before the one it follows (by more than `CLOCK_SKEW`), or
    after `now`. The chain leaves the time out, so a time moved between its neighbours cannot
    be told; one moved past them can."""
    last: datetime | None = None
    for r in rows:
        if last is not None and r.recorded_at < last - CLOCK_SKEW:
            return Finding(r.version, f"recorded at {r.recorded_at.isoformat()}, before the "
                                      f"event it follows ({last.isoformat()})")
        if now is not None and r.recorded_at > now + CLOCK_SKEW:
            return Finding(r.version, f"recorded at {r.recorded_at.isoformat()}, in the future")
        last = r.recorded_at if last is None else max(last, r.recorded_at)
    return None
