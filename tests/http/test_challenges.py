"""Challenges over HTTP (issue 41 part 2), on both backends: to a player or open, accepted into
a dealt game, declined with a reason, cancelled; the news stream tells the challenged player
and both sides of an acceptance; every bad input is a 4xx with its code, never a 500."""

from __future__ import annotations

import asyncio
import json

import httpx

from .api import Api, Player

RULES = {"players": 2, "end_mode": "quick"}


async def _news(client: httpx.AsyncClient, who: Player, until, timeout: float = 20
                ) -> list[dict]:
    got: list[dict] = []

    async def read() -> None:
        async with client.stream("GET", "/v1/players/me/events", headers=who.auth) as r:
            assert r.status_code == 200
            async for line in r.aiter_lines():
                if line.strip():
                    got.append(json.loads(line))
                    if until(got):
                        return

    await asyncio.wait_for(read(), timeout)
    return got


def _has(kind: str, **fields):
    return lambda got: any(n["type"] == kind and all(n.get(k) == v for k, v in fields.items())
                           for n in got)


async def _challenge(api: Api, who: Player, **body) -> dict:
    r = await api.post(who, "/v1/challenges", {"ruleset": RULES, **body})
    assert r.status_code == 201, r.text
    return r.json()


async def test_given_a_challenge_to_bob_when_he_accepts_then_both_hear_of_the_dealt_game(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    # News tell a challenge as it stands: Bob hears of it while it is open, as a person does
    # before accepting (accepted before his stream looked, he hears only the acceptance).
    bob_hears_of_it = asyncio.create_task(_news(api.http, bob, _has("challenge")))
    ann_hears = asyncio.create_task(_news(api.http, ann, _has("challenge_accepted")))
    await asyncio.sleep(0.3)

    c = await _challenge(api, ann, to=bob.player_id, rated=True, turn_clock=30)
    told_bob = await bob_hears_of_it
    bob_hears = asyncio.create_task(_news(api.http, bob, _has("challenge_accepted")))
    r = await api.post(bob, f"/v1/challenges/{c['challenge_id']}/accept")

    assert r.status_code == 200, r.text
    accepted = r.json()
    assert accepted["status"] == "accepted" and accepted["accepted_by"] == bob.player_id
    game = (await api.get(ann, f"/v1/games/{accepted['game_id']}")).json()["summary"]
    assert game["status"] == "playing" and game["rated"] and game["turn_clock"] == 30
    assert [s["player_id"] for s in game["seats"]] == [ann.player_id, bob.player_id]
    assert _has("challenge", challenge_id=c["challenge_id"], challenger=ann.player_id)(told_bob)
    assert _has("challenge_accepted", game_id=accepted["game_id"])(await bob_hears)
    assert _has("challenge_accepted", game_id=accepted["game_id"])(await ann_hears)


async def test_given_an_open_challenge_then_anyone_takes_it_once(api):
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    c = await _challenge(api, ann, ruleset={"players": 4, "end_mode": "quick"},
                         bots=["greedy", "random"])
    listed = (await api.get(bob, "/v1/challenges")).json()
    assert c["challenge_id"] in [x["challenge_id"] for x in listed]

    took = await asyncio.gather(api.post(bob, f"/v1/challenges/{c['challenge_id']}/accept"),
                                api.post(cid, f"/v1/challenges/{c['challenge_id']}/accept"))

    assert sorted(r.status_code for r in took) == [200, 409]
    won = next(r.json() for r in took if r.status_code == 200)
    lost = next(r.json() for r in took if r.status_code == 409)
    assert lost["code"] == "challenge_not_open"
    game = (await api.get(ann, f"/v1/games/{won['game_id']}")).json()["summary"]
    assert [s["kind"] for s in game["seats"]] == ["human", "human", "bot", "bot"]
    again = await api.post(bob if won["accepted_by"] == bob.player_id else cid,
                           f"/v1/challenges/{c['challenge_id']}/accept")
    assert again.status_code == 200 and again.json()["game_id"] == won["game_id"]


async def test_given_a_decline_then_the_challenger_hears_the_reason(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    c = await _challenge(api, ann, to=bob.player_id)
    hears = asyncio.create_task(_news(api.http, ann, _has("challenge_declined")))
    await asyncio.sleep(0.3)

    r = await api.post(bob, f"/v1/challenges/{c['challenge_id']}/decline",
                       {"reason": "busy tonight"})

    assert r.status_code == 200 and r.json()["status"] == "declined"
    assert _has("challenge_declined", reason="busy tonight")(await hears)
    late = await api.post(bob, f"/v1/challenges/{c['challenge_id']}/accept")
    assert late.status_code == 409 and late.json()["code"] == "challenge_not_open"


async def test_bad_challenges_are_4xx_problems_with_codes(api):
    ann, bob, cid = await api.player("ann"), await api.player("bob"), await api.player("cid")
    cases = [
        (ann, {"ruleset": RULES, "to": ann.player_id}, 422, "challenge_yourself"),
        (ann, {"ruleset": {"players": 3}}, 422, "seats_mismatch"),
        (ann, {"ruleset": RULES, "seat": 5}, 422, "seats_mismatch"),
        (ann, {"ruleset": RULES, "to": "f" * 32}, 404, "player_not_found"),
        (ann, {"ruleset": RULES, "bots": ["nobody"]}, 400, "malformed_request"),
        (ann, {"ruleset": RULES, "surprise": 1}, 400, "malformed_request"),
    ]
    for who, body, status, code in cases:
        r = await api.post(who, "/v1/challenges", body)
        assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)

    to_bob = await _challenge(api, ann, to=bob.player_id)
    path = f"/v1/challenges/{to_bob['challenge_id']}"
    assert (await api.post(ann, path + "/accept")).json()["code"] == "own_challenge"
    assert (await api.post(cid, path + "/accept")).json()["code"] == "not_challenged"
    assert (await api.post(cid, path + "/decline")).json()["code"] == "not_challenged"
    assert (await api.post(bob, path + "/cancel")).json()["code"] == "not_challenger"
    assert (await api.post(ann, path + "/cancel")).json()["status"] == "cancelled"
    r = await api.post(bob, path + "/accept")
    assert (r.status_code, r.json()["code"]) == (409, "challenge_not_open")
    open_one = await _challenge(api, ann)
    r = await api.post(bob, f"/v1/challenges/{open_one['challenge_id']}/decline")
    assert (r.status_code, r.json()["code"]) == (409, "open_challenge")
    r = await api.post(bob, "/v1/challenges/" + "0" * 32 + "/accept")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = await api.post(bob, "/v1/challenges/NOT-AN-ID/accept")
    assert r.status_code == 400


async def test_an_idempotency_key_answers_the_same_challenge_and_refuses_another_body(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    key = {"Idempotency-Key": "challenge-1"}
    first = await api.post(ann, "/v1/challenges", {"ruleset": RULES, "to": bob.player_id},
                           headers=key)
    again = await api.post(ann, "/v1/challenges", {"ruleset": RULES, "to": bob.player_id},
                           headers=key)
    other = await api.post(ann, "/v1/challenges", {"ruleset": RULES}, headers=key)

    assert first.status_code == again.status_code == 201
    assert first.json()["challenge_id"] == again.json()["challenge_id"]
    assert (other.status_code, other.json()["code"]) == (409, "idempotency_key_reused")
