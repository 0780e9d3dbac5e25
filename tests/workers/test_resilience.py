"""Nothing is lost when a worker or Redis dies: the database says what is due, the sweeper
hands it out again, and every job acts at most once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

import msgspec
import sqlalchemy as sa
from redis import Redis
from rq import Queue

from service.events.tables import games
from service.scheduling.rq_scheduler import enqueue_due, job_id, requeue_lost
from service.table.clock import DEADLINE, DueWork
from service.wiring.bootstrap import Services
from workers.sweeper import requeued_counter

from .conftest import RedisDb, Workers
from .games import (
    assert_each_due_decision_taken_once,
    bots,
    command_log,
    event_types,
    humans,
    start_game,
    wait_until_finished,
)


async def wait_for_version(api: Services, game_id: str, version: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while (await api.pipeline.load(game_id, fresh=True)).version < version:
        assert time.monotonic() < deadline, f"game {game_id} stalled before v{version}"
        await asyncio.sleep(0.01)


@asynccontextmanager
async def games_row_locked(api: Services, game_id: str) -> AsyncIterator[None]:
    """Holds the game's read-model row: a worker committing a move for it waits, mid-job."""
    async with api.engine.connect() as conn, conn.begin():
        await conn.execute(sa.select(games.c.game_id).where(games.c.game_id == game_id)
                           .with_for_update())
        yield


async def wait_for_blocked_writer(api: Services, timeout_s: float = 10) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        async with api.engine.connect() as conn:
            waiting = await conn.scalar(sa.text(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND datname = current_database()"))
        if waiting:
            return
        assert time.monotonic() < deadline, "no worker ever waited on the locked row"
        await asyncio.sleep(0.01)


async def test_given_a_bot_game_when_a_worker_is_killed_hard_then_it_finishes_without_repeats(
    api: Services, workers: Workers, redis_db: RedisDb
) -> None:
    doomed = workers.start()
    game_ids = [await start_game(api, bots(4)) for _ in range(3)]
    await wait_for_version(api, game_ids[0], 40, timeout_s=30)

    async with games_row_locked(api, game_ids[0]):
        await wait_for_blocked_writer(api)
        workers.kill_hard(doomed)  # in the middle of a job: its transaction never commits
    workers.start()

    for game_id in game_ids:
        await wait_until_finished(api, game_id, timeout_s=60)
        assert_each_due_decision_taken_once(await command_log(api, game_id))
    assert_sweeper_requeued(redis_db, api)


async def test_given_games_in_flight_when_redis_is_flushed_then_the_sweeper_restores_progress(
    api: Services, workers: Workers, redis_db: RedisDb
) -> None:
    workers.start()
    bot_game = await start_game(api, bots(3), rules="advanced_all")  # draft piles: ≤ 3 seats
    clock_game = await start_game(api, humans("ann") + bots(3), turn_clock=1)
    await wait_for_version(api, bot_game, 40, timeout_s=30)

    # Everything queued, scheduled or running in Redis is gone, several times over.
    for _ in range(3):
        redis_db.flush()
        await asyncio.sleep(0.3)

    for game_id in (bot_game, clock_game):
        await wait_until_finished(api, game_id, timeout_s=90)
        assert_each_due_decision_taken_once(await command_log(api, game_id))
    assert_sweeper_requeued(redis_db, api)


async def test_given_the_worker_running_rqs_scheduler_killed_then_clocks_still_expire(
    api: Services, workers: Workers, redis_db: RedisDb
) -> None:
    # Expiring clocks wait in the due timer's set, which every worker's timer empties: the
    # survivor's goes on (RQ's scheduler, which held them before, ran in one worker under a
    # lock that outlived it by a minute).
    first = workers.start()
    game_id = await start_game(api, humans("ann") + bots(1), turn_clock=1, first_player=0)
    deadline = time.monotonic() + 30
    while "decision_timed_out" not in await event_types(api, game_id):  # the scheduler works
        assert time.monotonic() < deadline, "no clock expired"
        await asyncio.sleep(0.1)

    workers.kill_hard(first, with_scheduler=True)
    workers.start()

    await wait_until_finished(api, game_id, timeout_s=90)
    assert_each_due_decision_taken_once(await command_log(api, game_id))


def assert_sweeper_requeued(redis_db: RedisDb, api: Services) -> None:
    """The recovery came from the sweeper, not from luck."""
    assert int(redis_db.client.get(requeued_counter(api.settings.rq_queue)) or 0) >= 1


def test_given_a_job_a_worker_took_and_died_before_starting_then_the_sweeper_requeues_it(
        redis_db: RedisDb) -> None:
    # RQ moves a taken job to an intermediate list, still "queued", and gives it up (as
    # failed) only after a minute or more; the sweeper must not take it for one waiting.
    queue = Queue("cya-due-test", connection=Redis.from_url(redis_db.url))
    overdue = DueWork("g", 7, DEADLINE, 0, datetime.now(UTC) - timedelta(seconds=30))
    waiting = msgspec.structs.replace(overdue, game_id="h")
    enqueue_due(queue, waiting)
    enqueue_due(queue, overdue)
    queue.connection.lmove(queue.key, queue.intermediate_queue_key, "RIGHT", "LEFT")  # taken

    assert requeue_lost(queue, [waiting, overdue], started_grace_s=5) == 1

    assert queue.get_job_position(job_id(overdue)) is not None
    assert queue.intermediate_queue.get_job_ids() == []
    assert requeue_lost(queue, [waiting, overdue], started_grace_s=5) == 0  # both wait now
