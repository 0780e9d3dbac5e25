"""The real app, served by uvicorn on loopback, over a real database of its own.

One server per backend for the session: an SQLite file, and a PostgreSQL database named for
this run (created, migrated, dropped at the end). Tests share a server but never data: each
makes its own players and games.
"""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from typing import Any

import httpx
import pytest
import uvicorn

from service.events.migrate import upgrade
from service.http.api_settings import HttpSettings
from service.http.app import create_app
from service.wiring.settings import Settings
from tests.postgres import database, url_of
from tests.processes import free_port

from .api import Api

TEST_HTTP = HttpSettings(rate_limit_per_minute=100_000, sse_heartbeat_seconds=1,
                         poll_fallback_seconds=0.5)


@dataclass
class Live:
    url: str
    settings: Settings
    server: uvicorn.Server
    thread: threading.Thread


def serve(settings: Settings, http: HttpSettings = TEST_HTTP) -> Live:
    port = free_port()
    config = uvicorn.Config(create_app(settings, http), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.02)
    return Live(f"http://127.0.0.1:{port}", settings, server, thread)


def stop(live: Live) -> None:
    live.server.should_exit = True
    live.thread.join(10)


def serve_sqlite(tmp_path_factory: pytest.TempPathFactory, folder: str, **settings: Any
                 ) -> Live:
    """A server on a new, migrated SQLite file, with these `Settings`."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp(folder) / 'api.sqlite3'}"
    upgrade(url)
    return serve(Settings(database_url=url, **settings))


@pytest.fixture(scope="session")
def sqlite_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    live = serve_sqlite(tmp_path_factory, "http")
    yield live
    stop(live)


@pytest.fixture(scope="session")
def postgres_live() -> Iterator[Live]:
    with database("cya_http") as name:
        # Views from the projection rows here, from memory on SQLite: both paths under test.
        live = serve(Settings(database_url=url_of(name)),
                     replace(TEST_HTTP, views_from_memory=False))
        yield live
        stop(live)


@pytest.fixture(params=["sqlite", "postgres"])
def live(request: pytest.FixtureRequest) -> Live:
    return request.getfixturevalue(f"{request.param}_live")  # type: ignore[no-any-return]


@pytest.fixture
async def api(live: Live) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as client:
        yield Api(client)
