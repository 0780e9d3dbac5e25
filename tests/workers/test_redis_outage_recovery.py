"""Due work after Redis returns (issue 31, fault 2): however long Redis was away, bot moves
resume within about the sweeper's grace + interval (deploy/README.md), not after RQ's
reconnect back-off (1, 2, 4 … 60 s), which grew with the outage."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings
from tests.tcp_proxy import TcpProxy

from .conftest import RedisDb, Workers, proxied_url
from .games import bots, start_game

OUTAGE_S = 16.0  # RQ would next try at 15 s, then wait 16 s more
RECONNECT_S = 1.0  # a worker's wait between reconnects
PACING_S = 1.0  # a paced bot move waits in RQ's scheduler for about a second


@pytest.fixture
def proxied(settings: Settings, redis_db: RedisDb, redis_proxy: TcpProxy) -> Settings:
    return replace(settings, redis_url=proxied_url(redis_db, redis_proxy), bot_delay_ms=300)


@pytest.fixture
def proxied_workers(proxied: Settings, tmp_path: Path) -> Iterator[Workers]:
    w = Workers(proxied, tmp_path)
    try:
        yield w
    finally:
        w.stop_all()


@pytest.fixture
async def proxied_api(proxied: Settings) -> AsyncIterator[Services]:
    s = build(proxied)
    try:
        yield s
    finally:
        await s.close()


async def version_of(api: Services, game_id: str) -> int:
    return (await api.pipeline.load(game_id, fresh=True)).version


async def test_given_a_long_redis_outage_when_it_returns_then_bots_move_within_the_bound(
    proxied_api: Services, proxied_workers: Workers, redis_proxy: TcpProxy, proxied: Settings,
) -> None:
    proxied_workers.start()
    game_id = await start_game(proxied_api, bots(4), end_mode="to_million")
    deadline = time.monotonic() + 30
    while await version_of(proxied_api, game_id) < 10:  # the bots are moving
        assert time.monotonic() < deadline, "the bots never moved"
        await asyncio.sleep(0.1)

    # Given Redis away for long enough that RQ's back-off would have grown past 15 s
    redis_proxy.cut()
    await asyncio.sleep(OUTAGE_S)
    stalled_at = await version_of(proxied_api, game_id)

    # When it returns
    redis_proxy.restore()
    t0 = time.monotonic()

    # Then the bots move again within grace + interval (and a reconnect and a paced move)
    bound = proxied.sweep_grace_s + proxied.sweep_interval_s + RECONNECT_S + PACING_S + 1.0
    while await version_of(proxied_api, game_id) <= stalled_at:
        assert time.monotonic() - t0 < 3 * OUTAGE_S, "the bots never moved again"
        await asyncio.sleep(0.05)
    resumed_after = time.monotonic() - t0
    print(f"bots moved again {resumed_after:.2f} s after a {OUTAGE_S:.0f} s outage "
          f"(bound {bound:.1f} s)")
    assert resumed_after < bound, (resumed_after, bound)


async def test_given_redis_away_when_a_worker_starts_then_it_waits_and_works_once_it_returns(
    proxied_api: Services, proxied_workers: Workers, redis_proxy: TcpProxy, proxied: Settings,
) -> None:
    # RQ names its Redis connection as it makes a worker: with Redis away that raised, and the
    # worker quit (at start, or between two rounds of its work loop during an outage).
    redis_proxy.cut()
    game_id = await start_game(proxied_api, bots(4), end_mode="to_million")  # due work waits
    started = await version_of(proxied_api, game_id)
    worker = proxied_workers.start()
    await asyncio.sleep(3 * RECONNECT_S)
    assert worker.poll() is None, "the worker quit with Redis away"

    redis_proxy.restore()
    t0 = time.monotonic()
    bound = proxied.sweep_grace_s + proxied.sweep_interval_s + RECONNECT_S + PACING_S + 1.0
    while await version_of(proxied_api, game_id) <= started:
        assert time.monotonic() - t0 < 30, "the bots never moved"
        await asyncio.sleep(0.05)
    assert time.monotonic() - t0 < bound
