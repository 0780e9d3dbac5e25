"""After-commit hooks: publish (game, version) for the API's streams (`publishers.py`); tell the
scheduler (`service.scheduling`) what the game now waits for. Both are hints.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Protocol

from service.pipeline.publishers import PlayerNews
from service.store.records import StoredEvent
from service.table.clock import DueWork
from service.table.game import Game

log = logging.getLogger(__name__)

HINT_PAUSE_S = 5.0
UNPUBLISHED_MAX = 10_000  # games whose latest publish is owed, at most



class Publisher(Protocol):
    """`publishers.LocalPublisher` or `publishers.RedisPublisher`."""

    async def publish(self, game_id: str, version: int, players: Sequence[str] = ()) -> None: ...

    def subscribe(self, game_id: str) -> AsyncIterator[int]: ...

    def subscribe_players(self) -> AsyncIterator[PlayerNews]: ...

    async def close(self) -> None: ...


class Scheduler(Protocol):
    """Told after every commit what the game now waits for (the `due_work` row, or None)."""

    async def schedule(self, game_id: str, due: DueWork | None) -> None: ...


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
    """Until the workers exist: due work waits in the table for a sweeper."""

    async def schedule(self, game_id: str, due: DueWork | None) -> None:
        return None


class CommitHints:
    """Tell the streams and the workers after a commit. Both are hints that may fail (Redis
    away) without failing the committed command, which a client would only retry: streams
    re-read the log on a timer, and the sweeper enqueues every overdue `due_work` row.

    After a hint fails, that hint is skipped for `pause_s`: a Redis that stops answering
    held every command for its timeout (a second), and the RQ enqueue, which blocks, held the
    whole process.

    A publish that failed or was skipped is owed, and made once the pause is over (each
    game's latest version, to every player it had news for): a game's stream re-reads the log
    on a timer, but a player's news stream hears of a game only from a publish, or from the
    loss of its own subscription, which a publisher's failure is not. News lost in a pause
    was lost for good, and a `cya-bot` runner waiting for it waited forever (bench/soak.py).
    """

    def __init__(self, publisher: Publisher, scheduler: Scheduler,
                 pause_s: float = HINT_PAUSE_S) -> None:
        self.publisher, self.scheduler, self.pause_s = publisher, scheduler, pause_s
        self._paused_until = {"publish": 0.0, "schedule": 0.0, "rate": 0.0,
                              "game_over": 0.0, "listen": 0.0}
        self._unpublished: dict[str, tuple[int, frozenset[str]]] = {}
        self._owed_due: asyncio.TimerHandle | None = None  # when the owed go again
        self._owed_going: asyncio.Task[None] | None = None  # held: the loop holds tasks weakly

    async def after_commit(self, game_id: str, version: int, due: DueWork | None,
                           players: Sequence[str] = ()) -> None:
        """`players`: those the commit gives news to (`table.clock.players_to_tell`)."""
        await self._publish(game_id, version, frozenset(players))
        await self._hint("schedule", lambda: self.scheduler.schedule(game_id, due),
                         "could not schedule the due work of game %s; the sweeper will",
                         game_id)

    async def send(self, name: str, send: Callable[[], Awaitable[object]], failed: str,
                   *args: object) -> None:
        """A hint of `name`'s kind: its failure is logged, never raised."""
        await self._hint(name, send, failed, *args)

    async def _publish(self, game_id: str, version: int, players: frozenset[str]) -> bool:
        sent = await self._hint(
            "publish", lambda: self.publisher.publish(game_id, version, sorted(players)),
            "could not publish version %d of game %s; streams will poll", version, game_id)
        if not sent:
            _, before = self._unpublished.pop(game_id, (0, frozenset()))
            self._unpublished[game_id] = (version, before | players)
            if len(self._unpublished) > UNPUBLISHED_MAX:  # the oldest goes: streams poll
                del self._unpublished[next(iter(self._unpublished))]
            if self._owed_due is None:
                wait = max(self._paused_until["publish"] - time.monotonic(), 0.0)
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

    async def _hint(self, name: str, send: Callable[[], Awaitable[object]], failed: str,
                    *args: object) -> bool:
        """Whether the hint was given (not when it failed or is paused)."""
        if time.monotonic() < self._paused_until[name]:
            return False
        try:
            await send()
        except Exception as exc:
            self._paused_until[name] = time.monotonic() + self.pause_s
            # One line: a Redis that is away fails every hint the same way.
            log.warning(failed + " (%s: %s)", *args, type(exc).__name__, exc)
            log.debug("the hint's failure", exc_info=True)
            return False
        return True
