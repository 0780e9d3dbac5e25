"""As deployed: PostgreSQL, Redis, the API process and a `cya worker` process. The API only
enqueues; the worker POSTs each decision to the bot and each message to the receiver."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest

from service.http.app import create_app
from service.http.settings import HttpSettings
from service.wiring.settings import Settings
from tests.workers.conftest import Workers

from . import bots
from .conftest import HOOKS
from .servers import Receiver, player, serving, wait_for
from .test_bot_endpoints import attempts_of, bot_game, finished
from .test_event_webhooks import subscribe, takes_all


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
