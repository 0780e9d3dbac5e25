"""Every Redis subscription of a process on one pub/sub connection.

A connection per subscription cost a Redis connection (and a socket, and a task reading it)
per followed game: 10,000 streams in one process were 10,000 connections. Here followers
register a local queue for a channel; the channel is subscribed while it has one follower at
least (reference-counted), and one task both sends the (un)subscriptions, in batches, and
reads every message, which it fans out to the channel's queues.

A queue receives each message's data, and `MAY_HAVE_MISSED` whenever Redis confirms the
channel's subscription: at first (messages published before that were not heard) and again
after the connection was lost and made anew (Redis restarted, or cut the connection), when
every channel is subscribed again. Its follower then reads what it follows afresh: messages
are hints, and a lost one delays, never loses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator
from typing import Any, Final

log = logging.getLogger("cya.pipeline.redis_channels")

READ_S = 0.05  # the longest read: how long a new channel may wait to be subscribed
RECONNECT_S = 1.0  # the pause after a lost connection (Redis is likely away)
BATCH = 500  # channels per SUBSCRIBE or UNSUBSCRIBE
MAY_HAVE_MISSED: Final = None  # a queue's item after each confirmed subscription


class _Bounce:
    """Why the reader's connection went away: the rest of the subscription is made anew."""


class RedisChannels:
    def __init__(self, client: Any) -> None:
        self._client = client  # its own client: no socket timeout (reads wait for messages)
        self._queues: dict[str, set[asyncio.Queue[bytes | None]]] = {}
        self._subscribed: set[str] = set()  # as sent on the current connection
        self._dirty = asyncio.Event()  # the channels wanted differ from those subscribed
        self._task: asyncio.Task[None] | None = None
        self.connections = 0  # connections made (one, plus one per loss)

    @property
    def channels(self) -> int:
        """The channels followed now."""
        return len(self._queues)

    async def messages(self, channel: str) -> AsyncGenerator[bytes | None, None]:
        """The channel's messages (and `MAY_HAVE_MISSED`) for as long as this is iterated."""
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        followers = self._queues.setdefault(channel, set())
        followers.add(queue)
        if channel not in self._subscribed:
            self._dirty.set()
        self._start()
        try:
            while True:
                yield await queue.get()
        finally:
            followers.discard(queue)
            if not followers and self._queues.get(channel) is followers:
                del self._queues[channel]
                self._dirty.set()  # the last follower left: unsubscribe

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="redis-channels")

    async def _run(self) -> None:
        while True:
            pubsub = self._client.pubsub()
            self._subscribed = set()
            self.connections += 1
            if self._queues:  # a connection made anew: every channel followed, again
                self._dirty.set()
            try:
                await self._serve(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the pub/sub connection was lost with %d channels; subscribing "
                            "them again", len(self._queues), exc_info=True)
                await asyncio.sleep(RECONNECT_S)
            finally:
                # Closing the connection ends its subscriptions on the server: no UNSUBSCRIBE
                # round trip, which a Redis that is away would make wait.
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), RECONNECT_S)

    async def _serve(self, pubsub: Any) -> None:
        while True:
            if self._dirty.is_set():
                self._dirty.clear()
                await self._sync(pubsub)
            if not self._subscribed:  # nothing to read: redis-py refuses to
                await self._dirty.wait()
                continue
            # A bounded read, never `listen()`: redis-py can swallow a cancellation (seen
            # while it reconnects after Redis returns), and a read blocked for good then
            # outlived its process's shutdown. Short, so a new channel is sent soon.
            message = await pubsub.get_message(timeout=READ_S)
            while message is not None:
                self._dispatch(message)
                message = await pubsub.get_message(timeout=0)  # what is buffered, at once
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # a cancellation was swallowed
                raise asyncio.CancelledError

    async def _sync(self, pubsub: Any) -> None:
        wanted = set(self._queues)
        new, gone = sorted(wanted - self._subscribed), sorted(self._subscribed - wanted)
        for i in range(0, len(new), BATCH):
            await pubsub.subscribe(*new[i:i + BATCH])
            self._subscribed.update(new[i:i + BATCH])
        for i in range(0, len(gone), BATCH):
            await pubsub.unsubscribe(*gone[i:i + BATCH])
            self._subscribed.difference_update(gone[i:i + BATCH])

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind, channel = message.get("type"), message.get("channel")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if kind == "message":
            item: bytes | None = message["data"]
        elif kind == "subscribe":
            item = MAY_HAVE_MISSED
        else:
            return
        for queue in self._queues.get(channel, ()):  # type: ignore[arg-type]
            queue.put_nowait(item)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait({task}, timeout=RECONNECT_S * 2)
