"""After-commit hooks: publish (game, version) for the API's streams; schedule due work.

Publishing is Redis pub/sub when Redis is configured, an in-process fan-out otherwise.
Subscribers treat a message as a hint to read the log: a lost message delays, never loses.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, Protocol

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

    async def schedule(self, game_id: str, due: dict[str, Any] | None) -> None: ...


class NoScheduler:
    """Until the workers exist: due work waits in the table for a sweeper."""

    async def schedule(self, game_id: str, due: dict[str, Any] | None) -> None:
        return None
