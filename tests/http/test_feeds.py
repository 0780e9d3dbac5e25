"""The per-game feeds behind long polls and event streams, with Redis failing under them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from redis.exceptions import ConnectionError as RedisConnectionError

from service.http.feeds import Feeds


class _NoEvents:
    async def read_events(self, game_id: str, after: int = 0) -> list[object]:
        return []


class _RefusedAfter:
    """A Redis whose subscriptions fail once `refuse` is set, as when it goes away."""

    def __init__(self) -> None:
        self.refuse = asyncio.Event()

    async def publish(self, game_id: str, version: int) -> None:  # pragma: no cover
        raise RedisConnectionError("refused")

    async def subscribe(self, game_id: str) -> AsyncIterator[int]:
        await self.refuse.wait()
        raise RedisConnectionError("refused")
        yield 0  # pragma: no cover (makes this a generator)

    async def close(self) -> None:  # pragma: no cover
        pass


async def test_given_redis_failing_as_a_feed_stops_then_its_waiter_returns_as_usual():
    # The subscription's failure surfaced from the feed's teardown: the long poll that had
    # waited on it answered 500.
    redis = _RefusedAfter()
    feeds = Feeds(_NoEvents(), redis, poll=30)  # type: ignore[arg-type]

    async with feeds.follow("g") as feed:
        assert await feed.wait_past(0, 0.05) is False  # timed out, as it stands
        redis.refuse.set()


async def test_given_a_feed_already_past_then_waiting_still_lets_the_loop_run():
    """A wait loop that cannot progress (a stale reload answered it) must not hold the event
    loop: every wait suspends, even one that answers at once."""
    feeds = Feeds(_NoEvents(), _RefusedAfter(), poll=30)  # type: ignore[arg-type]
    ran: list[int] = []

    async def other_request() -> None:
        ran.append(1)

    async with feeds.follow("g") as feed:
        feed.version = 5  # the feed holds events past what the waiter has
        others = [asyncio.create_task(other_request()) for _ in range(3)]
        assert await feed.wait_past(0, 1) is True
        assert ran == [1, 1, 1], "the others ran while it answered"
        await asyncio.gather(*others)
