"""The per-game feeds behind long polls and event streams, with Redis failing under them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from redis.exceptions import ConnectionError as RedisConnectionError

from service.http.feeds import Feeds
from tests.workers.conftest import redis_db  # noqa: F401  (a fixture)


class _NoEvents:
    async def tail(self, game_id: str, after: int = 0) -> list[object]:
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


class _Silent:
    """A publisher whose every message is lost: the feeds learn only from their timer."""

    async def publish(self, game_id: str, version: int, players: object = (),
                      events: object = ()) -> None:
        return None

    async def subscribe(self, game_id: str) -> AsyncIterator[int]:
        await asyncio.Event().wait()
        yield 0  # pragma: no cover (makes this a generator)

    async def close(self) -> None:
        return None


async def test_given_lost_publishes_then_one_query_a_round_finds_the_one_game_that_moved(
        tmp_path):
    # A timer per feed read each followed game's log every `poll`: 5,000 games followed in
    # a process were 2,500 queries a second. One query a round reads every recorded version,
    # and only the feed behind reads its log.
    import sqlalchemy as sa

    from cya_rules.legal import legal_commands
    from service.events.migrate import upgrade
    from service.wiring.bootstrap import build
    from service.wiring.settings import Settings
    from tests.workers.games import humans, start_game

    poll, games = 0.2, 30
    url = f"sqlite+aiosqlite:///{tmp_path}/feeds.sqlite3"
    await asyncio.to_thread(upgrade, url)
    services = build(Settings(database_url=url, scheduler="none"))
    statements: list[str] = []
    sa.event.listen(services.store.engine.sync_engine, "before_cursor_execute",
                    lambda _c, _cur, sql, *_: statements.append(sql))
    try:
        ids = [await start_game(services, humans("a", "b")) for _ in range(games)]
        feeds = Feeds(services.store, _Silent(), poll=poll)  # type: ignore[arg-type]
        async with contextlib.AsyncExitStack() as stack:
            followed = [await stack.enter_async_context(feeds.follow(g)) for g in ids]
            statements.clear()
            await asyncio.sleep(poll * 5 + poll / 2)
            selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
            assert 4 <= len(selects) <= 6, "one query a round, not one a feed"
            assert not any("FROM events" in s for s in selects), "no log read: none moved"

            game = await services.pipeline.load(ids[7], fresh=True)
            seat = game.state.pending_seats()[0]
            moved = await services.pipeline.play(ids[7], seat,
                                                 legal_commands(game.state, seat)[0])
            statements.clear()
            assert await followed[7].wait_past(game.version, poll * 3), "found by the timer"
            assert followed[7].version == moved.version
            assert sum("FROM events" in s for s in statements) == 1, "the one feed behind"
            assert all(f.version == game.version for i, f in enumerate(followed) if i != 7)
        await feeds.close()
    finally:
        await services.close()


async def test_given_commits_in_another_process_then_their_publishes_carry_the_events(
        tmp_path, redis_db):  # noqa: F811
    # Each other process following the game read every commit back from the log (12% of the
    # servers' CPU with two seats following on two processes): the publish now carries them.
    from cya_rules.legal import legal_commands
    from service.events.migrate import upgrade
    from service.wiring.bootstrap import build
    from service.wiring.settings import Settings
    from tests.workers.games import humans, start_game

    url = f"sqlite+aiosqlite:///{tmp_path}/carried.sqlite3"
    await asyncio.to_thread(upgrade, url)
    settings = Settings(database_url=url, redis_url=redis_db.url, scheduler="none")
    committing, following = build(settings), build(settings)
    reads: list[int] = []
    real_tail = following.store.tail

    async def counted_tail(game_id: str, after: int = 0) -> list:
        reads.append(after)
        return await real_tail(game_id, after)

    following.store.tail = counted_tail  # type: ignore[method-assign]
    try:
        game_id = await start_game(committing, humans("a", "b"))
        feeds = Feeds(following.store, following.publisher, poll=30)
        async with feeds.follow(game_id) as feed:
            for _ in range(50):  # Redis confirms the subscription: one read for what it missed
                if len(reads) >= 2:
                    break
                await asyncio.sleep(0.05)
            reads.clear()
            for _ in range(12):
                game = await committing.pipeline.load(game_id, fresh=True)
                seat = game.state.pending_seats()[0]
                await committing.pipeline.play(game_id, seat, legal_commands(game.state, seat)[0])
                assert await feed.wait_past(game.version, 5)
            assert reads == [], "every commit came with its publish"
            log = await following.store.read_events(game_id)
            assert feed.events == log and feed.version == log[-1].version
        await feeds.close()
    finally:
        await committing.close()
        await following.close()


async def test_given_commits_in_this_process_then_their_publishes_are_not_decoded_again(
        tmp_path, redis_db, monkeypatch):  # noqa: F811
    # Behind a balancer that sends a game's requests to one process, every publish a feed
    # hears is its own process's commit, which the feed took at the commit: decoding the
    # publish's events again was most of what hearing it cost.
    from cya_rules.legal import legal_commands
    from service.events.migrate import upgrade
    from service.pipeline import publishers
    from service.wiring.bootstrap import build
    from service.wiring.settings import Settings
    from tests.workers.games import humans, start_game

    decoded: list[int] = []
    real_decode = publishers._decode_events

    def counted_decode(data: bytes) -> tuple:
        decoded.append(len(data))
        return real_decode(data)

    monkeypatch.setattr(publishers, "_decode_events", counted_decode)
    url = f"sqlite+aiosqlite:///{tmp_path}/echo.sqlite3"
    await asyncio.to_thread(upgrade, url)
    services = build(Settings(database_url=url, redis_url=redis_db.url, scheduler="none"))
    feeds = Feeds(services.store, services.publisher, poll=30)
    services.pipeline.hints.listeners += (feeds,)  # as the API wires it
    heard = services.publisher.subscribe  # the publishes reach the feed: counted here too
    published: list[int] = []

    async def counting_subscribe(game_id: str) -> AsyncIterator:
        async for item in heard(game_id):
            published.append(item.version)
            yield item

    services.publisher.subscribe = counting_subscribe  # type: ignore[method-assign]
    try:
        game_id = await start_game(services, humans("a", "b"))
        async with feeds.follow(game_id) as feed:
            for _ in range(12):
                game = await services.pipeline.load(game_id)
                seat = game.state.pending_seats()[0]
                outcome = await services.pipeline.play(game_id, seat,
                                                       legal_commands(game.state, seat)[0])
                assert feed.version == outcome.version  # taken at the commit
            last = feed.version
            for _ in range(100):  # every commit's publish came back to the feed
                if published and published[-1] == last:
                    break
                await asyncio.sleep(0.02)
            assert published[-1] == last
            assert decoded == [], "the feed held each commit already"
            assert feed.events == await services.store.read_events(game_id)
        await feeds.close()
    finally:
        await services.close()


async def test_given_a_feed_let_go_then_its_reference_counts_free_it_without_a_collection():
    # The feed held its pump's task, and the task (its frames) the feed: a cycle. API
    # processes collect only the young generations often (service/wiring/paced_gc.py), so a
    # feed that had lived long kept its game's whole log until a full collection.
    import gc
    import weakref

    from service.pipeline.publishers import LocalPublisher

    feeds = Feeds(_NoEvents(), LocalPublisher(), poll=30)  # type: ignore[arg-type]
    gc.collect()
    gc.disable()
    try:
        async with feeds.follow("g") as feed:
            await asyncio.sleep(0.01)  # its pump waits on its subscription
            gone = weakref.ref(feed)
        del feed
        await asyncio.sleep(0.01)
        assert gone() is None
    finally:
        gc.enable()
        await feeds.close()
