"""Tournaments through the API: created with players, their games played like any other, the
standings and the verify at the end; every bad body a 400 naming its field."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime
from typing import Any

from .api import Api, Player
from .contract_check import assert_fits


async def _until_finished(api: Api, who: Player, tournament_id: str) -> dict[str, Any]:
    for _ in range(200):
        r = await api.get(who, f"/v1/tournaments/{tournament_id}")
        if r.json()["status"] == "finished":
            return r.json()  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError("the tournament did not finish")


async def _opened(api: Api, who: Player, tournament_id: str, table: int) -> str:
    for _ in range(200):
        tables = (await api.get(who, f"/v1/tournaments/{tournament_id}")).json()["tables"]
        if tables[table]["game_id"]:
            return tables[table]["game_id"]  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError(f"table {table} never opened")


async def test_given_a_players_round_robin_when_its_game_is_played_then_it_ends_verified(
        api: Api):
    ann, bob = await api.player("ann"), await api.player("bob")
    created = await api.post(ann, "/v1/tournaments", {
        "name": "friday", "format": "round_robin",
        "ruleset": {"players": 2, "end_mode": "quick"},
        "entrants": [{"kind": "player", "player_id": ann.player_id},
                     {"kind": "player", "player_id": bob.player_id}]})
    assert created.status_code == 201, created.text
    assert_fits(created, "/v1/tournaments")
    body = created.json()
    tid = body["tournament_id"]
    assert created.headers["location"] == f"/v1/tournaments/{tid}"
    assert len(body["seed_hashes"]) == 1 and body["seeds"] is None
    early = await api.get(ann, f"/v1/tournaments/{tid}/verify")
    assert early.status_code == 403 and early.json()["code"] == "tournament_not_finished"

    game_id = await _opened(api, ann, tid, 0)
    await api.play_out(game_id, await api.seats(game_id, [ann, bob]), random.Random(3))
    done = await _until_finished(api, ann, tid)

    assert len(done["seeds"]) == 1
    standings = await api.http.get(f"/v1/tournaments/{tid}/standings")
    assert_fits(standings, "/v1/tournaments/{tournament_id}/standings")
    rows = standings.json()["standings"]
    assert sorted(r["points"] for r in rows) == [0.0, 1.0] or [r["points"] for r in rows] == [
        0.5, 0.5]
    verified = await api.http.get(f"/v1/tournaments/{tid}/verify")
    assert_fits(verified, "/v1/tournaments/{tournament_id}/verify")
    assert verified.json()["ok"], verified.json()
    assert verified.json()["games_verified"] == 1
    listed = await api.http.get("/v1/tournaments", params={"status": "finished", "limit": 100})
    assert_fits(listed, "/v1/tournaments")
    assert tid in {t["tournament_id"] for t in listed.json()["tournaments"]}
    # A `date-time` carries its zone (SQLite hands back times without one).
    assert all(datetime.fromisoformat(t["created_at"]).tzinfo is not None
               for t in listed.json()["tournaments"])


async def test_given_bad_tournaments_then_each_is_a_400_naming_its_field(api: Api):
    ann = await api.player("ann")
    bots = [{"kind": "bot", "level": "greedy"}] * 3

    async def refused(body: dict[str, Any]) -> str:
        r = await api.post(ann, "/v1/tournaments", {
            "format": "duplicate", "ruleset": {"players": 2}, "entrants": bots, **body})
        assert r.status_code == 400, r.text
        return str(r.json()["errors"][0]["key"])

    assert await refused({}) == "entrants"  # 3 do not fill 2-seat tables
    assert await refused({"entrants": [{"kind": "bot", "level": "wizard"}] * 2}) == \
        "entrants[0].level"
    assert await refused({"entrants": [{"kind": "player", "player_id": "nobody"},
                                       *bots[:1]]}) == "entrants[0].player_id"
    assert await refused({"format": "knockout"}) == "format"
    missing = await api.http.get("/v1/tournaments/nothing-here")
    assert missing.status_code == 404 and missing.json()["code"] == "tournament_not_found"


async def test_given_a_private_tournament_then_only_its_people_read_it(api: Api):
    ann, eve = await api.player("ann"), await api.player("eve")
    r = await api.post(ann, "/v1/tournaments", {
        "format": "swiss", "ruleset": {"players": 2}, "public": False, "rounds": 1,
        "entrants": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "greedy"}]})
    tid = r.json()["tournament_id"]
    assert (await api.get(ann, f"/v1/tournaments/{tid}")).status_code == 200
    peek = await api.get(eve, f"/v1/tournaments/{tid}")
    assert peek.status_code == 403 and peek.json()["code"] == "private_tournament"
