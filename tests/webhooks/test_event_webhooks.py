"""Event webhooks with a real receiver on loopback: signed, at least once, in order per game,
retried with backoff, disabled after sustained failure and enabled again, redelivered."""

from __future__ import annotations

import itertools
import json
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from standardwebhooks.webhooks import Webhook

from service.webhooks.settings import WebhookSettings

from . import bots
from .conftest import HOOKS, service
from .servers import Answer, Client, Received, Receiver, player, serving, wait_for
from .test_bot_endpoints import bot_game, events_of, finished

ALL = ["seated", "game_started", "your_turn", "game_finished", "events"]


async def takes_all(headers: dict[str, str], body: bytes) -> Answer:
    return 204, b""


def subscribe(who: Client, url: str, types: list[str] = ALL) -> dict[str, Any]:
    r = who.post("/v1/webhooks/subscriptions", {"url": url, "event_types": types})
    assert r.status_code == 201, r.text
    return dict(r.json())


def payloads(received: list[Received], ok_only: bool = True) -> list[dict[str, Any]]:
    return [json.loads(r.body) for r in received if not ok_only or r.status < 300]


def deliveries(who: Client, sub: str, **params: Any) -> list[dict[str, Any]]:
    r = who.get(f"/v1/webhooks/subscriptions/{sub}/deliveries",
                params={"limit": 200, **params})
    assert r.status_code == 200, r.text
    return list(r.json()["deliveries"])


def test_given_a_subscription_when_a_game_is_played_then_its_messages_arrive_signed_in_order(
        api: httpx.Client) -> None:
    receiver = Receiver(takes_all)
    with serving(Receiver(bots.plays_well)) as bot_url, serving(receiver) as url:
        bot = player(api, "listened")
        assert bot.post("/v1/webhooks/bot", {"url": bot_url}).status_code == 201
        sub = subscribe(bot, url)
        game = bot_game(bot)
        wait_for(lambda: finished(bot, game))
        wait_for(lambda: any(p["type"] == "game_finished" for p in payloads(receiver.received)))

    got = payloads(receiver.received)
    for r in receiver.received:  # each one signed with the subscription's secret
        Webhook(sub["secret"]).verify(r.body, r.headers)
    versions = [p["version"] for p in got]
    assert versions == sorted(versions)
    types = [p["type"] for p in got]
    assert types[0] == "events" and "game_started" in types and "your_turn" in types
    assert types[-1] == "game_finished"
    assert all(p["seat"] == 0 for p in got)
    # The `events` messages are the player's own event pages, redacted alike: never
    # another hand.
    sent = [e["event"] for p in got if p["type"] == "events" for e in p["events"]]
    assert sent == events_of(bot, game)
    turns = [p["turn"] for p in got if p["type"] == "your_turn"]
    assert all(t["awaiting"] == [0] and t["legal_commands"] for t in turns)
    log = deliveries(bot, sub["subscription_id"], game_id=game)
    assert len(log) == len(got) and all(d["delivered_at"] for d in log)


def test_given_a_receiver_that_fails_at_first_then_messages_are_retried_with_backoff_in_order(
        api: httpx.Client) -> None:
    calls = {"n": 0}

    async def flaky(headers: dict[str, str], body: bytes) -> Answer:
        calls["n"] += 1
        return (503, b"") if calls["n"] <= 3 else (200, b"")

    receiver = Receiver(flaky)
    with serving(Receiver(bots.plays_well)) as bot_url, serving(receiver) as url:
        bot = player(api, "patient")
        assert bot.post("/v1/webhooks/bot", {"url": bot_url}).status_code == 201
        sub = subscribe(bot, url, ["game_started", "game_finished"])
        game = bot_game(bot)
        wait_for(lambda: finished(bot, game))
        wait_for(lambda: [p for p in payloads(receiver.received)
                          if p["type"] == "game_finished"])

    first = receiver.received[:4]
    assert [r.status for r in first] == [503, 503, 503, 200]
    assert len({r.headers["webhook-id"] for r in first}) == 1  # one message, four attempts
    gaps = [b.at - a.at for a, b in itertools.pairwise(first)]
    assert gaps[0] >= 0.09 and gaps[1] >= 0.18 and gaps[2] >= 0.36  # the retry schedule
    assert [p["type"] for p in payloads(receiver.received)] == ["game_started",
                                                                "game_finished"]
    started = deliveries(bot, sub["subscription_id"])[-1]
    assert [a["ok"] for a in started["attempts"]] == [False, False, False, True]
    assert started["attempts"][0]["status_code"] == 503


