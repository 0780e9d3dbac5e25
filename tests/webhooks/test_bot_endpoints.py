"""Bots on webhooks, with real bot servers on loopback: the service POSTs each decision of
the seat to the bot's endpoint and plays the command it answers."""

from __future__ import annotations

import contextlib
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from standardwebhooks.webhooks import Webhook

from . import bots
from .conftest import service
from .servers import Client, Receiver, player, serving, wait_for


def bot_game(bot: Client, **extra: Any) -> str:
    """A 2-player game: the bot player in seat 0 (it moves first), a built-in bot in seat 1."""
    r = bot.post("/v1/games", {"ruleset": {"players": 2, "end_mode": "quick",
                                           "first_player": 0},
                               "bots": [{"level": "random"}], **extra})
    assert r.status_code == 201, r.text
    game = r.json()["game_id"]
    assert bot.post(f"/v1/games/{game}/start").status_code == 200
    return game


def finished(bot: Client, game: str) -> dict[str, Any] | None:
    view = bot.get(f"/v1/games/{game}/view").json()
    return view if view["status"] == "finished" else None


def events_of(bot: Client, game: str) -> list[dict[str, Any]]:
    page = bot.get(f"/v1/games/{game}/events", params={"limit": 500}).json()
    return [e["event"] for e in page["events"]]


def attempts_of(bot: Client, game: str) -> list[dict[str, Any]]:
    r = bot.get("/v1/webhooks/bot/attempts", params={"game_id": game, "limit": 200})
    assert r.status_code == 200, r.text
    return list(reversed(r.json()["attempts"]))


def test_given_a_bot_that_plays_well_when_its_game_runs_then_every_decision_is_its_own(
        api: httpx.Client) -> None:
    receiver = Receiver(bots.plays_well)
    with serving(receiver) as url:
        bot = player(api, "webhook-bot")
        r = bot.post("/v1/webhooks/bot", {"url": url})
        assert r.status_code == 201, r.text
        assert r.json()["secret"].startswith("whsec_")
        assert "secret" not in bot.get("/v1/webhooks/bot").json()
        game = bot_game(bot)
        wait_for(lambda: finished(bot, game))

    attempts = attempts_of(bot, game)
    assert attempts and {a["outcome"] for a in attempts} == {"accepted"}
    # Every command of seat 0 came through the endpoint: none timed out, none by a bot.
    assert not [e for e in events_of(bot, game) if e["type"] == "decision_timed_out"]
    turn = receiver.received[0]
    assert {"webhook-id", "webhook-timestamp", "webhook-signature"} <= set(turn.headers)
    payload = httpx.Response(200, content=turn.body).json()
    assert set(payload) == {"game_id", "version", "status", "seat", "awaiting", "deadline",
                            "view", "legal_commands"}
    assert payload["seat"] == 0 and payload["awaiting"] == [0]
    assert len(receiver.received) == len(attempts)
    assert all(a["latency_ms"] > 0 and a["status_code"] == 200 for a in attempts)


def test_given_a_bot_slower_than_the_deadline_then_its_answers_are_late_and_the_policy_plays(
        api: httpx.Client) -> None:
    with serving(Receiver(bots.slow(6.0))) as url:  # the default deadline is 2.5 s here
        bot = player(api, "slow-bot")
        assert bot.post("/v1/webhooks/bot", {"url": url}).status_code == 201
        game = bot_game(bot, timeout_policy={"bot_level": "greedy", "hand_over_after": 2})
        wait_for(lambda: finished(bot, game), timeout=90)

    attempts = attempts_of(bot, game)
    assert attempts[:2] and {a["outcome"] for a in attempts[:2]} == {"late"}
    assert "no answer within" in attempts[0]["error"]
    events = events_of(bot, game)
    timed_out = [e for e in events if e["type"] == "decision_timed_out"]
    assert len(timed_out) == 2
    assert "bot endpoint gave no legal answer within 2.5 seconds" in timed_out[0]["reason"]
    assert [e for e in events if e["type"] == "seat_handed_to_bot"]


def test_given_a_bot_that_answers_500_on_a_clock_then_it_is_retried_and_the_clock_expires(
        api: httpx.Client) -> None:
    receiver = Receiver(bots.fails)
    with serving(receiver) as url:
        bot = player(api, "failing-bot")
        assert bot.post("/v1/webhooks/bot", {"url": url}).status_code == 201
        game = bot_game(bot, turn_clock=1,
                        timeout_policy={"bot_level": "greedy", "hand_over_after": 1})
        wait_for(lambda: finished(bot, game), timeout=60)

    attempts = [a for a in attempts_of(bot, game) if a["version"] == attempts_of(
        bot, game)[0]["version"]]
    assert len(attempts) >= 2  # a 5xx is tried again within the deadline
    assert {(a["outcome"], a["status_code"]) for a in attempts} == {("http_error", 500)}
    timed_out = [e for e in events_of(bot, game) if e["type"] == "decision_timed_out"]
    assert len(timed_out) == 1 and "1-second turn clock" in timed_out[0]["reason"]


