"""After commit, (game, version) and the commit's events go out through Redis pub/sub when Redis
is configured."""

from __future__ import annotations

import asyncio
import os

import pytest

from service.pipeline.publishers import ANY_VERSION
from service.table.lobby_commands import CreateGame, TakeSeat
from service.wiring.bootstrap import build
from service.wiring.settings import Settings

from .scenarios import QUICK4

REDIS_URL = os.environ.get("CYA_TEST_REDIS", "redis://127.0.0.1:6379/0")


async def _redis_up() -> bool:
    import redis.asyncio as redis

    client = redis.from_url(REDIS_URL)
    try:
        return bool(await client.ping())
    except OSError:
        return False
    finally:
        await client.aclose()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_given_redis_then_subscribers_hear_each_commit(database_url):
    if not await _redis_up():
        pytest.fail(f"Redis at {REDIS_URL} is needed by this test (the README's test command)")
    services = build(Settings(database_url=database_url, redis_url=REDIS_URL))
    try:
        p = services.pipeline
        created = await p.create_game(CreateGame(QUICK4), "p0")
        updates = services.publisher.subscribe(created.game_id)
        # Once Redis confirms the subscription, a wake-up: read, anything before it was missed.
        assert (await asyncio.wait_for(anext(updates), 5)).version == ANY_VERSION

        outcome = await p.lobby(created.game_id, TakeSeat(), "p1")

        published = await asyncio.wait_for(anext(updates), 5)
        assert published.version == outcome.version
        assert published.events == tuple(
            await services.store.read_events(created.game_id, after=created.version))
        await updates.aclose()
    finally:
        await services.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_given_redis_away_then_commands_still_commit_and_answer(database_url):
    # Publishing and enqueueing follow the commit: their failure was the command's error (an
    # HTTP 500 for a game that existed; a retried creation made a second one).
    services = build(Settings(database_url=database_url, redis_url="redis://127.0.0.1:1/0"))
    try:
        p = services.pipeline
        created = await p.create_game(CreateGame(QUICK4), "p0")
        joined = await p.lobby(created.game_id, TakeSeat(), "p1")
        async with services.store.read() as conn:
            logged = await services.store.load(conn, created.game_id)
    finally:
        await services.close()

    assert joined.version == created.version + 1 == len(logged)
