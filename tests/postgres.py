"""Throwaway PostgreSQL databases for tests: each run and each test gets its own, so parallel
runs never meet. The test command needs the local server (README); without it the tests
that use it fail with a clear message instead of being skipped."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
import pytest

from service.events.migrate import upgrade

PG_ADMIN = os.environ.get("CYA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_HOST = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]


def url_of(name: str) -> str:
    return f"postgresql+asyncpg://{PG_HOST}/{name}"


async def admin(sql: str) -> None:
    """Run one statement as the administrative user (databases, roles)."""
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def database(prefix: str, *, template: str | None = None, revision: str = "head"
             ) -> Iterator[str]:
    """A new database (migrated to `revision`, or a clone of `template`), dropped afterwards."""
    name = f"{template or prefix}_{uuid.uuid4().hex[:12]}"
    clone = f' TEMPLATE "{template}"' if template else ""
    try:
        asyncio.run(admin(f'CREATE DATABASE "{name}"{clone}'))
    except (OSError, asyncpg.PostgresError) as exc:
        pytest.fail(f"PostgreSQL at {PG_ADMIN} is needed by this test: {exc}")
    try:
        if template is None:
            upgrade(url_of(name), revision)
        yield name
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
