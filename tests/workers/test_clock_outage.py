"""An outage of ours does not cost a player a decision (issue 31, fault 4): with the database
away past a turn clock's deadline, the player's command gets 503 and no worker can time the
decision out; once the database returns, the clock starts over (`clock_restarted`) instead of
expiring, and the player's command is taken. Production's shape: an API process and two
workers, all reaching PostgreSQL through a proxy the test cuts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from service.wiring.settings import Settings
from tests.processes import ApiProcess, running_apis
from tests.tcp_proxy import TcpProxy, tcp_proxy

from .conftest import Workers, worker_env
from .test_replicas import _player

TURN_CLOCK_S = 2
OUTAGE_S = TURN_CLOCK_S + 4.0


@pytest.fixture
def database_proxy(settings: Settings) -> Iterator[TcpProxy]:
    parts = urlsplit(settings.database_url)
    with tcp_proxy(parts.hostname or "127.0.0.1", parts.port or 5432) as proxy:
        yield proxy


@pytest.fixture
def proxied(settings: Settings, database_proxy: TcpProxy) -> Settings:
    """The test's settings with PostgreSQL reached through the proxy."""
    return replace(settings, database_url=database_proxy.url(
        "postgresql+asyncpg", urlsplit(settings.database_url).path))


@pytest.fixture
def api_and_workers(proxied: Settings, tmp_path: Path) -> Iterator[ApiProcess]:
    workers = Workers(proxied, tmp_path)
    env = {**worker_env(proxied), "CYA_RATE_LIMIT_PER_MINUTE": "0"}
    try:
        workers.start()
        workers.start()
        with running_apis(env, tmp_path) as apis:
            yield apis[0]
    finally:
        workers.stop_all()


async def events_of(client: httpx.AsyncClient, game_id: str, seat: dict[str, str]
                    ) -> list[dict]:  # type: ignore[type-arg]
    r = await client.get(f"/v1/games/{game_id}/events", headers=seat, params={"limit": 500})
    assert r.status_code == 200, r.text
    return [e["event"] for e in r.json()["events"]]


async def test_given_the_database_away_past_a_deadline_then_the_clock_restarts_for_the_player(
    api_and_workers: ApiProcess, database_proxy: TcpProxy,
) -> None:
    async with httpx.AsyncClient(base_url=api_and_workers.url, timeout=30) as client:
        ann, bob = await _player(client, "ann"), await _player(client, "bob")
        created = await client.post("/v1/games", headers=ann, json={
            "ruleset": {"players": 2, "end_mode": "quick", "first_player": 0},
            "turn_clock": TURN_CLOCK_S})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        path = f"/v1/games/{game_id}"
        assert (await client.post(f"{path}/seats", headers=bob)).status_code == 200
        assert (await client.post(f"{path}/start", headers=ann)).status_code == 200
        command = (await client.get(f"{path}/legal-commands", headers=ann)).json()["commands"][0]

        # Given the database away for longer than ann's turn clock
        database_proxy.cut()
        t0 = time.monotonic()
        refused = await client.post(f"{path}/commands", headers=ann, json=command)
        assert refused.status_code == 503, refused.text
        await asyncio.sleep(OUTAGE_S - (time.monotonic() - t0))
        database_proxy.restore()

        # When the service can act again, its clock starts over rather than expiring
        ended = time.monotonic() + 15  # the sweeper hands the failed expiry out again
        while not any(e["type"] == "clock_restarted"
                      for e in await events_of(client, game_id, ann)):
            assert time.monotonic() < ended, "no clock_restarted within 15 s of the return"
            await asyncio.sleep(0.2)


        # Then ann's command, posted after the restart, is taken
        turn = (await client.get(f"{path}/turn", headers=ann)).json()
        assert turn["awaiting"] == [0] and turn["deadline"] is not None
        taken = await client.post(f"{path}/commands", headers=ann,
                                  json=turn["legal_commands"][0])
        assert taken.status_code == 200, taken.text
        events = await events_of(client, game_id, ann)
        restart = next(e for e in events if e["type"] == "clock_restarted")
        assert restart["seat"] == 0 and restart["late_s"] >= 2.0
        assert not [e for e in events if e["type"] == "decision_timed_out"]
