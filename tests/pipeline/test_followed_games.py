"""Two API processes, one game, its seats' commands alternating between them (the production
shape, `catch_up_first`). A game followed by a feed in the process is decided on its cached copy,
which the feed's events keep at the log's end: no catch-up read before a command. When a
publish is lost, the decision on the stale copy is refused by the append and made again on the
log's end: every command still takes effect once, in order."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from cya_rules.legal import legal_commands
from service.events.migrate import upgrade
from service.http.feeds import Feeds
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings
from tests.workers.conftest import RedisDb, redis_db  # noqa: F401  (a fixture)
from tests.workers.games import humans, start_game


@contextlib.asynccontextmanager
async def _processes(url: str, redis_url: str) -> AsyncIterator[list[Services]]:
    await asyncio.to_thread(upgrade, url)
    settings = Settings(database_url=url, redis_url=redis_url, scheduler="none")
    both = [build(settings, catch_up_first=True) for _ in range(2)]
    try:
        yield both
    finally:
        for s in both:
            await s.close()


def _count_catch_ups(services: Services) -> list[int]:
    """The versions at which the pipeline read the log's end before deciding."""
    reads: list[int] = []
    real = services.pipeline.load

    async def counted(game_id: str, *, fresh: bool = False) -> object:
        game = await real(game_id, fresh=fresh)
        if fresh:
            reads.append(game.version)
        return game

    services.pipeline.load = counted  # type: ignore[method-assign]
    return reads


async def _play(processes: list[Services], game_id: str, moves: int, *, fresh: bool = True
                ) -> None:
    """`fresh`: find whose turn it is from the log (else from the first process's copy)."""
    for n in range(moves):  # seat 0's on the first process, seat 1's on the second
        game = await processes[0].pipeline.load(game_id, fresh=fresh)
        seat = game.state.pending_seats()[0]
        outcome = await processes[seat].pipeline.play(game_id, seat,
                                                      legal_commands(game.state, seat)[0])
        assert outcome.version > game.version, n


async def test_given_both_processes_follow_the_game_then_no_command_reads_before_deciding(
        tmp_path, redis_db: RedisDb):  # noqa: F811
    async with _processes(f"sqlite+aiosqlite:///{tmp_path}/f.sqlite3", redis_db.url) as procs:
        game_id = await start_game(procs[0], humans("a", "b"))
        feeds = [Feeds(p.store, p.publisher, 30, p.pipeline) for p in procs]
        async with contextlib.AsyncExitStack() as stack:
            followed = [await stack.enter_async_context(f.follow(game_id)) for f in feeds]
            await asyncio.sleep(0.3)  # Redis confirms both subscriptions
            for p, f in zip(procs, feeds, strict=True):
                p.pipeline.hints.listeners += (f,)
            await _play(procs, game_id, 2)  # each process has the game cached
            version = (await procs[0].store.read_events(game_id))[-1].version
            for f in followed:
                await f.wait_past(version - 1, 5)
            reads = [_count_catch_ups(p) for p in procs]
            for _ in range(10):
                await _play(procs, game_id, 1, fresh=False)
                for f in followed:  # each seat sees the move before making its own
                    assert await f.wait_past(version, 5)
                version = followed[0].version
            assert reads == [[], []], "decided on the followed copies"
            log = await procs[0].store.read_events(game_id)
            assert [f.events for f in followed] == [log, log]
        for f in feeds:
            await f.close()
        assert all(p.pipeline.cache.current(game_id) is None for p in procs), "unfollowed"


class _Lost:
    """A publisher whose every message is lost."""

    async def publish(self, *args: object, **kwargs: object) -> None:
        return None

    async def subscribe(self, game_id: str) -> AsyncIterator[object]:
        await asyncio.Event().wait()
        yield None  # pragma: no cover (makes this a generator)

    async def close(self) -> None:
        return None


async def test_given_lost_publishes_then_a_command_decided_on_a_stale_copy_is_made_again(
        tmp_path, redis_db: RedisDb):  # noqa: F811
    async with _processes(f"sqlite+aiosqlite:///{tmp_path}/s.sqlite3", redis_db.url) as procs:
        game_id = await start_game(procs[0], humans("a", "b"))
        feeds = [Feeds(p.store, _Lost(), 30, p.pipeline) for p in procs]  # type: ignore[arg-type]
        async with contextlib.AsyncExitStack() as stack:
            for f in feeds:
                await stack.enter_async_context(f.follow(game_id))
            retried: list[bool] = []
            for p in procs:
                real = p.pipeline._attempt

                async def attempt(command, fresh, real=real):  # type: ignore[no-untyped-def]
                    result = await real(command, fresh)
                    retried.append(not fresh and result.__class__.__name__ == "_Retry")
                    return result

                p.pipeline._attempt = attempt  # type: ignore[method-assign]
            await _play(procs, game_id, 12)  # each process's copy is stale at its turn
            assert any(retried), "decided on a stale copy, and again"
            log = await procs[0].store.read_events(game_id)
            assert [s.version for s in log] == list(range(1, len(log) + 1))
            game = await procs[1].pipeline.load(game_id, fresh=True)
            assert game.version == log[-1].version
        for f in feeds:
            await f.close()
