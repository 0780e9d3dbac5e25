"""Two API processes and two workers on one game: every decision is taken exactly once.

The humans' client sends each command to both API processes at once with one
`Idempotency-Key` (a retry that lands on another replica); bots move through two workers.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.wiring.bootstrap import Services
from service.wiring.settings import Settings
from tests.processes import running_apis

from .conftest import Workers, worker_env
from .games import assert_each_due_decision_taken_once, command_log


@pytest.fixture
def api_processes(settings: Settings, tmp_path: Path) -> Iterator[list[str]]:
    """Two `uvicorn` processes serving the app from the environment, as deployed."""
    env = {**worker_env(settings), "CYA_RATE_LIMIT_PER_MINUTE": "0"}
    with running_apis(env, tmp_path, count=2) as apis:
        yield [api.url for api in apis]


async def _player(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['api_key']}"}


async def _play_humans(replicas: list[httpx.AsyncClient], game_id: str,
                       seats: dict[int, dict[str, str]]) -> int:
    """Play every human decision through both replicas at once until the game ends."""
    rng, sent = random.Random(7), 0
    anyone = seats[0]
    path = f"/v1/games/{game_id}"
    while True:
        # Short polls rather than the long poll: this test is about who decides, not streams.
        r = await rng.choice(replicas).get(f"{path}/view", headers=anyone)
        view: dict[str, Any] = r.json()
        if view["status"] == "finished":
            return sent
        version, seat = view["version"], view["awaiting"][0]
        if seat not in seats:
            await asyncio.sleep(0.005)  # a bot's decision: the workers take it
            continue
        legal = await replicas[0].get(f"{path}/legal-commands", headers=seats[seat])
        if legal.status_code != 200 or legal.json()["version"] != version:
            continue
        command = rng.choice(legal.json()["commands"])
        key = {"Idempotency-Key": f"human-{seat}-{version}", **seats[seat]}
        answers = await asyncio.gather(*(c.post(f"{path}/commands", json=command, headers=key)
                                         for c in replicas))
        codes = sorted(a.status_code for a in answers)
        assert codes[0] == 200 and set(codes) <= {200, 409}, [a.text for a in answers]
        sent += 1


async def test_given_two_api_processes_and_two_workers_then_no_decision_is_taken_twice(
    api: Services, workers: Workers, api_processes: list[str]
) -> None:
    workers.start()
    workers.start()
    async with httpx.AsyncClient(base_url=api_processes[0], timeout=30) as a, \
            httpx.AsyncClient(base_url=api_processes[1], timeout=30) as b:
        ann, bob = await _player(a, "ann"), await _player(b, "bob")
        created = await a.post("/v1/games", headers=ann, json={
            "ruleset": {"players": 4, "end_mode": "quick"},
            "bots": [{"level": "random"}, {"level": "greedy"}]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        assert (await b.post(f"/v1/games/{game_id}/seats", headers=bob)).status_code == 200
        assert (await b.post(f"/v1/games/{game_id}/start", headers=ann)).status_code == 200

        sent = await asyncio.wait_for(_play_humans([a, b], game_id, {0: ann, 3: bob}), 90)

    log = await command_log(api, game_id)
    assert_each_due_decision_taken_once(log)
    humans = [c for c in log if c.command_id.startswith("player:") and ":human-" in c.command_id]
    assert len(humans) == sent > 0


def test_given_two_api_processes_then_a_keys_rate_limit_holds_across_them(
        settings: Settings, redis_db, tmp_path: Path) -> None:
    # The README promises a limit per key: with Redis, both processes count the same requests.
    env = {**worker_env(settings), "CYA_RATE_LIMIT_PER_MINUTE": "10"}
    with running_apis(env, tmp_path, count=2) as apis, httpx.Client() as http:
        key = http.post(f"{apis[0].url}/v1/players", json={}).json()["api_key"]
        auth = {"Authorization": f"Bearer {key}"}
        for api in apis:  # each process learns the key (a key unknown to a process counts
            http.get(f"{api.url}/v1/players/me", headers=auth)  # against the address)
        answers = [http.get(f"{apis[n % 2].url}/v1/players/me", headers=auth)
                   for n in range(12)]

    # One of the key's 10 was spent on the first process (the second did not know the key
    # yet: that call counted against the address); counted apart, all 12 would pass.
    statuses = [r.status_code for r in answers]
    assert statuses == [200] * 9 + [429] * 3, statuses
    assert [int(r.headers["ratelimit-remaining"]) for r in answers] == [
        max(0, 8 - n) for n in range(12)]
