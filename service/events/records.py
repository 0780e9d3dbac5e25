"""What the event store takes and gives: stored events and rows, a prepared batch, the read
models' rows written with it, and the store's refusals. Who may see an event unredacted is
`cya_rules.log.visibility`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from cya_rules.log.codec import AnyEvent
from cya_rules.log.visibility import shown_to
from cya_rules.views import Viewer
from service.table.clock import DueWork


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


def redacted_for(stored: StoredEvent, viewer: Viewer) -> AnyEvent:
    """The event as `viewer` (a seat, or None for a spectator) may see it: by the event's own
    class, not the stored column, which a hand-edited row could make wrong."""
    return shown_to(stored.event, viewer)


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
