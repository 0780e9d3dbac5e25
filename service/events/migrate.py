"""Run the Alembic migrations from code (`cya db upgrade`, tests), and tell whether a
database's schema is the one this code needs (API readiness, a worker's start)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

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
    current = MigrationContext.configure(conn).get_current_revision()
    if current == head:
        return None
    if current is not None and current not in {s.revision for s in scripts.walk_revisions()}:
        return None
    return f"schema at revision {current or 'none'}, this code needs {head}: run `cya db upgrade`"


async def schema_behind_of(engine: AsyncEngine) -> str | None:
    """`schema_behind` of the engine's database (raises when it cannot be reached)."""
    async with engine.connect() as conn:
        return await conn.run_sync(schema_behind)
