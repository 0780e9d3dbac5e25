"""One contract suite, every backend: each test gets a fresh, migrated database of its own.

PostgreSQL: the migrations run once into a template database named for this run; each test
clones it (`CREATE DATABASE … TEMPLATE`) and drops its clone, so parallel runs never meet.
SQLite: the migrated file is copied per test. Every test runs with the state cache on and off.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from service.events.migrate import upgrade
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings
from tests.postgres import database, url_of


@dataclass(frozen=True)
class Backend:
    name: str
    template: str  # a migrated database to clone


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Backend:
    path = tmp_path_factory.mktemp("sqlite") / "template.sqlite3"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return Backend("sqlite", str(path))


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[Backend]:
    with database("cya_test") as name:
        yield Backend("postgres", name)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        template: Backend = request.getfixturevalue("sqlite_template")
        path = tmp_path / "test.sqlite3"
        shutil.copyfile(template.template, path)
        yield f"sqlite+aiosqlite:///{path}"
        return
    template = request.getfixturevalue("postgres_template")
    with database("cya_test", template=template.template) as name:
        yield url_of(name)


@pytest.fixture
def postgres_url(postgres_template: Backend) -> Iterator[str]:
    """For what only PostgreSQL does (its group writer)."""
    with database("cya_test", template=postgres_template.template) as name:
        yield url_of(name)


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
