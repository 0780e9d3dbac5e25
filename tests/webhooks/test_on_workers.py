"""As deployed: PostgreSQL, Redis, the API process and a `cya worker` process. The API only
enqueues; the worker POSTs each decision to the bot and each message to the receiver."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest

from service.http.api_settings import HttpSettings
from service.http.app import create_app
from service.wiring.settings import Settings
from tests.workers.conftest import Workers

from . import bots
from .conftest import HOOKS
from .servers import Answer, Receiver, player, serving, wait_for
from .test_bot_endpoints import attempts_of, bot_game, events_of, finished
from .test_event_webhooks import deliveries, subscribe, takes_all


@pytest.fixture
def deployed(settings: Settings, workers: Workers, monkeypatch: pytest.MonkeyPatch
             ) -> Iterator[httpx.Client]:
    monkeypatch.setenv("CYA_WEBHOOKS_ALLOW_PRIVATE", "1")
    workers.start()
    app = create_app(replace(settings, webhooks=HOOKS), HttpSettings(rate_limit_per_minute=0))
    with serving(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        yield http


def test_given_a_worker_then_a_webhook_bot_plays_and_its_messages_arrive_in_order(
        deployed: httpx.Client) -> None:
    receiver = Receiver(takes_all)
    bot_server = Receiver(bots.plays_well)
    with serving(bot_server) as bot_url, serving(receiver) as url:
        bot = player(deployed, "deployed-bot")
        assert bot.post("/v1/webhooks/bot", {"url": bot_url}).status_code == 201
        subscribe(bot, url, ["game_started", "your_turn", "game_finished"])
        game = bot_game(bot)
        wait_for(lambda: finished(bot, game), timeout=120)
        wait_for(lambda: any(json.loads(r.body)["type"] == "game_finished"
                             for r in receiver.received), timeout=30)

    assert {a["outcome"] for a in attempts_of(bot, game)} == {"accepted"}
    versions = [json.loads(r.body)["version"] for r in receiver.received]
    assert versions == sorted(versions)
    assert len(bot_server.received) == len(attempts_of(bot, game))


def test_given_the_worker_killed_while_it_asks_a_bot_then_the_decision_still_expires(
        deployed: httpx.Client, workers: Workers, monkeypatch: pytest.MonkeyPatch) -> None:
    # The job that asked the bot dies with its worker, and the expiry it would have started
    # with it: the sweeper finds the decision still waiting past its deadline and expires it
    # (without it, the game would wait for RQ to give up on the job: minutes).
    asked: list[float] = []

    with serving(Receiver(bots.hangs(asked))) as url:
        bot = player(deployed, "lost-bot")
        assert bot.post("/v1/webhooks/bot", {"url": url}).status_code == 201
        game = bot_game(bot, timeout_policy={"bot_level": "random", "hand_over_after": 1})
        wait_for(lambda: asked, timeout=30)
        workers.kill_hard(workers.procs[0])
        killed = time.monotonic()
        monkeypatch.setenv("CYA_WEBHOOKS_DECISION_DEADLINE_S", "2.5")  # as the API's HOOKS
        workers.start()
        wait_for(lambda: finished(bot, game), timeout=30)
        took = time.monotonic() - killed

    timed_out = next(e for e in events_of(bot, game) if e["type"] == "decision_timed_out")
    assert "bot endpoint gave no legal answer within 2.5 seconds" in timed_out["reason"]
    assert took < 15  # the deadline, the sweeper's grace and interval, the game's bot moves
    assert len(asked) == 1


@pytest.fixture
def short_leases(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers' lease on the messages they send: 3 s (a 2 s total timeout under it)."""
    monkeypatch.setenv("CYA_WEBHOOKS_LEASE_S", "3")
    monkeypatch.setenv("CYA_WEBHOOKS_TOTAL_TIMEOUT_S", "2")


def test_given_the_worker_killed_while_it_delivers_then_the_message_goes_again_after_the_lease(
        short_leases: None, deployed: httpx.Client, workers: Workers) -> None:
    # The killed job's lease holds the message (and its game's later ones) until it runs out;
    # then the sweeper hands them out again, and the delivery log says what happened.
    arrived: list[tuple[str, float]] = []

    async def hangs_once(headers: dict[str, str], body: bytes) -> Answer:
        arrived.append((headers["webhook-id"], time.monotonic()))
        if len(arrived) == 1:
            await asyncio.sleep(60)
        return 200, b""

    with serving(Receiver(hangs_once)) as url:
        who = player(deployed, "killed-delivery")
        sub = subscribe(who, url, ["game_started", "your_turn"])
        game = who.post("/v1/games", {"ruleset": {"players": 2, "first_player": 0},
                                      "bots": [{"level": "random"}]}).json()["game_id"]
        assert who.post(f"/v1/games/{game}/start").status_code == 200
        wait_for(lambda: arrived, timeout=30)
        workers.kill_hard(workers.procs[0])
        killed = time.monotonic()
        workers.start()
        wait_for(lambda: len(arrived) >= 3, timeout=20)
        log = wait_for(lambda: (found := deliveries(who, sub["subscription_id"])) and all(
            d["delivered_at"] for d in found) and found)  # recorded once the batch is done

    first, again, then = arrived[:3]
    assert first[0] == again[0] != then[0]  # the same message again, then the next, in order
    print(f"sent again {again[1] - killed:.1f} s after the kill, "
          f"{again[1] - first[1]:.1f} s after the first attempt (a 3 s lease)")
    assert again[1] - killed < 3 + 0.5 + 2.0  # the lease, a sweep interval, a worker's start
    head = next(d for d in log if d["message_id"] == first[0])
    interrupted, delivered = head["attempts"]
    assert not interrupted["ok"] and interrupted["error"].startswith("interrupted")
    assert delivered["ok"] and head["delivered_at"]
