"""The event messages a commit owes are written in the commit's own transaction, on every
backend (PostgreSQL: the group writer's statement): a process that dies right after a commit,
before any after-commit hook runs, loses none of them; the sweep delivers them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
import sqlalchemy as sa

from service.events.records import VersionConflict
from service.events.tables import webhook_messages
from service.pipeline import Pipeline
from service.pipeline.hooks import CommitHooks
from service.webhooks import subscriptions
from service.webhooks.settings import WebhookSettings
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings
from tests.webhooks.servers import Receiver, serving
from tests.webhooks.test_event_webhooks import takes_all

from .scenarios import next_move, play, started_game


@pytest.fixture
async def hooked(settings: Settings) -> AsyncIterator[Services]:
    s = build(replace(settings, webhooks=WebhookSettings(allow_private=True)))
    try:
        yield s
    finally:
        await s.close()


async def owed(services: Services, sub_id: str) -> list[tuple[int, str]]:
    m = webhook_messages.c
    async with services.store.read() as conn:
        rows = await conn.execute(sa.select(m.version, m.type).where(
            m.subscription_id == sub_id).order_by(m.version, m.seq))
        return [(r.version, r.type) for r in rows]


async def test_given_a_process_that_dies_after_its_commits_then_their_messages_are_still_sent(
    hooked: Services,
) -> None:
    p = hooked.pipeline
    game_id = await started_game(p, humans=2)
    receiver = Receiver(takes_all)
    with serving(receiver) as url:
        sub = await subscriptions.create(hooked.store, "p0", url, ["events", "your_turn"])
        hooked.webhooks.forget()  # made through this process: seen at the next commit
        # The same process's outbox, with no listener: no after-commit hook starts a delivery,
        # as if the process died after each commit.
        p = Pipeline(hooked.store, cache=p.cache, hooks=CommitHooks(outbox=hooked.webhooks))

        outcome = await play(p, game_id, 3)
        assert outcome is not None

        messages = await owed(hooked, sub.subscription_id)
        versions = sorted({v for v, _ in messages})  # each commit's last version
        assert len(versions) == 3 and versions[-1] == outcome.version
        assert receiver.received == []  # nothing started their delivery

        assert await hooked.webhooks.sweep(grace_s=0) == 1  # a restarted process's sweep
        for _ in range(600):  # the deliveries run on this event loop: wait without blocking it
            if len(receiver.received) >= len(messages):
                break
            await asyncio.sleep(0.05)
    assert len(receiver.received) == len(messages)


async def test_given_a_refused_commit_then_it_owes_no_message(hooked: Services) -> None:
    p = hooked.pipeline
    game_id = await started_game(p, humans=2)
    sub = await subscriptions.create(hooked.store, "p0", "http://127.0.0.1:9/", ["events"])
    hooked.webhooks.forget()
    version, seat, command = await next_move(p, game_id)
    before = await owed(hooked, sub.subscription_id)

    with pytest.raises(VersionConflict):
        await p.play(game_id, seat, command, expected_version=version - 1)

    assert await owed(hooked, sub.subscription_id) == before
