"""What the event store takes and gives: stored events and rows, a prepared batch, the read
models' rows written with it, and the store's refusals. Plus who may see an event unredacted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, get_args

import msgspec

from cya_rules import redact, visibility
from cya_rules.views import Viewer
from service.events.codec import AnyEvent
from service.table.clock import DueWork
from service.table.lobby import LobbyEvent, SeedCarrier, seed_visibility, without_seeds
from service.table.talk import TalkEvent
from service.table.timeouts import TimeoutEvent


class GameNotFound(KeyError):
    """No game has this id."""


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


# Looked up by class: `isinstance` against the two unions tried each of their classes in
# turn, a third of a microsecond per event.
# Seats, clocks and reactions: public facts, but for the seeds of the deal some carry
# (table/seeds.py).
_PUBLIC_SERVICE_EVENTS = frozenset(
    (*get_args(LobbyEvent), *get_args(TimeoutEvent), TalkEvent)) - frozenset(
    get_args(SeedCarrier))


def visibility_of(event: AnyEvent) -> str:
    if type(event) in _PUBLIC_SERVICE_EVENTS:
        return "public"
    if isinstance(event, SeedCarrier):
        return seed_visibility(event)
    return str(visibility(event))  # type: ignore[arg-type]  # a game event (mypy cannot tell)


def redacted_for(stored: StoredEvent, viewer: Viewer) -> AnyEvent:
    """The event as `viewer` (a seat, or None for a spectator) may see it: by the event's own
    class, not the stored column, which a hand-edited row could make wrong."""
    return shown_to(stored.event, viewer)


def shown_to(event: AnyEvent, viewer: Viewer) -> AnyEvent:
    """`event` as `viewer` may see it (`redacted_for`)."""
    visible_to = visibility_of(event)
    if visible_to == "public" or (viewer is not None and visible_to == str(viewer)):
        return event
    if isinstance(event, SeedCarrier):
        return without_seeds(event)
    return redact(event, viewer)  # type: ignore[arg-type]  # other lobby events are public




class ReadModelRows(msgspec.Struct, frozen=True, gc=False):
    """A game's read-model rows after a command, written in the same transaction as its events
    (`projections.rows.read_model_rows` computes them)."""

    game_id: str
    progress: dict[str, Any]  # the `games` columns any command may change (`PROGRESS_COLUMNS`)
    game: dict[str, Any] | None  # the whole `games` row; None when the lobby did not change
    views: list[dict[str, Any]]  # `game_views` rows
    due: DueWork | None  # the `due_work` row; None deletes it
    # `webhook_messages` rows the commit owes (`CommitOutbox`): written with it, so a process
    # that dies right after the commit loses none.
    messages: list[dict[str, Any]] = []
