"""A player's news after Redis came back (found by bench/soak.py): Redis restarted, every
subscription was made again, and the next command's news never reached the player whose turn
it made. The committing process's pooled connection to Redis was the one from before the
restart, and its publish failed; or a publish failed while Redis was away, and the process
skipped every publish for the pause after a failed hint, also after Redis was back. A news
stream, unlike a game's stream, never re-reads the log on its own: a `cya-bot` runner waited
for that news for good, and its game with it."""

from __future__ import annotations

import asyncio
import json
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

HEARD_WITHIN_S = 5.0  # the pause after a failed hint, HINT_PAUSE_S, is 5 s


@pytest.fixture
def two_apis_behind_proxy(settings: Settings, redis_db: RedisDb, redis_proxy: TcpProxy,
                          tmp_path: Path) -> Iterator[list[ApiProcess]]:
    # A heartbeat a second: the news stream notices the lost subscription (and looks again
    # at the player's games) long before the command, so only the command's news is left.
    env = {**worker_env(settings), "CYA_SCHEDULER": "none", "CYA_RATE_LIMIT_PER_MINUTE": "0",
           "CYA_SSE_HEARTBEAT_SECONDS": "1", "CYA_REDIS_URL": proxied_url(redis_db, redis_proxy)}
    with running_apis(env, tmp_path, count=2) as apis:
        yield apis


async def your_turns(client: httpx.AsyncClient, headers: dict[str, str],
                     heard: list[tuple[float, int]]) -> None:
    async with client.stream("GET", "/v1/players/me/events", headers=headers) as r:
        async for line in r.aiter_lines():
            if line.strip() and (news := json.loads(line))["type"] == "your_turn":
                heard.append((time.monotonic(), news["version"]))


async def until_the_waiters_turn(a: httpx.AsyncClient, path: str, mover: dict[str, str],
                                 waiter: int) -> dict:  # type: ignore[type-arg]
    while True:
        turn = (await a.get(f"{path}/turn", headers=mover, params={"timeout": 0})).json()
        if waiter in turn["awaiting"] or turn["status"] != "playing":
            assert turn["status"] == "playing"
            return turn  # type: ignore[no-any-return]
        sent = await a.post(f"{path}/commands", json=turn["legal_commands"][0], headers=mover)
        assert sent.status_code == 200, sent.text


@pytest.mark.parametrize("publish_failed_while_away", [False, True])
async def test_given_redis_restarted_when_a_command_commits_then_the_awaited_player_hears(
    two_apis_behind_proxy: list[ApiProcess], redis_proxy: TcpProxy,
    publish_failed_while_away: bool,
) -> None:
    a_api, b_api = two_apis_behind_proxy
    async with httpx.AsyncClient(base_url=a_api.url, timeout=60) as a, \
            httpx.AsyncClient(base_url=b_api.url, timeout=60) as b:
        game_id, seats = await _two_player_game(a, b)
        other_game, other_seats = await _two_player_game(a, b)
        path = f"/v1/games/{game_id}"
        mover = (await a.get(f"{path}/view", headers=seats[0])).json()["awaiting"][0]
        waiter = 1 - mover
        heard: list[tuple[float, int]] = []
        news = asyncio.create_task(your_turns(b, seats[waiter], heard))
        await asyncio.sleep(1.0)
        # Given Redis gone and back, and every subscription made again since
        redis_proxy.cut()
        if publish_failed_while_away:  # a commit on A while Redis is away: its publish fails
            other = f"/v1/games/{other_game}"
            turn = (await a.get(f"{other}/view", headers=other_seats[0])).json()
            await until_the_waiters_turn(a, other, other_seats[turn["awaiting"][0]],
                                         1 - turn["awaiting"][0])
        await asyncio.sleep(1.0)
        redis_proxy.restore()
        await asyncio.sleep(3.0)  # inside the pause after A's failed publish

        # When the mover's commands (on process A) make it the waiter's turn
        t0 = time.monotonic()
        turn = await until_the_waiters_turn(a, path, seats[mover], waiter)

        # Then the waiter's news stream (on process B) says so
        while not any(v >= turn["version"] for _, v in heard):
            assert time.monotonic() - t0 < HEARD_WITHIN_S, (
                f"no your_turn for v{turn['version']} within {HEARD_WITHIN_S} s: {heard}")
            await asyncio.sleep(0.05)
        news.cancel()
        await asyncio.gather(news, return_exceptions=True)
