"""Players and API keys."""

from __future__ import annotations

import json

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from service.events.tables import players
from service.http.contract import CONTRACT
from service.players.directory import key_digest


async def test_given_a_new_player_when_they_call_me_then_their_key_identifies_them(api):
    alice = await api.player("alice")

    r = await api.get(alice, "/v1/players/me")

    assert r.status_code == 200
    assert r.json()["player_id"] == alice.player_id
    assert r.json()["name"] == "alice"


async def test_given_a_player_then_only_the_hash_of_the_key_is_stored(api, live):
    alice = await api.player("alice")

    engine = create_async_engine(live.settings.database_url)
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(players).where(
            players.c.player_id == alice.player_id))).one()
    await engine.dispose()

    assert row.key_sha256 == key_digest(alice.key)
    assert alice.key not in str(tuple(row))


async def test_given_no_key_or_a_bad_key_then_401_problem(api):
    no_key = await api.http.get("/v1/players/me")
    bad_key = await api.http.get("/v1/players/me", headers={"Authorization": "Bearer nope"})
    basic = await api.http.get("/v1/players/me", headers={"Authorization": "Basic eDp5"})

    for r in (no_key, bad_key, basic):
        assert r.status_code == 401
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "unauthorized"
    assert no_key.headers["www-authenticate"] == "Bearer"


async def test_given_no_key_then_every_operation_that_needs_one_answers_401_first(api):
    # Before its parameters and body are read: a malformed body or parameter still gets 401.
    paths = json.loads(CONTRACT.read_text())["paths"]
    guarded = [(method, path) for path, item in paths.items() for method, op in item.items()
               if "401" in op["responses"] and {} not in op.get("security", [])]

    for method, path in guarded:
        r = await api.http.request(method.upper(), path.replace("{game_id}", "nope"),
                                   params={"version": "x", "limit": "-1"}, content=b"{nope",
                                   headers={"content-type": "application/json"})

        assert r.status_code == 401, (method, path, r.text)
        assert r.json()["code"] == "unauthorized"
    every = {(method, path) for path, item in paths.items() for method in item}
    assert every - set(guarded) == OPEN_TO_ANYONE


# Watchers read public games, tournaments and ratings without a key; the rest needs one.
OPEN_TO_ANYONE = {
    ("get", "/v1/healthz"), ("get", "/v1/readyz"), ("get", "/v1/metrics"),
    ("get", "/v1/rulesets"), ("post", "/v1/players"), ("get", "/v1/players/{player_id}"),
    ("get", "/v1/receipt-keys"),
    ("get", "/v1/leaderboard"), ("get", "/v1/games"),
    *(("get", f"/v1/games/{{game_id}}{route}")
      for route in ("", "/events", "/history", "/history/page", "/state", "/verify", "/view")),
    *(("get", f"/v1/tournaments{route}")
      for route in ("", "/{tournament_id}", "/{tournament_id}/standings",
                    "/{tournament_id}/verify")),
}


async def test_given_no_body_then_a_player_is_still_created(api):
    r = await api.http.post("/v1/players")

    assert r.status_code == 201
    assert r.json()["api_key"].startswith("cya_")


async def test_given_a_name_with_control_characters_then_400_other_characters_are_kept(api):
    # PostgreSQL refuses a NUL in text: such a name reached the database as a 500.
    refused = [await api.http.post("/v1/players", json={"name": name})
               for name in ("a\x00b", "\x00", "line\nbreak", "trailing\n", "del\x7f", "c1\x85",
                            "   ", "\t", "para\u2029graph", "line\u2028sep")]
    zoe = await api.player("Zoë 🎲 ☂")

    for r in refused:
        assert r.status_code == 400 and r.json()["code"] == "malformed_request", r.text
        assert r.json()["errors"][0]["key"] == "name"
    assert (await api.get(zoe, "/v1/players/me")).json()["name"] == "Zoë 🎲 ☂"
