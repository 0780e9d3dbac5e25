"""The standing bot arena (`CYA_BOT_ARENA_PLAYERS`): bot accounts that opt in are paired in
rated games with no request of theirs, and not again while that game runs; other bot accounts
never are."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from .api import Api, Player
from .conftest import Live, serve_sqlite, stop


@pytest.fixture(scope="module")
def arena_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    live = serve_sqlite(tmp_path_factory, "arena", bot_arena_players=2, match_tick_s=0.1)
    yield live
    stop(live)


async def _mine(api: Api, who: Player) -> list[dict]:
    return (await api.get(who, "/v1/games", params={"mine": "true"})).json()["games"]


async def test_given_two_arena_bots_then_they_meet_in_rated_games_and_others_never(arena_live):
    async with httpx.AsyncClient(base_url=arena_live.url, timeout=30) as client:
        api = Api(client)
        made = []
        for name, body in (("a", {"arena": True}), ("b", {"arena": True}),
                           ("c", {"bot": True})):
            r = await client.post("/v1/players", json={"name": name, **body})
            assert r.status_code == 201 and r.json()["bot"] is True
            made.append(Player(r.json()["player_id"], r.json()["api_key"]))
        a, b, c = made
        assert (await api.get(a, "/v1/players/me")).json()["arena"] is True

        for _ in range(100):
            games = await _mine(api, a)
            if games and games[0]["status"] == "playing":  # created, then dealt
                break
            await asyncio.sleep(0.1)

        assert len(games) == 1 and games[0]["rated"] and games[0]["status"] == "playing"
        assert {s["player_id"] for s in games[0]["seats"]} == {a.player_id, b.player_id}
        await asyncio.sleep(1.0)  # ten ticks: a bot in an arena game is not sought again
        assert [g["game_id"] for g in await _mine(api, a)] == [games[0]["game_id"]]
        assert [g["game_id"] for g in await _mine(api, b)] == [games[0]["game_id"]]
        assert await _mine(api, c) == []
