"""Rematches: once a game is over one of its players asks, the new game keeps the rules, every
seat moves one place on, bots sit down at once and the other players are invited; they take
the seat kept for them or decline it."""

from __future__ import annotations

import random

from .api import Api
from .contract_check import assert_fits


async def test_given_a_finished_game_when_a_player_asks_then_the_rematch_rotates_and_invites(
        api: Api):
    ann, bob, eve = await api.player("ann"), await api.player("bob"), await api.player("eve")
    game_id = await api.game(ann, [bob], ruleset={"players": 2, "end_mode": "quick",
                                                  "edition": "de_2024"})
    seats = await api.seats(game_id, [ann, bob])
    early = await api.post(bob, f"/v1/games/{game_id}/rematch")
    await api.play_out(game_id, seats, random.Random(7))

    asked = await api.post(bob, f"/v1/games/{game_id}/rematch")
    again = await api.post(ann, f"/v1/games/{game_id}/rematch")
    stranger = await api.post(eve, f"/v1/games/{game_id}/rematch")

    assert early.status_code == 422 and early.json()["rule"] == "game_not_over"
    assert asked.status_code == 201, asked.text
    assert_fits(asked, "/v1/games/{game_id}/rematch")
    new = asked.json()
    ann_seat = next(s for s, p in seats.items() if p is ann)
    bob_seat = 1 - ann_seat
    assert new["rematch_of"] == game_id and new["status"] == "lobby"
    assert new["ruleset"]["edition"] == "de_2024"
    assert new["seats"][(bob_seat + 1) % 2] == {"kind": "human", "player_id": bob.player_id}
    assert new["seats"][(ann_seat + 1) % 2] is None
    assert new["invited"][(ann_seat + 1) % 2] == ann.player_id
    assert again.status_code == 200 and again.json()["game_id"] == new["game_id"]
    assert_fits(again, "/v1/games/{game_id}/rematch")
    assert again.headers["location"] == f"/v1/games/{new['game_id']}"
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_seated"
    old = (await api.http.get(f"/v1/games/{game_id}")).json()["summary"]
    assert old["rematch"] == new["game_id"]
    log = (await api.http.get(f"/v1/games/{game_id}/history")).text
    assert '"type":"rematch_offered"' in log

    taken_by_eve = await api.post(eve, f"/v1/games/{new['game_id']}/seats",
                                  {"seat": (ann_seat + 1) % 2})
    joined = await api.post(ann, f"/v1/games/{new['game_id']}/seats")
    started = await api.post(bob, f"/v1/games/{new['game_id']}/start")

    assert taken_by_eve.status_code == 422 and taken_by_eve.json()["rule"] == "seat_taken"
    assert joined.status_code == 200
    assert joined.json()["seats"][(ann_seat + 1) % 2]["player_id"] == ann.player_id
    assert started.status_code == 200 and started.json()["status"] == "playing"


async def test_given_an_invited_player_who_declines_then_the_seat_opens_to_anyone(api: Api):
    ann, bob, eve = await api.player("ann"), await api.player("bob"), await api.player("eve")
    game_id = await api.game(ann, [bob])
    await api.play_out(game_id, await api.seats(game_id, [ann, bob]), random.Random(2))
    new = (await api.post(ann, f"/v1/games/{game_id}/rematch")).json()["game_id"]

    not_invited = await api.post(eve, f"/v1/games/{new}/decline")
    declined = await api.post(bob, f"/v1/games/{new}/decline")
    taken = await api.post(eve, f"/v1/games/{new}/seats")

    assert not_invited.status_code == 403 and not_invited.json()["code"] == "not_seated"
    assert declined.status_code == 200 and declined.json()["invited"] == [None, None]
    assert taken.status_code == 200 and None not in taken.json()["seats"]
