"""Every subscription of a process on one Redis pub/sub connection (`redis_channels`): many
followers of many games each get every version, on one connection; a Redis that went away
has every channel subscribed again (and every follower told it may have missed some); a
channel is unsubscribed once its last follower leaves."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from redis.asyncio import Redis

from service.pipeline.publishers import ANY_VERSION, CHANNEL_PREFIX, Published, RedisPublisher
from tests.tcp_proxy import TcpProxy

from .conftest import RedisDb, proxied_url

GAMES = 300
FOLLOWERS = 3  # of each game
WITHIN_S = 5.0


async def _subscribers(redis: Redis, games: list[str]) -> list[int]:
    """How many connections Redis has subscribed to each game's channel."""
    counts = await redis.pubsub_numsub(*(CHANNEL_PREFIX + g for g in games))
    return [n for _, n in counts]


async def _until(check: object, what: str) -> None:
    deadline = time.monotonic() + WITHIN_S
    while not await check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


class _Follower:
    def __init__(self, publisher: RedisPublisher, game_id: str) -> None:
        self.got: list[int] = []
        self._sub: AsyncIterator[Published] = publisher.subscribe(game_id)
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for published in self._sub:
            self.got.append(published.version)

    def versions(self) -> list[int]:
        """What it got, the wake-ups (`ANY_VERSION`) left out."""
        return [v for v in self.got if v != ANY_VERSION]

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self._sub.aclose()  # type: ignore[attr-defined]


async def test_given_many_followers_of_many_games_then_each_gets_every_version_on_one_connection(
        redis_db: RedisDb):
    publisher, redis = RedisPublisher(redis_db.url), Redis.from_url(redis_db.url)
    games = [f"channels-{i}-{time.monotonic_ns()}" for i in range(GAMES)]
    followers = [_Follower(publisher, g) for g in games for _ in range(FOLLOWERS)]
    try:
        await _until(lambda: _all_woken(followers), "every follower told it is subscribed")
        assert await _subscribers(redis, games) == [1] * GAMES, "one connection for them all"
        for version in (1, 2, 3):
            for g in games:
                await publisher.publish(g, version)
        await _until(lambda: _all_have(followers, [1, 2, 3]), "every version reached all")
        assert all(f.versions() == [1, 2, 3] for f in followers), "in order, none twice"
        assert publisher.channels.connections == 1
        assert publisher.channels.channels == GAMES
    finally:
        await asyncio.gather(*(f.stop() for f in followers))
        await publisher.close()
        await redis.aclose()


async def test_given_redis_away_and_back_then_every_channel_is_subscribed_again(
        redis_db: RedisDb, redis_proxy: TcpProxy):
    publisher = RedisPublisher(proxied_url(redis_db, redis_proxy))
    direct = Redis.from_url(redis_db.url)
    games = [f"comeback-{i}-{time.monotonic_ns()}" for i in range(50)]
    followers = [_Follower(publisher, g) for g in games for _ in range(2)]
    try:
        await _until(lambda: _all_woken(followers), "subscribed")
        redis_proxy.cut()  # as if Redis restarted: the connection is gone
        await asyncio.sleep(0.3)
        woken_before = [f.got.count(ANY_VERSION) for f in followers]
        for g in games:  # published while this process hears nothing: lost
            await direct.publish(CHANNEL_PREFIX + g, "1")
        redis_proxy.restore()

        async def resubscribed() -> bool:
            return (await _subscribers(direct, games) == [1] * len(games)
                    and all(f.got.count(ANY_VERSION) > n
                            for f, n in zip(followers, woken_before, strict=True)))

        await _until(resubscribed, "every channel subscribed again, every follower told")
        for g in games:
            await publisher.publish(g, 2)
        await _until(lambda: _all_have(followers, [2]), "what follows the return arrives")
        assert all(f.versions() == [2] for f in followers), "the lost one is not made up"
    finally:
        await asyncio.gather(*(f.stop() for f in followers))
        await publisher.close()
        await direct.aclose()


async def test_given_the_last_follower_leaving_then_its_channel_is_unsubscribed(
        redis_db: RedisDb):
    publisher, redis = RedisPublisher(redis_db.url), Redis.from_url(redis_db.url)
    game, other = f"leaving-{time.monotonic_ns()}", f"staying-{time.monotonic_ns()}"
    first, second, stays = (_Follower(publisher, game), _Follower(publisher, game),
                            _Follower(publisher, other))
    try:
        await _until(lambda: _all_woken([first, second, stays]), "subscribed")
        await first.stop()
        await asyncio.sleep(0.3)
        assert await _subscribers(redis, [game, other]) == [1, 1], "one follower remains"
        await publisher.publish(game, 1)
        await _until(lambda: _all_have([second], [1]), "the one left still hears")

        await second.stop()

        async def gone() -> bool:
            return await _subscribers(redis, [game, other]) == [0, 1]

        await _until(gone, "the channel is unsubscribed, the other kept")
        assert publisher.channels.channels == 1
        await publisher.publish(other, 1)
        await _until(lambda: _all_have([stays], [1]), "the other still hears")
        assert first.versions() == [] and second.versions() == [1]
    finally:
        for f in (first, second, stays):
            await f.stop()
        await publisher.close()
        await redis.aclose()


async def _all_woken(followers: list[_Follower]) -> bool:
    return all(ANY_VERSION in f.got for f in followers)


async def _all_have(followers: list[_Follower], versions: list[int]) -> bool:
    return all(f.versions() == versions for f in followers)
