"""What a command came to: the events it appended (or would have, or did the first time) and
the game's version after them."""

from __future__ import annotations

import enum

import msgspec

from service.events.records import StoredEvent


class OutcomeStatus(enum.StrEnum):
    COMMITTED = "committed"
    REPLAYED = "replayed"  # a repeated command id: the first outcome, nothing appended
    PREVIEWED = "previewed"  # a dry run: nothing appended
    PREVIEWED_IN_PART = "previewed_in_part"  # a dry run that stopped before a hidden step


class Outcome(msgspec.Struct, frozen=True, gc=False):
    game_id: str
    version: int  # the game's version after the command
    events: tuple[StoredEvent, ...]
    status: OutcomeStatus = OutcomeStatus.COMMITTED

    @property
    def replayed(self) -> bool:
        return self.status is OutcomeStatus.REPLAYED

    @property
    def committed(self) -> bool:
        return self.status in (OutcomeStatus.COMMITTED, OutcomeStatus.REPLAYED)

    @property
    def partial(self) -> bool:
        return self.status is OutcomeStatus.PREVIEWED_IN_PART
