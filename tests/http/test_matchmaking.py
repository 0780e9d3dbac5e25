"""Quick play over HTTP (issue 41 part 2), on both backends: seekers of one kind are paired into
a dealt game and both hear `matched`; other kinds never meet; a seek is cancelled by `DELETE`
until it is matched; another's seek is not yours to read or cancel."""

from __future__ import annotations

import asyncio

from .api import Api, Player
from .test_challenges import _has, _news


async def _seek(api: Api, who: Player, **body) -> dict:
    r = await api.post(who, "/v1/matchmaking", body)
    assert r.status_code == 201, r.text
    return r.json()


async def test_given_two_seekers_of_a_kind_then_they_meet_in_one_game_and_both_hear_it(api):
    # An edition and count of their own: the session's server is shared with other tests.
    kind = {"players": 2, "edition": "de_2024", "rated": True, "rating_range": 1000}
    ann, bob = await api.player("ann"), await api.player("bob")
    ann_hears = asyncio.create_task(_news(api.http, ann, _has("matched")))
    bob_hears = asyncio.create_task(_news(api.http, bob, _has("matched")))
    await asyncio.sleep(0.3)

    first = await _seek(api, ann, **kind)
    second = await _seek(api, bob, **kind)

    matched = [n for n in await ann_hears if n["type"] == "matched"]
    assert matched[0]["seek_id"] == first["seek_id"]
    game_id = matched[0]["game_id"]
    assert _has("matched", seek_id=second["seek_id"], game_id=game_id)(await bob_hears)
    game = (await api.get(ann, f"/v1/games/{game_id}")).json()["summary"]
    assert game["status"] == "playing" and game["rated"]
    assert {s["player_id"] for s in game["seats"]} == {ann.player_id, bob.player_id}
    assert second["status"] == "matched" and second["game_id"] == game_id
    assert (await api.get(ann, f"/v1/matchmaking/{first['seek_id']}")).json()["game_id"] \
        == game_id


async def test_seekers_of_other_kinds_never_meet_and_a_waiting_seek_is_cancelled(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    a = await _seek(api, ann, players=5, edition="classic_2011", rated=False)
    b = await _seek(api, bob, players=5, edition="classic_2011", rated=True)

    assert a["status"] == b["status"] == "waiting"
    r = await api.http.delete(f"/v1/matchmaking/{a['seek_id']}", headers=bob.auth)
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seek")
    r = await api.get(bob, f"/v1/matchmaking/{a['seek_id']}")
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seek")
    for who, seek in ((ann, a), (bob, b)):
        r = await api.http.delete(f"/v1/matchmaking/{seek['seek_id']}", headers=who.auth)
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
    again = await api.http.delete(f"/v1/matchmaking/{a['seek_id']}", headers=ann.auth)
    assert again.status_code == 200 and again.json()["status"] == "cancelled"


async def test_seekers_of_other_ends_never_meet_and_those_of_one_end_play_it(api):
    # An edition and count of their own: the session's server is shared with other tests.
    kind = {"players": 6, "edition": "de_2024", "rated": False, "rating_range": 1000}
    ann, bob, cy = await api.player("ann"), await api.player("bob"), await api.player("cy")
    a = await _seek(api, ann, **kind)  # to a million: the default
    b = await _seek(api, bob, **kind, end_mode="quick")
    assert a["end_mode"] == "to_million" and b["end_mode"] == "quick"
    assert a["status"] == b["status"] == "waiting"
    more = [await api.player(f"q{n}") for n in range(4)]
    for who in [cy, *more[:-1]]:
        assert (await _seek(api, who, **kind, end_mode="quick"))["status"] == "waiting"
    last = await _seek(api, more[-1], **kind, end_mode="quick")  # the sixth: a game
    assert last["status"] == "matched"
    game = (await api.get(bob, f"/v1/games/{last['game_id']}")).json()["summary"]
    assert game["ruleset"]["end_mode"] == "quick" and game["players"] == 6
    assert ann.player_id not in {s["player_id"] for s in game["seats"]}
    assert (await api.get(ann, f"/v1/matchmaking/{a['seek_id']}")).json()["status"] == "waiting"
    r = await api.http.delete(f"/v1/matchmaking/{a['seek_id']}", headers=ann.auth)
    assert r.status_code == 200


async def test_a_matched_seek_cannot_be_cancelled_and_one_player_never_meets_itself(api):
    # The session's server is shared (the contract fuzzer seeks too): other seekers of this
    # kind may take any of these seeks, so the checks hold whoever they meet.
    ann, bob = await api.player("ann"), await api.player("bob")
    kind = {"players": 2, "edition": "classic_2011", "rating_range": 1000}
    mine = [await _seek(api, ann, **kind), await _seek(api, ann, **kind)]

    theirs = await _seek(api, bob, **kind)

    assert theirs["status"] == "matched"
    game = (await api.get(bob, f"/v1/games/{theirs['game_id']}")).json()["summary"]
    assert len({s["player_id"] for s in game["seats"]}) == 2
    r = await api.http.delete(f"/v1/matchmaking/{theirs['seek_id']}", headers=bob.auth)
    assert (r.status_code, r.json()["code"]) == (409, "seek_not_waiting")
    now = [(await api.get(ann, f"/v1/matchmaking/{s['seek_id']}")).json() for s in mine]
    games = [s["game_id"] for s in now if s["game_id"]]
    assert len(games) == len(set(games))  # ann's two seeks never in one game
    for s in now:
        if s["status"] == "waiting":
            await api.http.delete(f"/v1/matchmaking/{s['seek_id']}", headers=ann.auth)


async def test_bad_seeks_are_400s_and_a_key_answers_the_same_seek(api):
    ann = await api.player("ann")
    for body in ({"players": 7}, {"edition": "nope"}, {"rating_range": -1}, {"x": 1}):
        r = await api.post(ann, "/v1/matchmaking", body)
        assert (r.status_code, r.json()["code"]) == (400, "malformed_request"), body
    r = await api.http.delete("/v1/matchmaking/" + "0" * 32, headers=ann.auth)
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    key = {"Idempotency-Key": "seek-1"}
    body = {"players": 6, "edition": "classic_2011"}
    first = await api.post(ann, "/v1/matchmaking", body, headers=key)
    again = await api.post(ann, "/v1/matchmaking", body, headers=key)
    other = await api.post(ann, "/v1/matchmaking", {"players": 3}, headers=key)
    assert first.json()["seek_id"] == again.json()["seek_id"]
    assert (other.status_code, other.json()["code"]) == (409, "idempotency_key_reused")
    await api.http.delete(f"/v1/matchmaking/{first.json()['seek_id']}", headers=ann.auth)
