"""What a pipeline tells of its commits (`CommitHooks`, given at its construction): the outbox is
asked inside the transaction; after it, the listeners are told, the publisher publishes (game,
version) for the API's streams (`publishers.py`) and the scheduler (`service.scheduling`) hears
what the game now waits for. All but the outbox are hints.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.events.records import StoredEvent
from service.pipeline.publishers import PlayerNews, Published
from service.table.clock import DueWork, players_to_tell
from service.table.game import Game

log = logging.getLogger(__name__)

HINT_PAUSE_S = 5.0
UNPUBLISHED_MAX = 10_000  # games whose latest publish is owed, at most


class Publisher(Protocol):
    """`publishers.LocalPublisher` or `publishers.RedisPublisher`."""

    async def publish(self, game_id: str, version: int, players: Sequence[str] = (),
                      events: Sequence[StoredEvent] = ()) -> None: ...

    def subscribe(self, game_id: str) -> AsyncIterator[Published]: ...

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

    After a hint fails, that hint (each listener its own) is skipped for `pause_s`: a Redis
    that stops answering held every command for its timeout (a second).

    A publish that failed or was skipped is owed, and made once the pause is over (each
    game's latest version, to every player it had news for): a game's stream re-reads the log
    on a timer, but a player's news stream hears of a game only from a publish, or from the
    loss of its own subscription, which a publisher's failure is not. News lost in a pause
    was lost for good, and a `cya-bot` runner waiting for it waited forever (bench/soak.py).
    """

    def __init__(self, publisher: Publisher, scheduler: Scheduler,
                 pause_s: float = HINT_PAUSE_S, listeners: Sequence[CommitListener] = ()
                 ) -> None:
        self.publisher, self.scheduler, self.pause_s = publisher, scheduler, pause_s
        self.listeners = tuple(listeners)
        self._paused_until: dict[object, float] = {}  # by hint: a name, or a listener
        self._unpublished: dict[str, tuple[int, frozenset[str]]] = {}
        self._owed_due: asyncio.TimerHandle | None = None  # when the owed go again
        self._owed_going: asyncio.Task[None] | None = None  # held: the loop holds tasks weakly

    async def notify(self, before: Game, after: Game, stored: Sequence[StoredEvent],
                     due: DueWork | None) -> None:
        """Everything after a commit, `due` being what the game now waits for (its `due_work`
        row, or None). The listeners first: what follows from this commit (the next bot move, a
        client that reads the answer) comes after they are told, so they are told in log
        order."""
        for listener in self.listeners:
            await self._hint(listener, functools.partial(listener.committed, before, after,
                                                         stored),
                             "could not tell %s of version %d of game %s",
                             type(listener).__name__, after.version, after.game_id)
        await self.after_commit(after.game_id, after.version, due, players_to_tell(before, after),
                                stored)

    async def after_commit(self, game_id: str, version: int, due: DueWork | None,
                           players: Sequence[str] = (), events: Sequence[StoredEvent] = ()
                           ) -> None:
        """`players`: those the commit gives news to (`table.clock.players_to_tell`);
        `events`: the commit's, for the game's followers in other processes."""
        await self._publish(game_id, version, frozenset(players), events)
        await self._hint("schedule", lambda: self.scheduler.schedule(game_id, due),
                         "could not schedule the due work of game %s; the sweeper will",
                         game_id)

    async def _publish(self, game_id: str, version: int, players: frozenset[str],
                       events: Sequence[StoredEvent] = ()) -> bool:
        """An owed publish goes without its events: its followers read them."""
        sent = await self._hint(
            "publish", lambda: self.publisher.publish(game_id, version, sorted(players), events),
            "could not publish version %d of game %s; streams will poll", version, game_id)
        if not sent:
            _, before = self._unpublished.pop(game_id, (0, frozenset()))
            self._unpublished[game_id] = (version, before | players)
            if len(self._unpublished) > UNPUBLISHED_MAX:  # the oldest goes: streams poll
                del self._unpublished[next(iter(self._unpublished))]
            if self._owed_due is None:
                wait = max(self._paused_until.get("publish", 0.0) - time.monotonic(), 0.0)
                self._owed_due = asyncio.get_running_loop().call_later(wait, self._owed_go)
        return sent

    def _owed_go(self) -> None:
        self._owed_due = None
        self._owed_going = asyncio.get_running_loop().create_task(self._publish_owed())

    async def _publish_owed(self) -> None:
        owed, self._unpublished = self._unpublished, {}
        for n, (game_id, (version, players)) in enumerate(owed.items()):
            if not await self._publish(game_id, version, players):
                for later, (v, p) in list(owed.items())[n + 1:]:  # owed again, in order
                    self._unpublished.setdefault(later, (v, p))
                return

    async def _hint(self, key: object, send: Callable[[], Awaitable[object]], failed: str,
                    *args: object) -> bool:
        """Whether the hint was given (not when it failed or is paused)."""
        if time.monotonic() < self._paused_until.get(key, 0.0):
            return False
        try:
            await send()
        except Exception as exc:
            self._paused_until[key] = time.monotonic() + self.pause_s
            # One line: a Redis that is away fails every hint the same way.
            log.warning(failed + " (%s: %s)", *args, type(exc).__name__, exc)
            log.debug("the hint's failure", exc_info=True)
            return False
        return True
