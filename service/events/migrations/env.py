"""Alembic environment: runs migrations on the async engine for the URL set on the config
(`service.events.migrate.alembic_config`, which `cya db upgrade` and the tests use), or, when
the `alembic` command is run directly, for CYA_DATABASE_URL (`alembic.ini`). It reads the
variable itself, so the store imports nothing from the layers above it.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from service.events.engine import DEFAULT_DATABASE_URL, create_engine
from service.events.tables import metadata

config = context.config


def _url() -> str:
    # Empty counts as unset, as in `service.wiring.settings`.
    return (config.get_main_option("sqlalchemy.url")
            or os.environ.get("CYA_DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL)


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_engine(_url())
    async with engine.connect() as conn:
        await conn.run_sync(_run)
        await conn.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_async())
