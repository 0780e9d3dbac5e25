"""Long polls across API processes: a command posted to one process wakes a long poll waiting
on another (through Redis pub/sub) at once, and a process with long polls and event streams
open still stops promptly on SIGTERM."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.wiring.settings import Settings
from tests.processes import ApiProcess, running_apis

from .conftest import RedisDb, worker_env
from .test_replicas import _player

ROUNDS = 50


@pytest.fixture
def two_apis(settings: Settings, tmp_path: Path) -> Iterator[list[ApiProcess]]:
    """Two `uvicorn` processes on one PostgreSQL and one Redis; no due work (two humans)."""
    env = {**worker_env(settings), "CYA_SCHEDULER": "none", "CYA_RATE_LIMIT_PER_MINUTE": "0"}
    with running_apis(env, tmp_path, count=2) as apis:
        yield apis


async def _two_player_game(a: httpx.AsyncClient, b: httpx.AsyncClient
                           ) -> tuple[str, dict[int, dict[str, str]]]:
    ann, bob = await _player(a, "ann"), await _player(b, "bob")
    created = await a.post("/v1/games", headers=ann,
                           json={"ruleset": {"players": 2, "end_mode": "quick"}})
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    assert (await b.post(f"/v1/games/{game_id}/seats", headers=bob)).status_code == 200
    assert (await a.post(f"/v1/games/{game_id}/start", headers=ann)).status_code == 200
    return game_id, {0: ann, 1: bob}


async def _follow(client: httpx.AsyncClient, path: str, headers: dict[str, str]) -> None:
    async with client.stream("GET", f"{path}/events",
                             headers={**headers, "Accept": "text/event-stream"}) as r:
        async for _ in r.aiter_bytes():
            pass


@pytest.mark.parametrize("redis_drops_subscribers", [False, True])
async def test_a_command_on_one_process_wakes_a_long_poll_on_the_other(
    two_apis: list[ApiProcess], redis_db: RedisDb, redis_drops_subscribers: bool,
) -> None:
    """An event stream stays open on each process throughout, as a spectator's would, so
    each process keeps one feed for the game that every long poll shares."""
    urls = [api.url for api in two_apis]
    async with httpx.AsyncClient(base_url=urls[0], timeout=30) as a, \
            httpx.AsyncClient(base_url=urls[1], timeout=30) as b:
        game_id, seats = await _two_player_game(a, b)
        path = f"/v1/games/{game_id}"
        streams = [asyncio.create_task(_follow(c, path, seats[1])) for c in (a, b)]
        slow: list[tuple[int, float]] = []
        for n in range(ROUNDS):
            if n == 5 and redis_drops_subscribers:  # Redis restarts, a proxy cuts idle links…
                redis_db.client.client_kill_filter(_type="pubsub")
            poller, sender = (a, b) if n % 2 == 0 else (b, a)
            view = (await poller.get(f"{path}/view", headers=seats[0])).json()
            if view["status"] == "finished":
                break
            version, seat = view["version"], view["awaiting"][0]
            legal = await sender.get(f"{path}/legal-commands", headers=seats[seat])
            command = legal.json()["commands"][0]

            async def long_poll(poller: httpx.AsyncClient = poller, v: int = version
                                ) -> tuple[float, int]:
                t0 = time.monotonic()
                r = await poller.get(f"{path}/view", headers=seats[0],
                                     params={"wait_for_version": v + 1, "timeout": 10})
                return time.monotonic() - t0, r.json()["version"]

            waiting = asyncio.create_task(long_poll())
            await asyncio.sleep(0.05)  # the long poll is parked on its process
            sent = await sender.post(f"{path}/commands", json=command, headers=seats[seat])
            assert sent.status_code == 200, sent.text
            elapsed, got = await waiting
            assert got > version, (n, got, version)
            woke_after = elapsed - 0.05
            if woke_after > 2.0:
                slow.append((n, round(woke_after, 2)))
        for t in streams:
            t.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        assert n >= 10, "the game ended too soon to tell"
        assert not slow, f"long polls woke late (round, seconds): {slow}"


async def test_an_api_process_stops_promptly_with_long_polls_and_streams_open(
    two_apis: list[ApiProcess],
) -> None:
    proc, url = two_apis[0].proc, two_apis[0].url
    async with httpx.AsyncClient(base_url=url, timeout=30) as a:
        game_id, seats = await _two_player_game(a, a)
        path = f"/v1/games/{game_id}"
        version = (await a.get(f"{path}/view", headers=seats[0])).json()["version"]

        async def sse() -> None:
            async with a.stream("GET", f"{path}/events", headers={
                    **seats[1], "Accept": "text/event-stream"}) as r:
                async for _ in r.aiter_bytes():
                    pass

        opened = [asyncio.create_task(a.get(f"{path}/view", headers=seats[0], params={
            "wait_for_version": version + 1, "timeout": 30})) for _ in range(3)]
        opened += [asyncio.create_task(sse()) for _ in range(2)]
        await asyncio.sleep(0.5)
        assert not any(t.done() for t in opened)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        while proc.poll() is None and time.monotonic() - t0 < 15:
            await asyncio.sleep(0.05)
        stopped_after = time.monotonic() - t0
        for t in opened:
            t.cancel()
        await asyncio.gather(*opened, return_exceptions=True)
        assert proc.poll() is not None and stopped_after < 5, \
            f"SIGTERM: still running after {stopped_after:.1f} s"
