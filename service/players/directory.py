"""Players: an identity and the SHA-256 of its bearer API key (the key itself is never stored).

A key is 32 random bytes, so one unsalted SHA-256 is enough: there is nothing to brute-force.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.events.tables import players

KEY_PREFIX = "cya_"


async def arena_bot_ids(conn: AsyncConnection) -> list[str]:
    """The bot accounts that opted in to the standing arena."""
    rows = await conn.scalars(sa.select(players.c.player_id).where(
        players.c.bot, players.c.arena).order_by(players.c.player_id))
    return list(rows.all())


async def names_of(conn: AsyncConnection, player_ids: Iterable[str]) -> dict[str, str]:
    """The display names of these players, by player id (an unknown id is left out)."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    rows = await conn.execute(sa.select(players.c.player_id, players.c.name)
                              .where(players.c.player_id.in_(ids)))
    return {r.player_id: r.name for r in rows}


def key_digest(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    name: str
    created_at: datetime
    bot: bool = False  # a bot account (as Lichess's BOT accounts)
    arena: bool = False  # a bot account in the standing arena


class PlayerDirectory:
    """Creates players and resolves API keys; a found key is remembered (keys never change)."""

    def __init__(self, engine: AsyncEngine, cache_size: int = 100_000) -> None:
        self.engine = engine
        self._by_key: dict[str, Player] = {}
        self._cache_size = cache_size

    async def create(self, name: str, bot: bool = False, arena: bool = False
                     ) -> tuple[Player, str]:
        api_key = KEY_PREFIX + secrets.token_urlsafe(32)
        player = Player(uuid.uuid4().hex, name, datetime.now(UTC), bot or arena, arena)
        async with self.engine.begin() as conn:
            await conn.execute(players.insert().values(
                player_id=player.player_id, name=name, key_sha256=key_digest(api_key),
                created_at=player.created_at, bot=player.bot, arena=arena,
            ))
        self._remember(api_key, player)
        return player, api_key

    def known(self, api_key: str) -> Player | None:
        """The player of a key this process has seen (created or authenticated), without
        asking the database: None may still be a valid key."""
        return self._by_key.get(api_key)

    async def by_key(self, api_key: str) -> Player | None:
        # Hashing every request's key costs more than the rest of a cached view: remember the
        # keys already seen (in this process's memory only; the database holds hashes).
        found = self._by_key.get(api_key)
        if found is not None:
            return found
        digest = key_digest(api_key)
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(players.c.player_id, players.c.name, players.c.created_at,
                          players.c.bot, players.c.arena)
                .where(players.c.key_sha256 == digest)
            )).first()
        if row is None:
            return None
        player = Player(row.player_id, row.name, row.created_at, row.bot, row.arena)
        self._remember(api_key, player)
        return player

    async def by_id(self, player_id: str) -> Player | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(players.c.player_id, players.c.name, players.c.created_at,
                          players.c.bot, players.c.arena)
                .where(players.c.player_id == player_id))).first()
        if row is None:
            return None
        return Player(row.player_id, row.name, row.created_at, row.bot, row.arena)

    def _remember(self, api_key: str, player: Player) -> None:
        if len(self._by_key) < self._cache_size:
            self._by_key[api_key] = player
