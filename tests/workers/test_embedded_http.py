"""At the default settings (SQLite, no Redis) a person playing through the API sees the bots
play: the API process itself takes their moves."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from litestar.testing import AsyncTestClient

from service.events.migrate import upgrade
from service.http.api_settings import HttpSettings
from service.http.app import create_app
from service.wiring.settings import Settings


async def test_given_the_embedded_default_when_a_human_plays_three_bots_then_the_game_ends(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    await asyncio.to_thread(upgrade, url)
    app = create_app(Settings(database_url=url, scheduler="in_process"),
                     HttpSettings(rate_limit_per_minute=0))
    rng = random.Random(2)
    async with AsyncTestClient(app) as client:
        key = (await client.post("/v1/players", json={"name": "me"})).json()["api_key"]
        me = {"Authorization": f"Bearer {key}"}
        created = await client.post("/v1/games", headers=me, json={
            "ruleset": {"players": 4, "end_mode": "quick"},
            "bots": [{"level": "random"}, {"level": "greedy"}, {"level": "random"}]})
        game = f"/v1/games/{created.json()['game_id']}"
        assert (await client.post(f"{game}/start", headers=me)).status_code == 200

        bot_moves_seen, deadline = 0, time.monotonic() + 60
        while (view := (await client.get(f"{game}/view", headers=me)).json())["status"] != \
                "finished":
            assert time.monotonic() < deadline, "the game stalled"
            if view["awaiting"] != [view["seat"]]:
                bot_moves_seen += 1
                await asyncio.sleep(0.01)  # the bots' turn: nobody but the API process acts
                continue
            legal = (await client.get(f"{game}/legal-commands", headers=me)).json()["commands"]
            await client.post(f"{game}/commands", headers=me, json=rng.choice(legal))

    assert bot_moves_seen > 0


async def test_given_a_silent_player_on_a_clock_then_the_history_says_why_bots_moved_for_them(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    await asyncio.to_thread(upgrade, url)
    app = create_app(Settings(database_url=url, scheduler="in_process"),
                     HttpSettings(rate_limit_per_minute=0))
    async with AsyncTestClient(app) as client:
        key = (await client.post("/v1/players", json={"name": "away"})).json()["api_key"]
        me = {"Authorization": f"Bearer {key}"}
        created = await client.post("/v1/games", headers=me, json={
            "ruleset": {"players": 2, "end_mode": "quick", "first_player": 0},
            "bots": [{"level": "greedy"}], "turn_clock": 1,
            "timeout_policy": {"bot_level": "greedy", "hand_over_after": 1}})
        game = f"/v1/games/{created.json()['game_id']}"
        assert (await client.post(f"{game}/start", headers=me)).status_code == 200

        deadline = time.monotonic() + 30
        while (await client.get(f"{game}/view", headers=me)).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the game stalled"
            await asyncio.sleep(0.1)
        page = (await client.get(f"{game}/events", headers=me,
                                 params={"limit": 500})).json()

    events = {e["event"]["type"]: e["event"] for e in page["events"]}
    assert "1-second turn clock" in events["decision_timed_out"]["reason"]
    assert events["seat_handed_to_bot"] == {
        "type": "seat_handed_to_bot", "seat": 0, "player_id": events["decision_timed_out"][
            "player_id"], "level": "greedy",
        "reason": "1 consecutive timeouts (the game hands a seat over after 1)"}
