"""The SDK against real servers, started as deployed (uvicorn processes):

- `embedded`: one API process on SQLite that takes bot moves and clocks itself
  (`CYA_SCHEDULER=in_process`), at the default rate limit; shared by a module's tests;
- `replicas` (in test_replicas.py): two API processes on PostgreSQL and Redis, with a
  `cya worker`, each test on a database and Redis index of its own (tests/workers/conftest.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cya_client import Client
from cya_client.transport import CountingTransport

from service.events.migrate import upgrade
from tests.processes import running_apis


@dataclass
class Server:
    url: str
    database: Path | None = None


def embedded_env(url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")}
    return {**env, "CYA_DATABASE_URL": url, "CYA_SCHEDULER": "in_process", **extra}


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("sdk-embedded")
    database = folder / "cya.sqlite3"
    upgrade(sqlite_url(database))
    with running_apis(embedded_env(sqlite_url(database)), folder) as apis:
        yield Server(apis[0].url, database)


def player(url: str, name: str, transport: CountingTransport | None = None) -> Client:
    """A client holding a new player's key."""
    client = Client(url, transport=transport)
    client.api_key = client.players.create(name).api_key
    return client
