"""A rotated secret keeps signing beside the new one for an overlap
(`CYA_WEBHOOKS_SECRET_OVERLAP_S`): a receiver verifying with the `standardwebhooks` package
accepts a request with its old secret or its new one during the overlap, and only with the
new one after it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from . import bots
from .conftest import HOOKS, service
from .servers import Received, Receiver, player, serving, wait_for
from .test_bot_endpoints import bot_game, finished
from .test_event_webhooks import subscribe, takes_all

OVERLAP_S = 2.0


@pytest.fixture
def overlapping(tmp_path: Path) -> Iterator[httpx.Client]:
    with contextmanager(service)(tmp_path, replace(HOOKS, secret_overlap_s=OVERLAP_S)) as api:
        yield api


def verifies(secret: str, request: Received) -> bool:
    try:
        Webhook(secret).verify(request.body, request.headers)
    except WebhookVerificationError:
        return False
    return True


def test_given_a_rotated_subscription_secret_then_both_verify_during_the_overlap_and_then_only_the_new(  # noqa: E501
        overlapping: httpx.Client) -> None:
    receiver = Receiver(takes_all)
    with serving(receiver) as url:
        who = player(overlapping, "rotating")
        sub = subscribe(who, url, ["seated"])
        old = sub["secret"]
        r = who.post(f"/v1/webhooks/subscriptions/{sub['subscription_id']}/rotate")
        assert r.status_code == 200
        rotated, new = time.monotonic(), r.json()["secret"]
        assert new != old

        def seated() -> None:  # a new game seats its creator: one `seated` message
            n = len(receiver.received)
            assert who.post("/v1/games", {"ruleset": {"players": 2}}).status_code == 201
            wait_for(lambda: len(receiver.received) > n)

        seated()
        during = receiver.received[-1]
        assert time.monotonic() - rotated < OVERLAP_S, "too slow to land within the overlap"
        time.sleep(max(rotated + OVERLAP_S + 0.1 - time.monotonic(), 0))
        seated()
        after = receiver.received[-1]

    assert len(during.headers["webhook-signature"].split(" ")) == 2
    assert verifies(old, during) and verifies(new, during)
    assert len(after.headers["webhook-signature"].split(" ")) == 1
    assert verifies(new, after) and not verifies(old, after)


def test_given_a_rotated_bot_secret_then_the_old_one_verifies_its_decisions_during_the_overlap(
        overlapping: httpx.Client) -> None:
    old_bot = Receiver(bots.plays_well)
    with serving(old_bot) as url:
        bot = player(overlapping, "rotating-bot")
        old = bot.post("/v1/webhooks/bot", {"url": url}).json()["secret"]
        new = bot.post("/v1/webhooks/bot/rotate").json()["secret"]
        ends = time.monotonic() + OVERLAP_S - 0.1  # (`Received.at`: when it was answered)
        game = bot_game(bot)
        wait_for(lambda: finished(bot, game))

    in_overlap = [r for r in old_bot.received if r.at < ends]
    assert in_overlap and all(verifies(old, r) and verifies(new, r) for r in in_overlap)
    assert all(verifies(new, r) for r in old_bot.received)


def test_given_no_overlap_then_the_old_secret_stops_at_once(tmp_path: Path) -> None:
    receiver = Receiver(takes_all)
    with serving(receiver) as url, contextmanager(service)(
            tmp_path, replace(HOOKS, secret_overlap_s=0)) as api:
        who = player(api, "abrupt")
        sub = subscribe(who, url, ["seated"])
        new = who.post(f"/v1/webhooks/subscriptions/{sub['subscription_id']}/rotate").json()
        assert who.post("/v1/games", {"ruleset": {"players": 2}}).status_code == 201
        wait_for(lambda: receiver.received)
    assert verifies(new["secret"], receiver.received[0])
    assert not verifies(sub["secret"], receiver.received[0])
