"""After-commit hooks: publish (game, version) for the API's streams; schedule due work.

Publishing is Redis pub/sub when Redis is configured, an in-process fan-out otherwise.
Subscribers treat a message as a hint to read the log: a lost message delays, never loses.
Schedulers (`service.scheduling`) are told what each game now waits for.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from service.table.clock import DueWork

log = logging.getLogger(__name__)

HINT_PAUSE_S = 5.0

CHANNEL_PREFIX = "cya:game:"


class Publisher(Protocol):
    async def publish(self, game_id: str, version: int) -> None: ...

    def subscribe(self, game_id: str) -> AsyncIterator[int]: ...

    async def close(self) -> None: ...


class LocalPublisher:
    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[int]]] = defaultdict(set)

    async def publish(self, game_id: str, version: int) -> None:
        for q in self._queues.get(game_id, ()):
            q.put_nowait(version)

    async def subscribe(self, game_id: str) -> AsyncIterator[int]:
        q: asyncio.Queue[int] = asyncio.Queue()
        self._queues[game_id].add(q)
        try:
            while True:
                yield await q.get()
        finally:
            self._queues[game_id].discard(q)
            if not self._queues[game_id]:
                del self._queues[game_id]

    async def close(self) -> None:
        self._queues.clear()


class RedisPublisher:
    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        # Every command publishes and waits for the answer: a Redis that stops answering may
        # hold it a second (redis-py 8's default is 5). Subscriptions wait for messages as
        # long as they like, on a client of their own without that timeout.
        self._redis: Any = redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        self._subscriptions: Any = redis.from_url(url, socket_connect_timeout=1)

    async def publish(self, game_id: str, version: int) -> None:
        await self._redis.publish(CHANNEL_PREFIX + game_id, str(version))

    async def subscribe(self, game_id: str) -> AsyncIterator[int]:
        pubsub = self._subscriptions.pubsub()
        await pubsub.subscribe(CHANNEL_PREFIX + game_id)
        try:
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    yield int(message["data"])
        finally:
            await pubsub.unsubscribe()
            await pubsub.aclose()

    async def close(self) -> None:
        await self._redis.aclose()
        await self._subscriptions.aclose()


class Scheduler(Protocol):
    """Told after every commit what the game now waits for (the `due_work` row, or None)."""

    async def schedule(self, game_id: str, due: DueWork | None) -> None: ...


class NoScheduler:
    """Until the workers exist: due work waits in the table for a sweeper."""

    async def schedule(self, game_id: str, due: DueWork | None) -> None:
        return None


class CommitHints:
    """Tell the streams and the workers after a commit. Both are hints that may fail (Redis
    away) without failing the committed command, which a client would only retry: streams
    re-read the log on a timer, and the sweeper enqueues every overdue `due_work` row.

    After a hint fails, that hint is skipped for `HINT_PAUSE_S`: a Redis that stops answering
    held every command for its timeout (a second), and the RQ enqueue, which blocks, held the
    whole process."""

    def __init__(self, publisher: Publisher, scheduler: Scheduler) -> None:
        self.publisher, self.scheduler = publisher, scheduler
        self._paused_until = {"publish": 0.0, "schedule": 0.0}

    async def after_commit(self, game_id: str, version: int, due: DueWork | None) -> None:
        await self._hint("publish", lambda: self.publisher.publish(game_id, version),
                         "could not publish version %d of game %s; streams will poll",
                         version, game_id)
        await self._hint("schedule", lambda: self.scheduler.schedule(game_id, due),
                         "could not schedule the due work of game %s; the sweeper will",
                         game_id)

    async def _hint(self, name: str, send: Callable[[], Awaitable[None]], failed: str,
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
