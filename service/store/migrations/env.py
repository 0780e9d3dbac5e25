"""Alembic environment: runs migrations on the async engine for CYA_DATABASE_URL (or the URL
set on the config by `service.store.migrate`)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from service.store.engine import create_engine
from service.store.tables import metadata
from service.wiring.settings import get_settings

config = context.config


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or get_settings().database_url


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
