"""Bot accounts (issue 41 part 2): a player created as a bot says so in its player views and on
the leaderboard, which lists people, bots (bot accounts and built-in levels) or both."""

from __future__ import annotations

import random

from .api import Api, Player


async def _board(api: Api, accounts: str) -> dict[str, dict]:
    """Every entry of the 2-player leaderboard for `accounts`, by identity."""
    found: dict[str, dict] = {}
    offset: int | None = 0
    while offset is not None:
        page = (await api.http.get("/v1/leaderboard", params={
            "family": "2p", "accounts": accounts, "offset": offset, "limit": 100})).json()
        found.update({e["identity"]: e for e in page["entries"]})
        offset = page["next_offset"]
    return found


async def test_given_a_bot_account_then_its_views_and_the_leaderboard_say_so(api: Api):
    r = await api.http.post("/v1/players", json={"name": "botty", "bot": True})
    assert r.status_code == 201 and r.json()["bot"] is True
    botty = Player(r.json()["player_id"], r.json()["api_key"])
    ann = await api.player("ann")
    assert (await api.get(botty, "/v1/players/me")).json()["bot"] is True
    assert (await api.http.get(f"/v1/players/{botty.player_id}")).json()["bot"] is True
    assert (await api.get(ann, "/v1/players/me")).json()["bot"] is False

    game_id = await api.game(ann, [botty], rated=True)
    await api.play_out(game_id, await api.seats(game_id, [ann, botty]), random.Random(5))

    people, bots, everyone = [await _board(api, a) for a in ("people", "bots", "all")]
    mine, its = f"player:{ann.player_id}", f"player:{botty.player_id}"
    assert mine in people and its not in people and not people[mine]["bot"]
    assert its in bots and mine not in bots and bots[its]["bot"]
    assert {mine, its} <= set(everyone)
    assert all(e["bot"] for e in bots.values())
    assert not any(i.startswith("bot:") for i in people)
    r = await api.http.get("/v1/leaderboard", params={"accounts": "robots"})
    assert r.status_code == 400
