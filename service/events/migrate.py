"""Run the Alembic migrations from code (`cya db upgrade`, tests), and tell whether a
database's schema is the one this code needs (API readiness, a worker's start)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from service.events.engine import create_engine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Blocking: it runs its own event loop, so call it outside one (or in a thread)."""
    command.upgrade(alembic_config(database_url), revision)


@cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory(str(MIGRATIONS))


def head_revision() -> str:
    """The newest migration: the schema this code needs."""
    head = _scripts().get_current_head()
    assert head is not None
    return head


def schema_behind(conn: Connection) -> str | None:
    """Why the database's schema is older than this code needs (no schema at all, or a
    revision before the newest), or None. A revision this code does not know is newer: a
    rolled-back release may serve it, since migrations only add."""
    scripts, head = _scripts(), head_revision()
    current = current_revision(conn)
    if current == head:
        return None
    if current is not None and current not in {s.revision for s in scripts.walk_revisions()}:
        return None
    return f"schema at revision {current or 'none'}, this code needs {head}: run `cya db upgrade`"


def current_revision(conn: Connection) -> str | None:
    """The database's migration revision (None before the first), read from Alembic's table
    itself: `MigrationContext` logs two INFO lines each time, and readiness asks every few
    seconds."""
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


async def revision_of(database_url: str) -> str | None:
    engine = create_engine(database_url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(current_revision)
    finally:
        await engine.dispose()


async def schema_behind_of(engine: AsyncEngine) -> str | None:
    """`schema_behind` of the engine's database (raises when it cannot be reached)."""
    async with engine.connect() as conn:
        return await conn.run_sync(schema_behind)
