"""A PostgreSQL restart costs no request once the server is up (issue 31, fault 5): every
pooled connection of an API process is cut at once, as a restart cuts them, and the next
requests (reads from each pool, commands) all succeed on fresh connections."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest

from service.wiring.settings import Settings
from tests.postgres import PG_ADMIN
from tests.processes import ApiProcess, running_apis

from .conftest import worker_env
from .test_long_poll import _two_player_game

REQUESTS = 40


@pytest.fixture
def one_api(settings: Settings, tmp_path: Path) -> Iterator[ApiProcess]:
    env = {**worker_env(settings), "CYA_SCHEDULER": "none", "CYA_RATE_LIMIT_PER_MINUTE": "0"}
    with running_apis(env, tmp_path) as apis:
        yield apis[0]


async def terminate_backends(database: str) -> int:
    """What a restart does to the clients' connections: each backend of `database` ends."""
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        return int(await conn.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = $1 AND pid <> pg_backend_pid()", database))
    finally:
        await conn.close()


async def test_given_pooled_connections_when_the_database_restarts_then_no_request_fails(
    one_api: ApiProcess, settings: Settings,
) -> None:
    database = urlsplit(settings.database_url).path.lstrip("/")
    async with httpx.AsyncClient(base_url=one_api.url, timeout=30) as client:
        game_id, seats = await _two_player_game(client, client)
        path = f"/v1/games/{game_id}"

        async def one_of_each(n: int) -> list[httpx.Response]:
            """A read from each of the process's pools, and a command (the group writers)."""
            answers = list(await asyncio.gather(
                client.get(f"{path}/view", headers=seats[n % 2]),
                client.get(path, headers=seats[0]),
                client.get(f"{path}/events", headers=seats[0]),
            ))
            view = (await client.get(f"{path}/view", headers=seats[0])).json()
            if view["status"] == "playing":
                seat = view["awaiting"][0]
                legal = await client.get(f"{path}/legal-commands", headers=seats[seat])
                answers.append(legal)
                for command in legal.json().get("commands", [])[:1]:  # others race for it
                    answers.append(await client.post(f"{path}/commands", headers=seats[seat],
                                                     json=command))
            return answers

        # Given every pool warm, with several connections each
        for _ in range(3):
            await asyncio.gather(*(one_of_each(n) for n in range(8)))

        # When the database drops every connection, as a restart does
        assert await terminate_backends(database) >= 3
        await asyncio.sleep(0.2)

        # Then not one of the next requests fails
        answers = [r for batch in await asyncio.gather(*(one_of_each(n) for n in range(
            REQUESTS // 4))) for r in batch]
        failed = [(r.request.method, r.request.url.path, r.status_code) for r in answers
                  if r.status_code >= 500]
        assert len(answers) >= REQUESTS
        assert not failed, f"{len(failed)} of {len(answers)} requests failed: {failed[:5]}"
