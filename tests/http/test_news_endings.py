"""How a game ended, in a player's news (issue 36, defect 6): `game_finished` says whether the
game finished, was abandoned or expired, and why; a rated game's end says its ratings are
pending, and the game's summary says when they are counted. The same news is pushed to event
webhooks. Real servers on loopback; short limits stand in for the defaults (24 h, 7 days)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from cya_client import Client
from cya_client.bot.runner import GameResult, Plan, Runner
from sqlalchemy.ext.asyncio import create_async_engine

from service.events.tables import rating_changes
from service.webhooks.settings import WebhookSettings
from tests.webhooks.servers import Receiver, serving

from .api import Api, Player
from .conftest import Live, serve_sqlite, stop
from .contract_check import DOCUMENT, errors

NEWS = DOCUMENT["paths"]["/v1/players/me/events"]["get"]["responses"]["200"]["content"][
    "application/x-ndjson"]["schema"]


@pytest.fixture(scope="module")
def idle_limits(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """A server that ends a lobby not started within 1 s, and a game nobody plays for 1 s."""
    live = serve_sqlite(tmp_path_factory, "endings", scheduler="in_process",
                        sweep_interval_s=0.2, lobby_ttl_s=1.0, abandon_after_s=1.0,
                        webhooks=WebhookSettings(allow_private=True,
                                                 retry_schedule_s=(0.1, 0.2, 0.4, 0.8)))
    yield live
    stop(live)


@pytest.fixture
async def idle_api(idle_limits: Live) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(base_url=idle_limits.url, timeout=30) as client:
        yield Api(client)


async def _game_finished(api: Api, who: Player, game_id: str, timeout: float = 20
                         ) -> dict[str, Any]:
    """The `game_finished` news of `game_id`, from the player's NDJSON stream, each line held
    against the contract."""
    async def read() -> dict[str, Any]:
        async with api.http.stream("GET", "/v1/players/me/events", headers=who.auth) as r:
            assert r.status_code == 200
            async for line in r.aiter_lines():
                if not line.strip():
                    continue
                news = json.loads(line)
                assert not errors(NEWS, news), errors(NEWS, news)
                if news["type"] == "game_finished" and news["game_id"] == game_id:
                    return dict(news)
        raise AssertionError("the stream ended")

    return await asyncio.wait_for(read(), timeout)


async def _summary(api: Api, who: Player, game_id: str) -> dict[str, Any]:
    r = await api.get(who, f"/v1/games/{game_id}")
    assert r.status_code == 200, r.text
    return dict(r.json()["summary"])


async def test_given_a_lobby_nobody_starts_then_its_seat_hears_it_expired_and_why(idle_api):
    ann = await idle_api.player("ann")
    game_id = await idle_api.game(ann, [], start=False, ruleset={"players": 2})

    news = await _game_finished(idle_api, ann, game_id)

    assert news["status"] == "expired" and "not started within" in news["reason"]
    assert news["winners"] == [] and news["ratings"] == "none"
    assert (await _summary(idle_api, ann, game_id))["status"] == "expired"


async def test_given_a_game_nobody_plays_on_then_its_seats_and_webhooks_hear_it_abandoned(
        idle_api):
    receiver = Receiver(_takes_all)
    with serving(receiver) as url:
        ann, bob = await idle_api.player("ann"), await idle_api.player("bob")
        r = await idle_api.post(bob, "/v1/webhooks/subscriptions",
                                {"url": url, "event_types": ["game_finished"]})
        assert r.status_code == 201, r.text
        game_id = await idle_api.game(ann, [bob], rated=True)

        heard = await asyncio.gather(*(_game_finished(idle_api, p, game_id) for p in (ann, bob)))
        pushed = await _pushed(receiver, game_id)

    for news in [*heard, pushed]:
        assert news["status"] == "abandoned" and "no human acted" in news["reason"]
        assert news["winners"] == []
        assert news["ratings"] == "none"  # rated, but ratings leave out a game without result
    assert {n["seat"] for n in heard} == {0, 1} and pushed["seat"] == heard[1]["seat"]
    summary = await _summary(idle_api, ann, game_id)
    assert summary["rated"] and summary["ratings"] == "none"
    assert summary["rating_changes"] is None


async def test_given_a_bot_playing_by_turns_when_its_game_is_abandoned_then_it_stops(
        idle_api, idle_limits):
    ann, bob = await idle_api.player("ann"), await idle_api.player("bob")
    game_id = await idle_api.game(ann, [bob], ruleset={"players": 2, "first_player": 0})
    seat = (await idle_api.get(ann, f"/v1/games/{game_id}/view")).json()["seat"]
    # ann's bot plays her decisions by `GET /turn`; bob never plays his
    results: list[GameResult] = []
    with Client(idle_limits.url, api_key=ann.key) as cya:
        runner = Runner(cya, lambda view, legal: legal[0], Plan())
        playing = threading.Thread(target=lambda: results.append(
            runner.play_by_turns(game_id, seat)), daemon=True)
        playing.start()
        await asyncio.to_thread(playing.join, 20)
    playing.join(5)  # a loop still asking for turns fails once its client is closed

    assert len(results) == 1, "the bot went on asking for turns of a game that is over"
    assert results[0].game_id == game_id and results[0].winners == [] and not results[0].won


async def test_given_a_rated_game_finishes_then_its_news_says_ratings_pending_then_counted(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob], rated=True)
    seats = await api.seats(game_id, [ann, bob])
    hearing = asyncio.create_task(_game_finished(api, bob, game_id, timeout=60))
    await asyncio.sleep(0.3)  # the stream is open

    await api.play_out(game_id, seats, random.Random(7))
    news = await hearing

    assert news["status"] == "finished" and news["reason"] is None and news["winners"]
    assert news["ratings"] == "pending"  # told before the count: a client knows they come
    summary = await _until_counted(api, ann, game_id)
    assert len(summary["rating_changes"]) == 2


async def test_given_a_rated_game_not_counted_yet_then_its_summary_says_pending(api, live):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob], rated=True)
    await api.play_out(game_id, await api.seats(game_id, [ann, bob]), random.Random(8))
    await _until_counted(api, ann, game_id)

    await _uncount(live, game_id)  # as it stands between the game's end and its count

    summary = await _summary(api, ann, game_id)
    assert summary["status"] == "finished" and summary["rated"]
    assert summary["ratings"] == "pending" and summary["rating_changes"] is None


async def test_given_an_unrated_game_finishes_then_its_ratings_are_none(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    seats = await api.seats(game_id, [ann, bob])
    hearing = asyncio.create_task(_game_finished(api, ann, game_id, timeout=60))
    await asyncio.sleep(0.3)

    await api.play_out(game_id, seats, random.Random(9))

    assert (await hearing)["ratings"] == "none"
    assert (await _summary(api, ann, game_id))["ratings"] == "none"


async def _takes_all(headers: dict[str, str], body: bytes) -> tuple[int, bytes]:
    return 204, b""


async def _pushed(receiver: Receiver, game_id: str, timeout: float = 20) -> dict[str, Any]:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        for r in receiver.received:
            body = json.loads(r.body)
            if body["type"] == "game_finished" and body["game_id"] == game_id:
                return dict(body)
        await asyncio.sleep(0.05)
    raise AssertionError("no game_finished webhook")


async def _until_counted(api: Api, who: Player, game_id: str) -> dict[str, Any]:
    until = time.monotonic() + 10
    while (summary := await _summary(api, who, game_id))["ratings"] != "counted":
        assert summary["ratings"] == "pending" and summary["rating_changes"] is None
        assert time.monotonic() < until, "never counted"
        await asyncio.sleep(0.05)
    return summary


async def _uncount(live: Live, game_id: str) -> None:
    engine = create_async_engine(live.settings.database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.delete(rating_changes).where(
                rating_changes.c.game_id == game_id))
    finally:
        await engine.dispose()
