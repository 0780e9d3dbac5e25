"""A delivering job holds the messages it sends under a lease (`CYA_WEBHOOKS_LEASE_S`), so
that no other job sends them meanwhile; it stops sending before its lease runs out, so a slow
receiver never gets a message twice, or out of order, because the lease ran out under a job
still at work. (A job killed mid-delivery: `test_on_workers.py`.)"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from . import bots
from .conftest import HOOKS, service
from .servers import Answer, Receiver, player, serving, wait_for
from .test_bot_endpoints import bot_game
from .test_event_webhooks import subscribe


async def slow(headers: dict[str, str], body: bytes) -> Answer:
    await asyncio.sleep(0.3)
    return 200, b""


def test_given_a_slow_receiver_and_a_short_lease_then_no_message_is_sent_twice(
        tmp_path: Path) -> None:
    # Messages pile up behind the slow receiver (the bot plays a commit in milliseconds): a
    # batch of them takes longer than the 2 s lease, and the sweep looks every 0.5 s.
    receiver = Receiver(slow)
    hooks = replace(HOOKS, lease_s=2.0, total_timeout_s=1.0)
    with serving(Receiver(bots.plays_well)) as bot_url, serving(receiver) as url, \
            contextmanager(service)(tmp_path, hooks) as api:
        bot = player(api, "piled-up")
        assert bot.post("/v1/webhooks/bot", {"url": bot_url}).status_code == 201
        subscribe(bot, url, ["events"])
        bot_game(bot)
        wait_for(lambda: len(receiver.received) >= 20, timeout=60)

    ids = [r.headers["webhook-id"] for r in receiver.received]
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    versions = [json.loads(r.body)["version"] for r in receiver.received]
    assert versions == sorted(versions)
