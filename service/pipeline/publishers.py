"""Publishers: after each commit, (game, version) for the game's followers, with the commit's
events, and for the players it gives news to (their own event streams, `players_to_tell`).

Redis pub/sub when Redis is configured (every subscription of the process on one connection:
`redis_channels`), an in-process fan-out otherwise. Subscribers treat a message as a hint: a
follower whose version is the one before the message's events takes them as they are, any other
reads the log; a lost message delays, never loses.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final, NamedTuple

import msgspec

from service.events.records import StoredEvent
from service.pipeline.redis_channels import MAY_HAVE_MISSED, RedisChannels
from service.redis_clients import async_client

CHANNEL_PREFIX = "cya:game:"
PLAYERS_CHANNEL = "cya:players"  # one channel for every player's news: few messages, one reader
# What a game's subscription yields when publishes may have been missed (it was subscribed,
# or subscribed again after Redis came back): a version past any, so its follower reads.
ANY_VERSION: Final = sys.maxsize
# A commit's events ride with its publish up to this size (a deal is about 4 KB); past it,
# followers read them. Each other process following the game read them from the log at every
# commit: 12% of the servers' CPU with two seats following on two processes.
EVENTS_MAX_BYTES = 64 * 1024
_encode_events = msgspec.msgpack.Encoder().encode
_decode_events = msgspec.msgpack.Decoder(tuple[StoredEvent, ...]).decode


class Published:
    """A game's publish: the version it reached, and the commit's events when they came with
    it (none: read the log up to `version`). Decoded only when asked for: a follower already
    past `version` (the commit was this process's own, a feed here took it) needs none, and
    decoding them was most of what such an echo cost."""

    __slots__ = ("_encoded", "_events", "version")

    def __init__(self, version: int, events: tuple[StoredEvent, ...] = (),
                 encoded: bytes = b"") -> None:
        self.version, self._events, self._encoded = version, events, encoded

    @property
    def events(self) -> tuple[StoredEvent, ...]:
        if self._encoded:
            self._events, self._encoded = _decode_events(self._encoded), b""
        return self._events


class PlayerNews(NamedTuple):
    """A commit that may change what these players should hear about a game."""

    game_id: str
    version: int
    players: tuple[str, ...]


# What the players' subscription yields when news may have been lost (it was subscribed again
# after Redis came back): every player's games are worth another look.
NEWS_MAY_BE_LOST: Final = PlayerNews("", 0, ())


class LocalPublisher:
    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[Published]]] = defaultdict(set)
        self._news: set[asyncio.Queue[PlayerNews]] = set()

    async def publish(self, game_id: str, version: int, players: Sequence[str] = (),
                      events: Sequence[StoredEvent] = ()) -> None:
        published = Published(version, tuple(events))
        for q in self._queues.get(game_id, ()):
            q.put_nowait(published)
        if players:
            news = PlayerNews(game_id, version, tuple(players))
            for n in self._news:
                n.put_nowait(news)

    async def subscribe(self, game_id: str) -> AsyncIterator[Published]:
        q: asyncio.Queue[Published] = asyncio.Queue()
        self._queues[game_id].add(q)
        try:
            while True:
                yield await q.get()
        finally:
            self._queues[game_id].discard(q)
            if not self._queues[game_id]:
                del self._queues[game_id]

    async def subscribe_players(self) -> AsyncIterator[PlayerNews]:
        q: asyncio.Queue[PlayerNews] = asyncio.Queue()
        self._news.add(q)
        try:
            while True:
                yield await q.get()
        finally:
            self._news.discard(q)

    async def close(self) -> None:
        self._queues.clear()
        self._news.clear()


class RedisPublisher:
    def __init__(self, url: str) -> None:
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
        from redis.exceptions import ConnectionError as RedisConnectionError

        # Every command publishes and waits for the answer: a Redis that stops answering may
        # hold it a second (redis-py 8's default is 5). Subscriptions wait for messages as
        # long as they like, on a client of their own without that timeout.
        # A publish on a pooled connection that Redis closed (it restarted) goes again, once,
        # on a new one: it failed otherwise, after every subscriber had subscribed again, and
        # a player's news stream never hears of a lost publish (bench/soak.py found a
        # `cya-bot` runner waiting for good). Not after a timeout: that would double the wait.
        self._redis: Any = async_client(
            url, socket_connect_timeout=1, socket_timeout=1,
            retry=Retry(NoBackoff(), retries=1, supported_errors=(RedisConnectionError,)))
        # Every subscription of the process shares one connection, on a client of its own
        # without that timeout.
        self._subscriptions: Any = async_client(url, socket_connect_timeout=1)
        self.channels = RedisChannels(self._subscriptions)
        self._batches = _Batches(self._redis)

    async def publish(self, game_id: str, version: int, players: Sequence[str] = (),
                      events: Sequence[StoredEvent] = ()) -> None:
        """The game's message is its version, then a space and its events (msgpack) when they
        are not too large."""
        data = str(version).encode()
        if events:
            encoded = _encode_events(tuple(events))
            if len(encoded) <= EVENTS_MAX_BYTES:
                data += b" " + encoded
        messages: list[tuple[str, str | bytes]] = [(CHANNEL_PREFIX + game_id, data)]
        if players:
            messages.append((PLAYERS_CHANNEL, f"{game_id} {version} {','.join(players)}"))
        await self._batches.publish(messages)

    async def subscribe(self, game_id: str) -> AsyncIterator[Published]:
        async with contextlib.aclosing(self.channels.messages(CHANNEL_PREFIX + game_id)) as got:
            async for data in got:
                if data is MAY_HAVE_MISSED:
                    yield Published(ANY_VERSION)
                    continue
                version, _, events = data.partition(b" ")
                yield Published(int(version), encoded=events)

    async def subscribe_players(self) -> AsyncIterator[PlayerNews]:
        subscribed = False
        async with contextlib.aclosing(self.channels.messages(PLAYERS_CHANNEL)) as got:
            async for data in got:
                if data is MAY_HAVE_MISSED:
                    if subscribed:  # subscribed again: news may have been lost meanwhile
                        yield NEWS_MAY_BE_LOST
                    subscribed = True
                    continue
                game_id, version, players = data.decode().split(" ")
                yield PlayerNews(game_id, int(version), tuple(players.split(",")))

    async def close(self) -> None:
        await self._batches.close()
        await self.channels.close()
        await self._redis.aclose()
        await self._subscriptions.aclose()


class _Batches:
    """Publishes sent together: what commits ask while a batch is on its way goes as the next
    batch, one pipeline (one round trip, one connection). A publish per connection ran out of
    the client's pool (100 connections) when Redis or the machine slowed under 10,000 games
    at once: `MaxConnectionsError`, and each of those games' streams waited for the timer."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._waiting: list[tuple[list[tuple[str, str | bytes]], asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None

    async def publish(self, messages: list[tuple[str, str | bytes]]) -> None:
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((messages, sent))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._send(), name="redis-publishes")
        await sent

    async def _send(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for messages, _ in batch:
                        for channel, data in messages:
                            pipe.publish(channel, data)
                    await pipe.execute()
            except BaseException as exc:
                for _, sent in batch:
                    if not sent.done():
                        sent.set_exception(exc if isinstance(exc, Exception)
                                           else ConnectionError("the publisher closed"))
                if not isinstance(exc, Exception):
                    raise
            else:
                for _, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for _, sent in self._waiting:
            if not sent.done():
                sent.set_exception(ConnectionError("the publisher closed"))
        self._waiting = []
