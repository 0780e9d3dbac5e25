"""Due work read back: the rows whose time has passed, which a sweeper hands out again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from service.events.event_store import EventStore
from service.events.tables import due_work
from service.table.clock import DueWork


async def overdue(store: EventStore, grace_s: float, limit: int = 1000) -> list[DueWork]:
    """Work due more than `grace_s` ago, oldest first: its job should have run by now."""
    cutoff = datetime.now(UTC) - timedelta(seconds=grace_s)
    async with store.read() as conn:
        rows = (await conn.execute(
            sa.select(due_work).where(due_work.c.due_at <= cutoff)
            .order_by(due_work.c.due_at).limit(limit)
        )).all()
    return [DueWork(r.game_id, r.version, r.kind, r.seat, r.due_at) for r in rows]
