"""What a pipeline tells of its commits (`CommitHooks`, given at its construction): the outbox is
asked inside the transaction; after it, the listeners are told, the publisher publishes (game,
version) for the API's streams (`publishers.py`) and the scheduler (`service.scheduling`) hears
what the game now waits for. All but the outbox are hints.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.pipeline.publishers import PlayerNews
from service.store.records import StoredEvent
from service.table.clock import DueWork
from service.table.game import Game

log = logging.getLogger(__name__)

HINT_PAUSE_S = 5.0


class Publisher(Protocol):
    """`publishers.LocalPublisher` or `publishers.RedisPublisher`."""

    async def publish(self, game_id: str, version: int, players: Sequence[str] = ()) -> None: ...

    def subscribe(self, game_id: str) -> AsyncIterator[int]: ...

    def subscribe_players(self) -> AsyncIterator[PlayerNews]: ...

    async def close(self) -> None: ...


class Scheduler(Protocol):
    """Told after every commit what the game now waits for (the `due_work` row, or None).

    Its lifecycle: built with the pipeline whose commands its work runs, if it runs any
    (`service.wiring.execution`); `start`ed in the process's event loop at startup (the
    in-process one resumes at once the work owed from before a restart); `close`d at
    shutdown."""

    def start(self) -> None: ...

    async def schedule(self, game_id: str, due: DueWork | None) -> None: ...

    async def close(self) -> None: ...


class CommitListener(Protocol):
    """Told after every commit what it changed (`service.webhooks.dispatch.Webhooks`): a
    hint like the others, whose failure is logged and never fails the command."""

    async def committed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                        ) -> None: ...


class CommitOutbox(Protocol):
    """The outbox rows a commit owes (`service.webhooks.dispatch.Webhooks`: event messages),
    asked before the commit and written in its transaction."""

    async def owed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                   ) -> list[dict[str, Any]]: ...


class NoScheduler:
    """Due work waits in the table (for a test that drives every seat, or a one-shot command)."""

    def start(self) -> None:
        return None

    async def schedule(self, game_id: str, due: DueWork | None) -> None:
        return None

    async def close(self) -> None:
        return None


@dataclass(frozen=True)
class CommitHooks:
    """Everything a pipeline tells of its commits, fixed when it is built."""

    scheduler: Scheduler = field(default_factory=NoScheduler)
    outbox: CommitOutbox | None = None
    # Told in this order, before the publish and the schedule.
    listeners: tuple[CommitListener, ...] = ()
    # Told the id of each game that ends (a tournament's driver).
    game_over: Callable[[str], Awaitable[None]] | None = None


class CommitHints:
    """Tell the streams and the workers after a commit. Both are hints that may fail (Redis
    away) without failing the committed command, which a client would only retry: streams
    re-read the log on a timer, and the sweeper enqueues every overdue `due_work` row.

    After a hint fails, that hint is skipped for `HINT_PAUSE_S`: a Redis that stops answering
    held every command for its timeout (a second), and the RQ enqueue, which blocks, held the
    whole process."""

    def __init__(self, publisher: Publisher, scheduler: Scheduler) -> None:
        self.publisher, self.scheduler = publisher, scheduler
        self._paused_until = {"publish": 0.0, "schedule": 0.0, "rate": 0.0,
                              "game_over": 0.0, "listen": 0.0}

    async def after_commit(self, game_id: str, version: int, due: DueWork | None,
                           players: Sequence[str] = ()) -> None:
        """`players`: those the commit gives news to (`table.clock.players_to_tell`)."""
        await self._hint("publish", lambda: self.publisher.publish(game_id, version, players),
                         "could not publish version %d of game %s; streams will poll",
                         version, game_id)
        await self._hint("schedule", lambda: self.scheduler.schedule(game_id, due),
                         "could not schedule the due work of game %s; the sweeper will",
                         game_id)

    async def send(self, name: str, send: Callable[[], Awaitable[object]], failed: str,
                   *args: object) -> None:
        """A hint of `name`'s kind: its failure is logged, never raised."""
        await self._hint(name, send, failed, *args)

    async def _hint(self, name: str, send: Callable[[], Awaitable[object]], failed: str,
                    *args: object) -> None:
        if time.monotonic() < self._paused_until[name]:
            return
        try:
            await send()
        except Exception as exc:
            self._paused_until[name] = time.monotonic() + HINT_PAUSE_S
            # One line: a Redis that is away fails every hint the same way.
            log.warning(failed + " (%s: %s)", *args, type(exc).__name__, exc)
            log.debug("the hint's failure", exc_info=True)