def test_given_a_bot_that_answers_nonsense_then_each_answer_is_recorded_as_illegal(
        api: httpx.Client) -> None:
    with serving(Receiver(bots.answers_nonsense)) as url:
        bot = player(api, "confused-bot")
        assert bot.post("/v1/webhooks/bot", {"url": url}).status_code == 201
        game = bot_game(bot, timeout_policy={"bot_level": "random", "hand_over_after": 1})
        wait_for(lambda: finished(bot, game), timeout=60)

    first = attempts_of(bot, game)[0]
    assert first["outcome"] == "illegal" and first["status_code"] == 200
    assert "not a command" in first["error"]
    assert [e for e in events_of(bot, game) if e["type"] == "seat_handed_to_bot"]


def test_given_a_bot_that_checks_signatures_then_it_plays_and_refuses_a_forged_request(
        api: httpx.Client) -> None:
    verifying = bots.Verifying()
    receiver = Receiver(verifying)
    with serving(receiver) as url:
        bot = player(api, "careful-bot")
        r = bot.post("/v1/webhooks/bot", {"url": url})
        verifying.secret = r.json()["secret"]
        game = bot_game(bot)
        wait_for(lambda: finished(bot, game))
        assert not verifying.refused
        # A forger without the secret: signed with another one.
        body = receiver.received[0].body
        forged = Webhook("whsec_" + "Zm9yZ2VkLXNlY3JldC1mb3JnZWQtc2Vj").sign(
            "msg_forged", datetime.now(UTC), body.decode())
        answer = httpx.post(url, content=body, headers={
            "webhook-id": "msg_forged", "webhook-signature": forged,
            "webhook-timestamp": receiver.received[0].headers["webhook-timestamp"]})
        assert answer.status_code == 401
        # Secrets the bot was not told of: its deliveries are refused too. (One rotation
        # keeps the old secret signing for an overlap; a second one ends that overlap.)
        assert bot.post("/v1/webhooks/bot/rotate").status_code == 200
        assert bot.post("/v1/webhooks/bot/rotate").status_code == 200
        game = bot_game(bot, timeout_policy={"bot_level": "random", "hand_over_after": 1})
        wait_for(lambda: finished(bot, game))
    assert attempts_of(bot, game)[0]["status_code"] == 401
    assert len(verifying.refused) >= 2


def test_given_an_endpoint_when_deleted_then_it_is_gone_and_a_second_delete_is_404(
        api: httpx.Client) -> None:
    bot = player(api, "retired-bot")
    assert bot.delete("/v1/webhooks/bot").status_code == 404
    with serving(Receiver(bots.plays_well)) as url:
        assert bot.post("/v1/webhooks/bot", {"url": url}).status_code == 201
    assert bot.delete("/v1/webhooks/bot").status_code == 204
    assert bot.get("/v1/webhooks/bot").json()["code"] == "bot_endpoint_not_found"
    assert bot.delete("/v1/webhooks/bot").status_code == 404


def test_given_the_embedded_service_restarted_while_it_asks_a_bot_then_the_decision_expires(
        tmp_path: Path) -> None:
    # The in-process job that asked the bot, and the expiry it would have started, end with
    # the process; the restarted process's sweep finds the decision waiting past its deadline.
    asked: list[float] = []

    with serving(Receiver(bots.hangs(asked))) as url:
        first = service(tmp_path)
        bot = player(next(first), "lost-bot")
        assert bot.post("/v1/webhooks/bot", {"url": url}).status_code == 201
        game = bot_game(bot, timeout_policy={"bot_level": "random", "hand_over_after": 1})
        wait_for(lambda: asked, timeout=30)
        first.close()  # the server stops, and its tasks with it
        restarted = time.monotonic()
        with contextlib.closing(service(tmp_path)) as again:
            bot = replace(bot, http=next(again))
            wait_for(lambda: finished(bot, game), timeout=30)
            took = time.monotonic() - restarted
            timed_out = next(e for e in events_of(bot, game)
                             if e["type"] == "decision_timed_out")

    assert "bot endpoint gave no legal answer within 2.5 seconds" in timed_out["reason"]
    assert took < 10  # the deadline, the sweep's interval, then the game's bot moves
    assert len(asked) == 1
