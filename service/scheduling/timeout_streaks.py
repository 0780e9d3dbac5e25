"""How many times in a row a seat's clock ran out: read from the log, where the facts are."""

from __future__ import annotations

from cya_rules.table.timeouts import DecisionTimedOut
from service.events.event_store import EventStore


async def consecutive_timeouts(store: EventStore, game_id: str, seat: int, player_id: str) -> int:
    """Timeouts of `seat` since its player last decided for themselves. A player's own
    commands carry their actor (the API's `player:<id>`, or the pipeline's `seat:<n>`)."""
    own = (f"player:{player_id}", f"seat:{seat}")
    async with store.read() as conn:  # one snapshot: the last own move and the timeouts after
        last_own = await store.last_version_by(conn, game_id, own)
        timed_out = await store.load_of_type(conn, game_id, "decision_timed_out", last_own)
    return sum(1 for stored in timed_out
               if isinstance(stored.event, DecisionTimedOut) and stored.event.seat == seat)
