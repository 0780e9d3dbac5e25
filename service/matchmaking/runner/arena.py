"""The standing bot arena (`CYA_BOT_ARENA_PLAYERS`): every bot account that opted in is sought
for, in rated games of the arena's size, whenever it neither waits nor plays an arena game.
The ordinary pairing then matches them (`Matchmaker.tick` runs both), and the bots play their
games as any game of theirs (`cya-bot --accept` plays every game it is seated in).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from service.events.event_store import EventStore
from service.matchmaking.runner import rows
from service.matchmaking.seeks import Kind, Seek, SeekStatus
from service.players.directory import arena_bot_ids
from service.projections.games import unfinished_of
from service.projections.leaderboard import ratings_of
from service.projections.ratings import family_of, ordinal

ARENA_EDITION, ARENA_RANGE = "en_2022", 1_000.0  # the arena pairs every bot with any other


async def seek_for_arena(store: EventStore, players: int) -> int:
    """A rated seek for each opted-in bot that neither waits nor plays an arena game; how
    many. One process at a time (a lock), so no bot gets two seeks."""
    kind = Kind(players, ARENA_EDITION, True)
    now = datetime.now(UTC)
    family = family_of(kind.players)
    made = 0
    async with store.write() as conn:
        await rows.lock(conn, "cya:arena")
        bots = await arena_bot_ids(conn)
        latest = await rows.latest_seeks(conn, bots)
        playing = await unfinished_of(conn, [s.game_id for s in latest.values()
                                             if s.game_id is not None])
        for player_id in bots:
            last = latest.get(player_id)
            if last is not None and (last.status == SeekStatus.WAITING or (
                    last.status == SeekStatus.MATCHED
                    and (last.game_id is None or last.game_id in playing))):
                continue
            ratings = await ratings_of(conn, f"player:{player_id}")
            rating = next((ordinal(r.mu, r.sigma) for r in ratings if r.family == family), 0.0)
            seek = Seek(uuid.uuid4().hex, player_id, kind, rating, ARENA_RANGE, now)
            await rows.insert_seek(conn, seek, "arena")
            made += 1
    return made
