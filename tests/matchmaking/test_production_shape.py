"""Quick play on the production shape: two API processes on one PostgreSQL and Redis, seekers
racing through both at once. No seeker is matched twice (each game seats exactly the seekers
that name it), and none is left waiting while a compatible seeker waits."""

from __future__ import annotations

import asyncio
import os
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.postgres import database, url_of
from tests.processes import ApiProcess, running_apis
from tests.workers.conftest import RedisDb, redis_db  # noqa: F401  (a fixture)

SEEKERS = 60


@pytest.fixture
def two_apis(redis_db: RedisDb, tmp_path: Path) -> Iterator[list[ApiProcess]]:  # noqa: F811
    with database("cya_match") as name:
        env = {**os.environ, "CYA_DATABASE_URL": url_of(name), "CYA_REDIS_URL": redis_db.url,
               "CYA_SCHEDULER": "none", "CYA_RATE_LIMIT_PER_MINUTE": "0",
               "CYA_MATCH_TICK_S": "0.2"}
        with running_apis(env, tmp_path, count=2) as apis:
            yield apis


async def _seeker(client: httpx.AsyncClient, n: int) -> tuple[str, dict]:
    r = await client.post("/v1/players", json={"name": f"s{n}"})
    key = r.json()["api_key"]
    auth = {"Authorization": f"Bearer {key}"}
    kind = {"players": 2 + n % 3, "rated": n % 2 == 0, "rating_range": 1000}
    r = await client.post("/v1/matchmaking", json=kind, headers=auth)
    assert r.status_code == 201, r.text
    return key, r.json()


async def test_given_seekers_racing_through_two_processes_then_each_is_matched_once(
        two_apis: list[ApiProcess]):
    clients = [httpx.AsyncClient(base_url=a.url, timeout=30) for a in two_apis]
    try:
        made = await asyncio.gather(*(_seeker(clients[n % 2], n) for n in range(SEEKERS)))
        await asyncio.sleep(1.0)  # a tick or two
        seeks = []
        for n, (key, seek) in enumerate(made):
            r = await clients[n % 2].get(f"/v1/matchmaking/{seek['seek_id']}",
                                         headers={"Authorization": f"Bearer {key}"})
            seeks.append(r.json())
        by_game: dict[str, set[str]] = defaultdict(set)
        for s in seeks:
            if s["game_id"]:
                by_game[s["game_id"]].add(s["player_id"])
        for game_id, seekers in by_game.items():
            r = await clients[0].get(f"/v1/games/{game_id}")
            seated = {x["player_id"] for x in r.json()["summary"]["seats"]}
            assert seated == seekers  # exactly the seekers that name it: none twice
        waiting = Counter((s["players"], s["rated"]) for s in seeks if s["status"] == "waiting")
        assert all(count < players for (players, _), count in waiting.items()), waiting
        assert sum(len(v) for v in by_game.values()) == sum(
            1 for s in seeks if s["status"] == "matched")
    finally:
        for c in clients:
            await c.aclose()
