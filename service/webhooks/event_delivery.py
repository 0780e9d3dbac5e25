"""Deliver a subscription's messages of one game, in order: the head of the queue, signed;
on success the next; on failure the message is due again after the next wait of the retry
schedule, and the job stops (nothing later of that game may overtake it)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from service.scheduling.job_names import DELIVER_EVENTS
from service.webhooks import outbox, subscriptions
from service.webhooks.deliveries import Deliveries
from service.webhooks.outbound import Answer
from service.webhooks.signing import signed_headers


def retry_in_s(attempts: int, schedule: Sequence[float]) -> float | None:
    """After a message's `attempts`-th failed attempt: the wait before the next, or None when
    the schedule is spent."""
    return schedule[attempts - 1] if attempts <= len(schedule) else None


def queue_key(subscription_id: str, game_id: str) -> str:
    return f"{subscription_id}-{game_id}"


async def deliver_events(ctx: Deliveries, subscription_id: str, game_id: str) -> int:
    """How many messages it delivered."""
    async with ctx.store.read() as conn:
        sub = await subscriptions.get(conn, subscription_id)
    if sub is None or not sub.enabled:
        return 0
    sent = 0
    s = ctx.settings
    while True:
        head = await outbox.claim_head(ctx.store, subscription_id, game_id, s.lease_s)
        if not head.messages:
            if head.later is not None:
                wait = max((head.later - datetime.now(UTC)).total_seconds(), 0.0)
                await ctx.runner.run(DELIVER_EVENTS, (subscription_id, game_id),
                                     delay_s=wait, key=queue_key(subscription_id, game_id))
            return sent
        done: list[tuple[outbox.Message, Answer]] = []
        failure: outbox.Failure | None = None
        assert head.lease_until is not None
        for message in head.messages:  # in order; a failure stops the rest
            left = (head.lease_until - datetime.now(UTC)).total_seconds()
            if done and left < s.total_timeout_s:  # never send past the lease: another job
                break  # may take the rest then; these go back, and are claimed again
            body = message.payload.encode()
            now = datetime.now(UTC)
            answer = await ctx.outbound.post(sub.url, body, signed_headers(
                sub.signing_secrets(now), message.message_id, body, now))
            if not answer.ok:
                failure = outbox.Failure(message, answer, retry_in_s(
                    message.attempts + 1, s.retry_schedule_s))
                break
            done.append((message, answer))
        unsent = list(head.messages[len(done) + (failure is not None):])
        enabled = await outbox.settle(ctx.store, subscription_id, done, failure, unsent)
        sent += len(done)
        if failure is not None:
            if enabled and failure.retry_in_s is not None:
                await ctx.runner.run(DELIVER_EVENTS, (subscription_id, game_id),
                                     delay_s=failure.retry_in_s,
                                     key=queue_key(subscription_id, game_id))
            return sent
