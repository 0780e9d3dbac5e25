"""How late each turn clock's expiry was taken past its deadline, as a Prometheus histogram in
`/v1/metrics` (`cya_clock_lateness_seconds`): from the API process's own due work on the
embedded default, and from the workers (through Redis) when they take the clocks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from litestar.testing import AsyncTestClient
from prometheus_client.parser import text_string_to_metric_families

from cya_rules.table.seats import TimeoutPolicy
from service.events.migrate import upgrade
from service.http.api_settings import HttpSettings
from service.http.app import create_app
from service.wiring.bootstrap import Services
from service.wiring.settings import Settings

from .conftest import Workers
from .games import bots, humans, start_game

FAMILY = "cya_clock_lateness_seconds"
EXPIRIES = ("decision_timed_out", "clock_restarted")  # a clock taken late restarts instead
Client = AsyncTestClient[Any]


async def lateness(client: Client) -> dict[str, float]:
    """The histogram's samples: `count`, `sum`, and each bucket by its `le`."""
    r = await client.get("/v1/metrics")
    assert r.status_code == 200
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(r.text):
        if family.name == FAMILY:
            assert family.type == "histogram"
            for s in family.samples:
                key = s.labels["le"] if s.name.endswith("_bucket") else s.name.split("_")[-1]
                found[key] = s.value
    return found


async def counted_expiry(client: Client, expiries: Callable[[], Awaitable[int]]
                         ) -> dict[str, float]:
    until = time.monotonic() + 30
    while (found := await lateness(client)).get("count", 0) < 1:
        assert time.monotonic() < until, f"no expiry counted: {found}"
        await asyncio.sleep(0.2)
    assert 1 <= found["count"] <= await expiries()  # counted once each, after its commit
    assert found["+Inf"] == found["count"] and "0.1" in found  # the deploy guide's bound
    assert 0 <= found["sum"] < found["count"] * 30
    return found


async def test_given_the_embedded_default_when_a_clock_runs_out_then_metrics_count_its_lateness(
        tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    await asyncio.to_thread(upgrade, url)
    app = create_app(Settings(database_url=url, scheduler="in_process"),
                     HttpSettings(rate_limit_per_minute=0))
    async with AsyncTestClient(app) as client:
        assert (await lateness(client))["count"] == 0  # exported before the first expiry
        key = (await client.post("/v1/players", json={"name": "away"})).json()["api_key"]
        me = {"Authorization": f"Bearer {key}"}
        created = await client.post("/v1/games", headers=me, json={
            "ruleset": {"players": 2, "end_mode": "quick", "first_player": 0},
            "bots": [{"level": "random"}], "turn_clock": 1})
        game = f"/v1/games/{created.json()['game_id']}"
        assert (await client.post(f"{game}/start", headers=me)).status_code == 200

        async def expiries() -> int:
            page = (await client.get(f"{game}/events", headers=me,
                                     params={"limit": 500})).json()
            return sum(e["event"]["type"] in EXPIRIES for e in page["events"])

        await counted_expiry(client, expiries)


async def test_given_workers_take_the_clocks_then_every_api_process_exports_their_lateness(
        api: Services, workers: Workers, settings: Settings) -> None:
    workers.start()
    game_id = await start_game(api, humans("silent") + bots(1), turn_clock=1, first_player=0,
                               policy=TimeoutPolicy(bot_level="random", hand_over_after=None))

    async def expiries() -> int:
        return sum(e.type in EXPIRIES for e in await api.store.read_events(game_id))

    app = create_app(settings, HttpSettings(rate_limit_per_minute=0))
    async with AsyncTestClient(app) as client:
        await counted_expiry(client, expiries)
