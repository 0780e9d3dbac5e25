"""Event webhook subscriptions: a player's URL, the event types it hears of the player's
games, its secret, and whether it is enabled (sustained failure disables it; its owner
enables it again)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.event_store import EventStore
from service.events.tables import webhook_messages, webhook_subscriptions
from service.webhooks.signing import new_secret, rotated, signing_secrets

# The types of message a subscription may ask for (`outbox.messages_of_commit`).
EVENT_TYPES: Final = ("seated", "game_started", "your_turn", "game_finished", "events")
MAX_PER_PLAYER = 10


@dataclass(frozen=True)
class Subscription:
    subscription_id: str
    player_id: str
    url: str
    secret: str
    event_types: tuple[str, ...]
    enabled: bool
    failures: int
    disabled_reason: str | None
    created_at: datetime
    previous_secret: str | None = None  # still signing beside `secret` until then
    previous_secret_until: datetime | None = None

    def signing_secrets(self, at: datetime) -> tuple[str, ...]:
        return signing_secrets(self.secret, self.previous_secret, self.previous_secret_until,
                               at)


def _subscription(row: Any) -> Subscription:
    types = row.event_types
    if isinstance(types, str):
        types = msgspec.json.decode(types)
    until = row.previous_secret_until
    return Subscription(row.subscription_id, row.player_id, row.url, row.secret, tuple(types),
                        row.enabled, row.failures, row.disabled_reason, row.created_at,
                        row.previous_secret, None if until is None else until)


class TooMany(Exception):
    """The player has `MAX_PER_PLAYER` subscriptions already."""


async def create(store: EventStore, player_id: str, url: str, event_types: list[str]
                 ) -> Subscription:
    now = datetime.now(UTC)
    sub = Subscription("sub_" + secrets.token_hex(12), player_id, url, new_secret(),
                       tuple(dict.fromkeys(event_types)), True, 0, None, now)
    async with store.write() as conn:
        count = (await conn.execute(sa.select(sa.func.count()).where(
            webhook_subscriptions.c.player_id == player_id))).scalar_one()
        if count >= MAX_PER_PLAYER:
            raise TooMany(player_id)
        await conn.execute(sa.insert(webhook_subscriptions).values(
            subscription_id=sub.subscription_id, player_id=player_id, url=url,
            secret=sub.secret, event_types=msgspec.json.encode(list(sub.event_types)).decode(),
            enabled=True, failures=0, disabled_reason=None, created_at=now))
    return sub


async def of_player(conn: AsyncConnection, player_id: str) -> list[Subscription]:
    rows = await conn.execute(sa.select(webhook_subscriptions).where(
        webhook_subscriptions.c.player_id == player_id).order_by(
        webhook_subscriptions.c.created_at))
    return [_subscription(r) for r in rows]


async def get(conn: AsyncConnection, subscription_id: str) -> Subscription | None:
    row = (await conn.execute(sa.select(webhook_subscriptions).where(
        webhook_subscriptions.c.subscription_id == subscription_id))).first()
    return None if row is None else _subscription(row)


async def enabled(conn: AsyncConnection) -> list[Subscription]:
    rows = await conn.execute(sa.select(webhook_subscriptions).where(
        webhook_subscriptions.c.enabled))
    return [_subscription(r) for r in rows]


async def rotate(store: EventStore, subscription_id: str, overlap_s: float
                 ) -> Subscription | None:
    """A new secret; the old one still signs beside it for `overlap_s`."""
    async with store.write() as conn:
        await conn.execute(sa.update(webhook_subscriptions).where(
            webhook_subscriptions.c.subscription_id == subscription_id).values(
            **rotated(webhook_subscriptions, overlap_s, datetime.now(UTC))))
        return await get(conn, subscription_id)


async def enable(store: EventStore, subscription_id: str) -> list[str]:
    """Enabled again, its failures forgotten and its waiting messages due now, each with the
    whole retry schedule before it: the games whose messages wait."""
    now = datetime.now(UTC)
    async with store.write() as conn:
        await conn.execute(sa.update(webhook_subscriptions).where(
            webhook_subscriptions.c.subscription_id == subscription_id).values(
            enabled=True, failures=0, disabled_reason=None))
        waiting = webhook_messages.c.subscription_id == subscription_id, \
            webhook_messages.c.delivered_at.is_(None)
        await conn.execute(sa.update(webhook_messages).where(*waiting).values(
            next_attempt_at=now, lease_until=None, attempts=0))
        return list((await conn.execute(sa.select(webhook_messages.c.game_id).where(
            *waiting).distinct())).scalars())


async def delete(store: EventStore, subscription_id: str) -> None:
    async with store.write() as conn:
        await conn.execute(sa.delete(webhook_messages).where(
            webhook_messages.c.subscription_id == subscription_id))
        await conn.execute(sa.delete(webhook_subscriptions).where(
            webhook_subscriptions.c.subscription_id == subscription_id))
