"""The rows of `due_work` whose time has passed: what a sweeper hands out again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from service.store.event_store import EventStore, as_utc
from service.store.tables import due_work


async def overdue_rows(
    store: EventStore, grace_s: float, limit: int = 1000
) -> list[dict[str, Any]]:
    """Rows due more than `grace_s` ago: their job should have run by now."""
    cutoff = datetime.now(UTC) - timedelta(seconds=grace_s)
    async with store.read() as conn:
        rows = (await conn.execute(
            sa.select(due_work).where(due_work.c.due_at <= cutoff)
            .order_by(due_work.c.due_at).limit(limit)
        )).mappings().all()
    return [{**row, "due_at": as_utc(row["due_at"])} for row in rows]