def test_given_sustained_failure_then_the_subscription_is_disabled_until_its_owner_enables_it(
        api: httpx.Client) -> None:
    state = {"up": False}

    async def down_then_up(headers: dict[str, str], body: bytes) -> Answer:
        return (200, b"") if state["up"] else (500, b"")

    receiver = Receiver(down_then_up)
    with serving(Receiver(bots.plays_well)) as bot_url, serving(receiver) as url:
        bot = player(api, "forgotten")
        assert bot.post("/v1/webhooks/bot", {"url": bot_url}).status_code == 201
        sub = subscribe(bot, url, ["game_started", "your_turn", "game_finished"])
        path = f"/v1/webhooks/subscriptions/{sub['subscription_id']}"
        game = bot_game(bot)
        disabled = wait_for(lambda: (s := bot.get(path).json())["enabled"] is False and s)
        assert disabled["failures"] == 4
        assert "failed all 4 attempts of the retry schedule" in disabled["disabled_reason"]
        wait_for(lambda: finished(bot, game))
        tried = len(receiver.received)
        assert tried == 4  # disabled: nothing more is sent

        # While disabled, no messages are owed; those owed before wait.
        owed = deliveries(bot, sub["subscription_id"])
        assert owed and not any(d["delivered_at"] for d in owed)

        state["up"] = True
        r = bot.post(f"{path}/enable")
        assert r.status_code == 200 and r.json()["enabled"] is True
        wait_for(lambda: len(payloads(receiver.received)) == len(owed))

    got = payloads(receiver.received)
    assert got[0]["type"] == "game_started"  # the message that failed, first
    versions = [p["version"] for p in got]
    assert versions == sorted(versions)
    assert all(d["delivered_at"] for d in deliveries(bot, sub["subscription_id"]))


def test_given_a_receiver_that_stays_down_then_it_is_tried_on_the_schedule_before_disabling(
        tmp_path: Path) -> None:
    # The schedule is a setting: here 0.3 s, then 0.9 s (Svix's by default, 27.6 hours).
    receiver = Receiver(down)
    with serving(receiver) as url, contextmanager(service)(
            tmp_path, replace(HOOKS, retry_schedule_s=(0.3, 0.9))) as api:
        owner = player(api, "down")
        sub = subscribe(owner, url, ["game_started", "your_turn"])
        path = f"/v1/webhooks/subscriptions/{sub['subscription_id']}"
        game = owner.post("/v1/games", {"ruleset": {"players": 2},
                                        "bots": [{"level": "random"}]}).json()["game_id"]
        assert owner.post(f"/v1/games/{game}/start").status_code == 200
        disabled = wait_for(lambda: (s := owner.get(path).json())["enabled"] is False and s)
        time.sleep(1.0)  # nothing more is tried once it is disabled
        log = deliveries(owner, sub["subscription_id"])

    assert len(receiver.received) == 3  # the first attempt and the schedule's two retries
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
    gaps = [b.at - a.at for a, b in itertools.pairwise(receiver.received)]
    assert 0.3 <= gaps[0] < 0.8 and 0.9 <= gaps[1] < 1.6, gaps
    assert "failed all 3 attempts" in disabled["disabled_reason"]
    head = next(d for d in log if d["message_id"] == receiver.received[0].headers["webhook-id"])
    assert [a["status_code"] for a in head["attempts"]] == [500, 500, 500]


def test_given_the_default_schedule_then_a_receiver_has_more_than_a_day_to_come_back() -> None:
    schedule = WebhookSettings().retry_schedule_s
    assert schedule == (5, 300, 1800, 7200, 18_000, 36_000, 36_000)  # Svix's
    assert sum(schedule) > 27 * 3600


async def down(headers: dict[str, str], body: bytes) -> Answer:
    return 500, b""


def test_given_a_delivered_message_when_redelivered_then_it_arrives_again_with_its_id(
        api: httpx.Client) -> None:
    receiver = Receiver(takes_all)
    with serving(Receiver(bots.plays_well)) as bot_url, serving(receiver) as url:
        bot = player(api, "forgetful")
        assert bot.post("/v1/webhooks/bot", {"url": bot_url}).status_code == 201
        sub = subscribe(bot, url, ["game_finished"])
        game = bot_game(bot)
        wait_for(lambda: finished(bot, game))
        wait_for(lambda: receiver.received)
        message = deliveries(bot, sub["subscription_id"])[0]
        path = f"/v1/webhooks/subscriptions/{sub['subscription_id']}/deliveries"
        r = bot.post(f"{path}/{message['message_id']}/redeliver")
        assert r.status_code == 202 and r.json()["game_id"] == game
        wait_for(lambda: len(receiver.received) == 2)
        assert bot.post(f"{path}/msg_nothing/redeliver").json()["code"] == "message_not_found"

    first, again = receiver.received
    assert first.body == again.body
    assert first.headers["webhook-id"] == again.headers["webhook-id"] == message["message_id"]
    assert len(deliveries(bot, sub["subscription_id"])[0]["attempts"]) == 2


def test_given_another_players_subscription_then_it_is_not_found(api: httpx.Client) -> None:
    with serving(Receiver(takes_all)) as url:
        owner, other = player(api, "owner"), player(api, "other")
        sub = subscribe(owner, url)
    path = f"/v1/webhooks/subscriptions/{sub['subscription_id']}"
    assert other.get(path).json()["code"] == "subscription_not_found"
    assert other.delete(path).status_code == 404
    assert [s["subscription_id"] for s in owner.get("/v1/webhooks/subscriptions").json()[
        "subscriptions"]] == [sub["subscription_id"]]
    assert owner.delete(path).status_code == 204
    assert owner.get(path).status_code == 404
