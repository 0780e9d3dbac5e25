"""One contract suite, every backend: each test gets a fresh, migrated database of its own.

PostgreSQL: the migrations run once into a template database named for this run; each test
clones it (`CREATE DATABASE … TEMPLATE`) and drops its clone, so parallel runs never meet.
SQLite: the migrated file is copied per test. Every test runs with the state cache on and off.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from service.bootstrap import Services, build
from service.config import Settings
from service.events.migrate import upgrade

PG_ADMIN = os.environ.get("CYA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_HOST = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]


@dataclass(frozen=True)
class Backend:
    name: str
    template: str  # a migrated database to clone


async def _pg(sql: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _pg_available() -> bool:
    try:
        asyncio.run(_pg("SELECT 1"))
    except (OSError, asyncpg.PostgresError):
        return False
    return True


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Backend:
    path = tmp_path_factory.mktemp("sqlite") / "template.sqlite3"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return Backend("sqlite", str(path))


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[Backend]:
    if not _pg_available():
        pytest.skip(f"PostgreSQL is not reachable at {PG_ADMIN}")
    name = f"cya_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    try:
        upgrade(f"postgresql+asyncpg://{PG_HOST}/{name}")
        yield Backend("postgres", name)
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        template: Backend = request.getfixturevalue("sqlite_template")
        path = tmp_path / "test.sqlite3"
        shutil.copyfile(template.template, path)
        yield f"sqlite+aiosqlite:///{path}"
        return
    template = request.getfixturevalue("postgres_template")
    name = f"{template.template}_{uuid.uuid4().hex[:8]}"
    asyncio.run(_pg(f'CREATE DATABASE "{name}" TEMPLATE "{template.template}"'))
    try:
        yield f"postgresql+asyncpg://{PG_HOST}/{name}"
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=[True, False], ids=["cache", "nocache"])
def settings(request: pytest.FixtureRequest, database_url: str) -> Settings:
    return Settings(database_url=database_url, state_cache=request.param)


@pytest.fixture
async def services(settings: Settings) -> AsyncIterator[Services]:
    s = build(settings)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def other_process(settings: Settings) -> AsyncIterator[Services]:
    """A second, independent set of services on the same database: another API process."""
    s = build(settings)
    try:
        yield s
    finally:
        await s.close()
