"""How many times in a row a seat's clock ran out: read from the log, where the facts are."""

from __future__ import annotations

import sqlalchemy as sa

from service.store.event_store import EventStore
from service.store.tables import events
from service.table.timeouts import DecisionTimedOut


async def consecutive_timeouts(store: EventStore, game_id: str, seat: int, player_id: str) -> int:
    """Timeouts of `seat` since its player last decided for themselves. A player's own
    commands carry their actor (the API's `player:<id>`, or the pipeline's `seat:<n>`)."""
    own = (f"player:{player_id}", f"seat:{seat}")
    async with store.read() as conn:
        last_own = await conn.scalar(
            sa.select(sa.func.max(events.c.version))
            .where(events.c.game_id == game_id, events.c.actor.in_(own))
        )
        rows = (await conn.execute(
            sa.select(events.c.type, events.c.schema_version, events.c.data)
            .where(events.c.game_id == game_id, events.c.type == "decision_timed_out",
                   events.c.version > (last_own or 0))
        )).all()
    timed_out = (store.codec.decode(r.type, r.schema_version, r.data) for r in rows)
    return sum(1 for e in timed_out if isinstance(e, DecisionTimedOut) and e.seat == seat)
