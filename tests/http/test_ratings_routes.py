"""Ratings through the API: a finished rated game's summary says what it did to each seat,
the leaderboard ranks the players (open without a key), and a player's page shows them."""

from __future__ import annotations

import random

from .api import Api
from .contract_check import assert_fits


async def test_given_a_finished_rated_game_then_its_changes_the_board_and_the_pages_agree(
        api: Api):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob], rated=True)
    seats = await api.seats(game_id, [ann, bob])
    running = (await api.get(ann, f"/v1/games/{game_id}")).json()["summary"]
    await api.play_out(game_id, seats, random.Random(4))

    summary = (await api.http.get(f"/v1/games/{game_id}")).json()["summary"]
    board = await api.http.get("/v1/leaderboard", params={"family": "2p", "limit": 100})
    me = await api.get(ann, "/v1/players/me")
    page = await api.http.get(f"/v1/players/{bob.player_id}")
    missing = await api.http.get("/v1/players/nobody")

    assert running["rated"] and running["rating_changes"] is None
    changes = {c["identity"]: c for c in summary["rating_changes"]}
    assert set(changes) == {f"player:{ann.player_id}", f"player:{bob.player_id}"}
    winner = min(changes.values(), key=lambda c: c["rank"])
    assert winner["after"] > winner["before"]
    assert_fits(board, "/v1/leaderboard")
    places = {e["identity"]: e for e in board.json()["entries"]}
    for identity, change in changes.items():
        assert places[identity]["rating"]["rating"] == change["after"]
    assert me.json()["ratings"][0]["family"] == "2p" and me.json()["ratings"][0]["games"] >= 1
    assert page.status_code == 200 and page.json()["name"] == "bob" and page.json()["ratings"]
    assert missing.status_code == 404 and missing.json()["code"] == "player_not_found"
