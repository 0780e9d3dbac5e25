"""What a pipeline tells of its commits (`CommitHooks`, given at its construction): the outbox is
asked inside the transaction; after it, the listeners are told, the publisher publishes (game,
version) for the API's streams (`publishers.py`) and the scheduler (`service.scheduling`) hears
what the game now waits for. All but the outbox are hints.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.pipeline.publishers import PlayerNews
from service.store.records import StoredEvent
from service.table.clock import DueWork, players_to_tell
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
    """Told after every commit what it changed (`service.webhooks.dispatch.Webhooks`,
    `service.projections.ratings.RateFinishedGames`, the tournaments' driver): a hint like the
    others, whose failure is logged and never fails the command."""

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


class NoOutbox:
    """A commit owes no outbox row (a pipeline without webhooks: tests, benchmarks)."""

    async def owed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                   ) -> list[dict[str, Any]]:
        return []


@dataclass(frozen=True)
class CommitHooks:
    """Everything a pipeline tells of its commits, fixed when it is built. A capability that
    follows from commits (webhooks, ratings, tournaments) is one more listener."""

    scheduler: Scheduler = field(default_factory=NoScheduler)
    outbox: CommitOutbox = field(default_factory=NoOutbox)
    # Told in this order, before the publish and the schedule.
    listeners: tuple[CommitListener, ...] = ()


class CommitHints:
    """Tell the listeners, the streams and the workers after a commit. All are hints that may
    fail (Redis away) without failing the committed command, which a client would only retry:
    streams re-read the log on a timer, the sweepers enqueue every overdue `due_work` row and
    catch up what a listener missed (ratings, tournaments, deliveries).

    After a hint fails, that hint (each listener its own) is skipped for `HINT_PAUSE_S`: a
    Redis that stops answering held every command for its timeout (a second), and the RQ
    enqueue, which blocks, held the whole process."""

    def __init__(self, publisher: Publisher, hooks: CommitHooks) -> None:
        self.publisher, self.scheduler, self.listeners = (publisher, hooks.scheduler,
                                                          hooks.listeners)
        self._paused_until: dict[object, float] = {}

    async def after_commit(self, before: Game, after: Game, stored: Sequence[StoredEvent],
                           due: DueWork | None) -> None:
        """`due`: what the game now waits for (its `due_work` row, or None)."""
        game_id, version = after.game_id, after.version
        # The listeners first: what follows from this commit (the next bot move, a client
        # that reads the answer) comes after they are told, so they are told in log order.
        for listener in self.listeners:
            await self._hint(listener, functools.partial(listener.committed, before, after,
                                                         stored),
                             "could not tell %s of version %d of game %s",
                             type(listener).__name__, version, game_id)
        players = players_to_tell(before, after)
        await self._hint("publish", lambda: self.publisher.publish(game_id, version, players),
                         "could not publish version %d of game %s; streams will poll",
                         version, game_id)
        await self._hint("schedule", lambda: self.scheduler.schedule(game_id, due),
                         "could not schedule the due work of game %s; the sweeper will",
                         game_id)

    async def _hint(self, key: object, send: Callable[[], Awaitable[object]], failed: str,
                    *args: object) -> None:
        if time.monotonic() < self._paused_until.get(key, 0.0):
            return
        try:
            await send()
        except Exception as exc:
            self._paused_until[key] = time.monotonic() + HINT_PAUSE_S
            # One line: a Redis that is away fails every hint the same way.
            log.warning(failed + " (%s: %s)", *args, type(exc).__name__, exc)
            log.debug("the hint's failure", exc_info=True)
