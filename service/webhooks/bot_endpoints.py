"""Players' bot endpoints and the record of every decision POSTed to them.

A player has at most one bot endpoint. While it is registered, every seat the player holds is
played by the endpoint: each decision of such a seat is POSTed to it (`bot_decisions.py`).
Deleting the endpoint gives the seats back to whoever holds the player's key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.event_store import EventStore
from service.events.tables import bot_attempts, bot_endpoints
from service.webhooks.signing import new_secret, rotated, signing_secrets


@dataclass(frozen=True)
class BotEndpoint:
    player_id: str
    url: str
    secret: str
    created_at: datetime
    secret_rotated_at: datetime
    previous_secret: str | None = None  # still signing beside `secret` until then
    previous_secret_until: datetime | None = None

    def signing_secrets(self, at: datetime) -> tuple[str, ...]:
        return signing_secrets(self.secret, self.previous_secret, self.previous_secret_until,
                               at)


@dataclass(frozen=True)
class BotAttempt:
    """One POST of a decision, or the verdict on its answer."""

    player_id: str
    game_id: str
    version: int
    seat: int
    message_id: str
    outcome: str
    status_code: int | None
    latency_ms: float
    error: str | None
    at: datetime
    attempt_id: int = 0


def _endpoint(row: Any) -> BotEndpoint:
    until = row.previous_secret_until
    return BotEndpoint(row.player_id, row.url, row.secret, row.created_at,
                       row.secret_rotated_at, row.previous_secret,
                       None if until is None else until)


async def register(store: EventStore, player_id: str, url: str) -> BotEndpoint:
    """The player's endpoint, new or replacing its old one, with a fresh secret."""
    now = datetime.now(UTC)
    endpoint = BotEndpoint(player_id, url, new_secret(), now, now)
    async with store.write() as conn:
        await conn.execute(sa.delete(bot_endpoints).where(bot_endpoints.c.player_id == player_id))
        await conn.execute(sa.insert(bot_endpoints).values(
            player_id=player_id, url=url, secret=endpoint.secret, created_at=now,
            secret_rotated_at=now))
    return endpoint


async def endpoint_of(conn: AsyncConnection, player_id: str) -> BotEndpoint | None:
    row = (await conn.execute(sa.select(bot_endpoints).where(
        bot_endpoints.c.player_id == player_id))).first()
    return None if row is None else _endpoint(row)


async def rotate(store: EventStore, player_id: str, overlap_s: float) -> BotEndpoint | None:
    """A new secret; the old one still signs beside it for `overlap_s`."""
    now = datetime.now(UTC)
    async with store.write() as conn:
        done = await conn.execute(sa.update(bot_endpoints).where(
            bot_endpoints.c.player_id == player_id).values(
            secret_rotated_at=now, **rotated(bot_endpoints, overlap_s, now)))
        return await endpoint_of(conn, player_id) if done.rowcount else None


async def delete(store: EventStore, player_id: str) -> bool:
    async with store.write() as conn:
        done = await conn.execute(sa.delete(bot_endpoints).where(
            bot_endpoints.c.player_id == player_id))
    return bool(done.rowcount)


async def players_with_endpoints(conn: AsyncConnection) -> set[str]:
    return set((await conn.execute(sa.select(bot_endpoints.c.player_id))).scalars())


async def record(store: EventStore, attempt: BotAttempt) -> None:
    async with store.write() as conn:
        await conn.execute(sa.insert(bot_attempts).values(
            player_id=attempt.player_id, game_id=attempt.game_id, version=attempt.version,
            seat=attempt.seat, message_id=attempt.message_id, outcome=attempt.outcome,
            status_code=attempt.status_code, latency_ms=attempt.latency_ms,
            error=attempt.error, at=attempt.at))


async def attempts_of(conn: AsyncConnection, player_id: str, *, game_id: str | None = None,
                      before: int | None = None, limit: int = 50) -> list[BotAttempt]:
    """Newest first; `before`: an attempt id, for the next page."""
    query = sa.select(bot_attempts).where(bot_attempts.c.player_id == player_id)
    if game_id is not None:
        query = query.where(bot_attempts.c.game_id == game_id)
    if before is not None:
        query = query.where(bot_attempts.c.attempt_id < before)
    rows = (await conn.execute(query.order_by(bot_attempts.c.attempt_id.desc()).limit(limit)))
    return [BotAttempt(r.player_id, r.game_id, r.version, r.seat, r.message_id, r.outcome,
                       r.status_code, r.latency_ms, r.error, r.at, r.attempt_id)
            for r in rows]
