"""A long poll across a Redis outage (issue 31, fault 1): Redis is away when the poll opens,
the awaited command commits on another process, and Redis returns within two seconds. The
poll must answer within its bound, the process must let go of the game's channel after it,
and SIGTERM must stop the process promptly."""

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
from tests.tcp_proxy import TcpProxy

from .conftest import RedisDb, proxied_url, worker_env
from .test_long_poll import _two_player_game

POLL_TIMEOUT_S = 20
POLL_FALLBACK_S = 2.0  # the feed re-reads the log this often without a publish


@pytest.fixture
def two_apis_behind_proxy(settings: Settings, redis_db: RedisDb, redis_proxy: TcpProxy,
                          tmp_path: Path) -> Iterator[list[ApiProcess]]:
    env = {**worker_env(settings), "CYA_SCHEDULER": "none", "CYA_RATE_LIMIT_PER_MINUTE": "0",
           "CYA_REDIS_URL": proxied_url(redis_db, redis_proxy)}
    with running_apis(env, tmp_path, count=2) as apis:
        yield apis


def subscribers(redis_db: RedisDb, game_id: str) -> int:
    return int(dict(redis_db.client.pubsub_numsub(f"cya:game:{game_id}"))[
        f"cya:game:{game_id}".encode()])


async def sse_versions(client: httpx.AsyncClient, path: str, headers: dict[str, str],
                       after: int, seen: list[tuple[float, int]]) -> None:
    """Follows the game's event stream from `after`, noting when each version arrives."""
    async with client.stream("GET", f"{path}/events", params={"after": after}, headers={
            **headers, "Accept": "text/event-stream"}) as r:
        async for line in r.aiter_lines():
            if line.startswith("id:"):
                seen.append((time.monotonic(), int(line[3:])))


async def assert_lets_go_and_stops(api: ApiProcess, redis_db: RedisDb, game_id: str) -> None:
    """The process unsubscribes from the game once nobody follows it, and stops promptly."""
    deadline = time.monotonic() + 5
    while subscribers(redis_db, game_id):
        assert time.monotonic() < deadline, "still subscribed to the game after its followers"
        await asyncio.sleep(0.1)
    t1 = time.monotonic()
    api.proc.send_signal(signal.SIGTERM)
    while api.proc.poll() is None and time.monotonic() - t1 < 15:
        await asyncio.sleep(0.05)
    assert api.proc.poll() is not None, "SIGTERM: still running after 15 s"
    assert time.monotonic() - t1 < 5


@pytest.mark.parametrize("follower", ["long_poll", "stream"])
@pytest.mark.parametrize("returns_after_s", [1.2, 1.5, 1.9])
async def test_given_redis_away_when_it_returns_mid_poll_then_the_follower_answers_in_bound(
    two_apis_behind_proxy: list[ApiProcess], redis_db: RedisDb, redis_proxy: TcpProxy,
    returns_after_s: float, follower: str,
) -> None:
    a_api, b_api = two_apis_behind_proxy
    async with httpx.AsyncClient(base_url=a_api.url, timeout=60) as a, \
            httpx.AsyncClient(base_url=b_api.url, timeout=60) as b:
        game_id, seats = await _two_player_game(a, b)
        path = f"/v1/games/{game_id}"
        view = (await a.get(f"{path}/view", headers=seats[0])).json()
        version, seat = view["version"], view["awaiting"][0]
        command = (await a.get(f"{path}/legal-commands", headers=seats[seat])).json()[
            "commands"][0]

        # Given Redis away when the follower opens on process B
        redis_proxy.cut()
        t0 = time.monotonic()
        seen: list[tuple[float, int]] = []
        if follower == "long_poll":
            opened = asyncio.create_task(b.get(f"{path}/view", headers=seats[0], params={
                "wait_for_version": version + 1, "timeout": POLL_TIMEOUT_S}))
        else:
            opened = asyncio.create_task(sse_versions(b, path, seats[0], version, seen))
        await asyncio.sleep(0.3)
        # When the awaited command commits on process A
        sent = await a.post(f"{path}/commands", json=command, headers=seats[seat])
        assert sent.status_code == 200, sent.text
        # … and Redis returns
        await asyncio.sleep(max(returns_after_s - (time.monotonic() - t0), 0))
        redis_proxy.restore()

        # Then the follower hears of the new version well inside its bound
        bound = returns_after_s + 2 * POLL_FALLBACK_S + 1
        if follower == "long_poll":
            done, _ = await asyncio.wait({opened}, timeout=POLL_TIMEOUT_S + 5)
            assert done, f"the long poll was still open {POLL_TIMEOUT_S + 5} s after it opened"
            heard_after = time.monotonic() - t0
            answer = opened.result()
            assert answer.status_code == 200, answer.text
            assert answer.json()["version"] > version
        else:
            while not seen and time.monotonic() - t0 < POLL_TIMEOUT_S:
                await asyncio.sleep(0.05)
            assert seen, f"the stream heard nothing in {POLL_TIMEOUT_S} s"
            heard_after = seen[0][0] - t0
            opened.cancel()
            await asyncio.gather(opened, return_exceptions=True)
        print(f"{follower}: heard v{version + 1} {heard_after:.2f} s after it opened "
              f"(Redis back at {returns_after_s} s)")
        assert heard_after < bound, (heard_after, bound)

        # and the process lets go of the game's channel, and stops promptly
        await assert_lets_go_and_stops(b_api, redis_db, game_id)
