"""The outbox of event messages: written after the commit that owes them, delivered per
(subscription, game) in (version, seq) order, one at a time. A delivering job leases the head
of its queue, so two jobs never send the same game's messages at once, and a message is only
the head once every earlier one is delivered."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from service.store.event_store import EventStore
from service.store.records import as_utc
from service.store.tables import webhook_attempts, webhook_messages, webhook_subscriptions
from service.webhooks.outbound import Answer


@dataclass(frozen=True)
class Message:
    message_id: str
    subscription_id: str
    game_id: str
    version: int
    seq: int
    type: str
    payload: str
    created_at: datetime
    delivered_at: datetime | None
    attempts: int
    next_attempt_at: datetime


@dataclass(frozen=True)
class Attempt:
    attempt_id: int
    message_id: str
    ok: bool
    status_code: int | None
    latency_ms: float
    error: str | None
    at: datetime


def _message(r: Any) -> Message:
    return Message(r.message_id, r.subscription_id, r.game_id, r.version, r.seq, r.type,
                   r.payload, as_utc(r.created_at),
                   None if r.delivered_at is None else as_utc(r.delivered_at), r.attempts,
                   as_utc(r.next_attempt_at))


def message_id(subscription_id: str, game_id: str, version: int, kind: str) -> str:
    return f"msg_{subscription_id}_{game_id}_{version}_{kind}"


async def add(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(sa.insert(webhook_messages), rows)


def row(subscription_id: str, game_id: str, version: int, seq: int, kind: str,
        payload: bytes, now: datetime) -> dict[str, Any]:
    return {"message_id": message_id(subscription_id, game_id, version, kind),
            "subscription_id": subscription_id, "game_id": game_id, "version": version,
            "seq": seq, "type": kind, "payload": payload.decode(), "created_at": now,
            "delivered_at": None, "attempts": 0, "next_attempt_at": now, "lease_until": None}


def _queue(subscription_id: str, game_id: str) -> tuple[sa.ColumnElement[bool], ...]:
    m = webhook_messages.c
    return m.subscription_id == subscription_id, m.game_id == game_id, m.delivered_at.is_(None)


@dataclass(frozen=True)
class Head:
    """What a delivering job finds at the head of its queue: a message it now holds, the
    time the head is due (`later`), or nothing to do (empty, or another job holds it)."""

    message: Message | None = None
    later: datetime | None = None


async def claim_head(store: EventStore, subscription_id: str, game_id: str, lease_s: float
                     ) -> Head:
    m = webhook_messages.c
    now = datetime.now(UTC)
    head = (sa.select(m.message_id).where(*_queue(subscription_id, game_id))
            .order_by(m.version, m.seq).limit(1).scalar_subquery())
    async with store.write() as conn:
        claimed = (await conn.execute(
            sa.update(webhook_messages)
            .where(m.message_id == head, m.next_attempt_at <= now,
                   sa.or_(m.lease_until.is_(None), m.lease_until < now))
            .values(lease_until=now + timedelta(seconds=lease_s))
            .returning(*webhook_messages.c))).first()
        if claimed is not None:
            return Head(_message(claimed))
        first = (await conn.execute(sa.select(m.next_attempt_at, m.lease_until).where(
            *_queue(subscription_id, game_id)).order_by(m.version, m.seq).limit(1))).first()
    if first is None or (first.lease_until is not None and as_utc(first.lease_until) >= now):
        return Head()
    return Head(later=as_utc(first.next_attempt_at))


def _attempt_row(message: Message, answer: Answer, now: datetime) -> dict[str, Any]:
    return {"message_id": message.message_id, "subscription_id": message.subscription_id,
            "ok": answer.ok, "status_code": answer.status,
            "latency_ms": round(answer.latency_ms, 3), "error": answer.error, "at": now}


async def delivered(store: EventStore, message: Message, answer: Answer) -> None:
    now = datetime.now(UTC)
    async with store.write() as conn:
        await conn.execute(sa.update(webhook_messages).where(
            webhook_messages.c.message_id == message.message_id).values(
            delivered_at=now, attempts=message.attempts + 1, lease_until=None))
        await conn.execute(sa.insert(webhook_attempts).values(_attempt_row(message, answer, now)))
        await conn.execute(sa.update(webhook_subscriptions).where(
            webhook_subscriptions.c.subscription_id == message.subscription_id,
            webhook_subscriptions.c.failures != 0).values(failures=0))


async def failed(store: EventStore, message: Message, answer: Answer, retry_in_s: float,
                 disable_after: int) -> bool:
    """Recorded, and due again in `retry_in_s`; whether the subscription is still enabled
    (it is disabled at `disable_after` consecutive failures)."""
    now = datetime.now(UTC)
    s = webhook_subscriptions.c
    async with store.write() as conn:
        await conn.execute(sa.update(webhook_messages).where(
            webhook_messages.c.message_id == message.message_id).values(
            attempts=message.attempts + 1, lease_until=None,
            next_attempt_at=now + timedelta(seconds=retry_in_s)))
        await conn.execute(sa.insert(webhook_attempts).values(_attempt_row(message, answer, now)))
        await conn.execute(sa.update(webhook_subscriptions).where(
            s.subscription_id == message.subscription_id).values(failures=s.failures + 1))
        await conn.execute(sa.update(webhook_subscriptions).where(
            s.subscription_id == message.subscription_id, s.enabled,
            s.failures >= disable_after).values(
            enabled=False, disabled_reason=f"{disable_after} consecutive failed deliveries; "
            f"the last: {answer.error}"))
        enabled = (await conn.execute(sa.select(s.enabled).where(
            s.subscription_id == message.subscription_id))).scalar()
    return bool(enabled)


async def redeliver(store: EventStore, subscription_id: str, message_id: str) -> str | None:
    """The message owed again (after those before it in its game that still wait): its
    game, or None for no such message."""
    m = webhook_messages.c
    async with store.write() as conn:
        game_id = (await conn.execute(
            sa.update(webhook_messages)
            .where(m.message_id == message_id, m.subscription_id == subscription_id)
            .values(delivered_at=None, next_attempt_at=datetime.now(UTC), lease_until=None)
            .returning(m.game_id))).scalar()
    return None if game_id is None else str(game_id)


async def log_of(conn: AsyncConnection, subscription_id: str, *, game_id: str | None = None,
                 limit: int = 50) -> list[tuple[Message, list[Attempt]]]:
    """The newest messages, each with its attempts (oldest first)."""
    m = webhook_messages.c
    query = sa.select(webhook_messages).where(m.subscription_id == subscription_id)
    if game_id is not None:
        query = query.where(m.game_id == game_id)
    found = [_message(r) for r in await conn.execute(
        query.order_by(m.created_at.desc(), m.version.desc(), m.seq.desc()).limit(limit))]
    a = webhook_attempts.c
    attempts: dict[str, list[Attempt]] = {}
    if found:
        for r in await conn.execute(sa.select(webhook_attempts).where(
                a.message_id.in_([x.message_id for x in found])).order_by(a.attempt_id)):
            attempts.setdefault(r.message_id, []).append(Attempt(
                r.attempt_id, r.message_id, r.ok, r.status_code, r.latency_ms, r.error,
                as_utc(r.at)))
    return [(x, attempts.get(x.message_id, [])) for x in found]


async def due_queues(store: EventStore, grace_s: float, limit: int = 1000
                     ) -> list[tuple[str, str]]:
    """(subscription, game) of enabled subscriptions whose messages wait past their time by
    more than `grace_s` with no job holding them: their job was lost."""
    m, s = webhook_messages.c, webhook_subscriptions.c
    now = datetime.now(UTC)
    async with store.read() as conn:
        rows = await conn.execute(
            sa.select(m.subscription_id, m.game_id).distinct()
            .join_from(webhook_messages, webhook_subscriptions,
                       m.subscription_id == s.subscription_id)
            .where(s.enabled, m.delivered_at.is_(None),
                   m.next_attempt_at <= now - timedelta(seconds=grace_s),
                   sa.or_(m.lease_until.is_(None), m.lease_until < now)).limit(limit))
        return [(r.subscription_id, r.game_id) for r in rows]
