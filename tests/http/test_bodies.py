"""Which routes take a body (README "Bodies"): required, optional, or none."""

from __future__ import annotations


async def test_given_no_body_then_only_the_routes_that_require_one_answer_400(api):
    """README: a missing body is a 400 only where one is required (POST /v1/games and the
    command route); the others take an optional body, or none."""
    anon = await api.http.post("/v1/players")
    alice, bob = await api.player(), await api.player()
    no_game = await api.http.post("/v1/games", headers=alice.auth)
    game_id = await api.game(alice, [], start=False, ruleset={"players": 3, "end_mode": "quick"})
    seat = await api.http.post(f"/v1/games/{game_id}/seats", headers=bob.auth)
    bot = await api.http.post(f"/v1/games/{game_id}/bots", headers=alice.auth)
    start = await api.http.post(f"/v1/games/{game_id}/start", headers=alice.auth)
    no_command = await api.http.post(f"/v1/games/{game_id}/commands", headers=alice.auth)

    assert anon.status_code == 201, anon.text
    assert no_game.status_code == 400 and no_game.json()["code"] == "malformed_request"
    assert seat.status_code == 200 and bot.status_code == 200, (seat.text, bot.text)
    assert start.status_code == 200, start.text
    assert no_command.status_code == 400 and no_command.json()["code"] == "malformed_request"


async def test_given_a_body_on_a_route_that_takes_none_then_it_is_ignored(api):
    alice, bob = await api.player(), await api.player()
    game_id = await api.game(alice, [bob], start=False)

    start = await api.post(alice, f"/v1/games/{game_id}/start", {"anything": 1})

    assert start.status_code == 200, start.text
