"""The outbox of event messages: written in the commit that owes them, delivered per
(subscription, game) in (version, seq) order, one at a time. A delivering job leases the head
of its queue, so two jobs never send the same game's messages at once, and a message is only
the head once every earlier one is delivered."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.event_store import EventStore
from service.events.tables import webhook_attempts, webhook_messages, webhook_subscriptions
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
                   r.payload, r.created_at,
                   None if r.delivered_at is None else r.delivered_at, r.attempts,
                   r.next_attempt_at)


def message_id(subscription_id: str, game_id: str, version: int, kind: str) -> str:
    return f"msg_{subscription_id}_{game_id}_{version}_{kind}"


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
    """What a delivering job finds at the head of its queue: the messages it now holds (the
    head and those after it that are due, in order), the time the head is due (`later`), or
    nothing to do (empty, or another job holds the head)."""

    messages: tuple[Message, ...] = ()
    later: datetime | None = None
    lease_until: datetime | None = None  # when the job's hold on `messages` ends


async def claim_head(store: EventStore, subscription_id: str, game_id: str, lease_s: float,
                     batch: int = 50) -> Head:
    """Lease the head of the queue and up to `batch` − 1 due messages after it. The rows are
    locked while they are looked at (PostgreSQL: FOR UPDATE; SQLite serializes writers), so a
    second job finds the lease and leaves them. A head whose lease ran out was held by a job
    that never settled it (its worker killed mid-delivery): that attempt is recorded."""
    m = webhook_messages.c
    now = datetime.now(UTC)
    async with store.write() as conn:
        rows = (await conn.execute(
            sa.select(webhook_messages).where(*_queue(subscription_id, game_id))
            .order_by(m.version, m.seq).limit(batch).with_for_update())).all()
        if not rows or (rows[0].lease_until is not None and rows[0].lease_until >= now):
            return Head()
        if rows[0].lease_until is not None:
            await conn.execute(sa.insert(webhook_attempts).values(
                _interrupted(_message(rows[0]), rows[0].lease_until, now)))
            await conn.execute(sa.update(webhook_messages).where(
                *_these([_message(rows[0])])).values(lease_until=None))
        if rows[0].next_attempt_at > now:
            return Head(later=rows[0].next_attempt_at)
        taken: list[Message] = []
        for r in rows:  # the run from the head that is due and held by nobody
            if r.next_attempt_at > now or (
                    r.lease_until is not None and r.lease_until >= now):
                break
            taken.append(_message(r))
        await conn.execute(sa.update(webhook_messages).where(*_these(taken)).values(
            lease_until=now + timedelta(seconds=lease_s)))
    return Head(tuple(taken), lease_until=now + timedelta(seconds=lease_s))


def _these(messages: list[Message]) -> tuple[sa.ColumnElement[bool], ...]:
    """The rows of `messages` (at least one, all of one game's queue), found by their key
    (game first)."""
    m = webhook_messages.c
    return (m.game_id == messages[0].game_id,
            m.message_id.in_([x.message_id for x in messages]))


def _interrupted(message: Message, lease_until: datetime, now: datetime) -> dict[str, Any]:
    """The attempt of a job that stopped before it recorded an answer: it may have been
    delivered (receivers drop the repeat by its `webhook-id`)."""
    return {"message_id": message.message_id, "subscription_id": message.subscription_id,
            "ok": False, "status_code": None, "latency_ms": 0.0, "at": now,
            "error": "interrupted: the worker delivering it stopped (killed, or cut off from "
                     "the database) before it recorded an answer, so it may have arrived; "
                     f"its lease ran out at {lease_until.isoformat(timespec='seconds')}"}


def _attempt_row(message: Message, answer: Answer, now: datetime) -> dict[str, Any]:
    return {"message_id": message.message_id, "subscription_id": message.subscription_id,
            "ok": answer.ok, "status_code": answer.status,
            "latency_ms": round(answer.latency_ms, 3), "error": answer.error, "at": now}


@dataclass(frozen=True)
class Failure:
    message: Message
    answer: Answer
    retry_in_s: float | None  # None: it failed the retry schedule's last attempt


async def settle(store: EventStore, subscription_id: str,
                 sent: list[tuple[Message, Answer]], failure: Failure | None,
                 unsent: list[Message]) -> bool:
    """One batch's outcome in one transaction: the delivered messages, the one that failed
    (due again in `retry_in_s`), the leases of those not tried given back. Whether the
    subscription is still enabled (a message that failed its last attempt disables it)."""
    now = datetime.now(UTC)
    m, s = webhook_messages.c, webhook_subscriptions.c
    this = s.subscription_id == subscription_id
    tried = [x for x, _ in sent] + ([failure.message] if failure else [])
    async with store.write() as conn:
        if sent:
            await conn.execute(sa.update(webhook_messages).where(
                *_these([x for x, _ in sent])).values(
                delivered_at=now, attempts=m.attempts + 1, lease_until=None))
            await conn.execute(sa.update(webhook_subscriptions).where(
                this, s.failures != 0).values(failures=0))
        if tried:
            await conn.execute(sa.insert(webhook_attempts), [
                _attempt_row(x, a, now) for x, a in
                [*sent, *([(failure.message, failure.answer)] if failure else [])]])
        if unsent:
            await conn.execute(sa.update(webhook_messages).where(
                *_these(unsent)).values(lease_until=None))
        if failure is None:
            return True
        await conn.execute(sa.update(webhook_messages).where(
            *_these([failure.message])).values(
            attempts=m.attempts + 1, lease_until=None,
            next_attempt_at=now + timedelta(seconds=failure.retry_in_s or 0.0)))
        await conn.execute(sa.update(webhook_subscriptions).where(this).values(
            failures=s.failures + 1))
        if failure.retry_in_s is None:
            first = failure.message.created_at
            await conn.execute(sa.update(webhook_subscriptions).where(this, s.enabled).values(
                enabled=False, disabled_reason=(
                    f"{failure.message.message_id} failed all "
                    f"{failure.message.attempts + 1} attempts of the retry schedule over "
                    f"{_span(now - first)}; the last: {failure.answer.error}")))
        enabled = (await conn.execute(sa.select(s.enabled).where(this))).scalar()
    return bool(enabled)


def _span(t: timedelta) -> str:
    seconds = t.total_seconds()
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds:.1f} s"


async def redeliver(store: EventStore, subscription_id: str, message_id: str) -> str | None:
    """The message owed again (after those before it in its game that still wait), with the
    whole retry schedule before it: its game, or None for no such message."""
    m = webhook_messages.c
    async with store.write() as conn:
        game_id = (await conn.execute(
            sa.update(webhook_messages)
            .where(m.message_id == message_id, m.subscription_id == subscription_id)
            .values(delivered_at=None, next_attempt_at=datetime.now(UTC), lease_until=None,
                    attempts=0)
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
                r.at))
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
