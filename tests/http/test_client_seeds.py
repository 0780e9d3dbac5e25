"""Every seat adds to the randomness, over HTTP (docs/fair-shuffle.md §7): seeds sent with a
seat, secret from everyone else on every read path until the deal, named by `game_started` to
everyone after it, checked by `GET /verify`, and the deal derived from them, as an independent
implementation of the page computes it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random

from service.wiring.bootstrap import build

from .contract_check import assert_fits

SEED_A = bytes(range(100, 132))  # the creator's
SEED_B = b"bob's own seed, sent with his seat"
SEED_B2 = bytes(range(200, 240))  # bob's replacement


def b64(seed: bytes) -> str:
    return base64.b64encode(seed).decode()


def forms(seed: bytes) -> set[str]:
    return {b64(seed), seed.hex()}


def spec_key(master: bytes, seeds: list[bytes]) -> bytes:
    """docs/fair-shuffle.md §7.5, written from the page."""
    message = b"seats:" + bytes([len(seeds)]) + b"".join(bytes([len(s)]) + s for s in seeds)
    return hmac.new(master, message, hashlib.sha256).digest()


def spec_round(key: bytes, n: int) -> bytes:
    return hmac.new(key, f"round:{n}".encode(), hashlib.sha256).digest()


async def _history(api, who, game_id: str) -> list[dict]:
    r = await api.get(who, f"/v1/games/{game_id}/history")
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines()]


async def test_given_two_players_with_seeds_then_verify_names_them_and_the_deal_is_theirs(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    rules = {"players": 2, "end_mode": "quick"}
    r = await api.post(ann, "/v1/games", {"ruleset": rules, "client_seed": b64(SEED_A)})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    r = await api.post(bob, f"/v1/games/{game_id}/seats", {"client_seed": b64(SEED_B)})
    assert r.status_code == 200, r.text
    assert (await api.post(ann, f"/v1/games/{game_id}/start")).status_code == 200
    seats = await api.seats(game_id, [ann, bob])
    await api.play_out(game_id, seats, random.Random(3))

    r = await api.get(bob, f"/v1/games/{game_id}/verify")
    assert_fits(r, "/v1/games/{game_id}/verify")
    report = r.json()
    assert report["ok"], report
    seeds = report["seeds"]
    assert seeds["commitment_verified"] is True
    assert seeds["client_seeds"] == [
        {"seat": 0, "seed": SEED_A.hex(), "source": "player"},
        {"seat": 1, "seed": SEED_B.hex(), "source": "player"}]

    lines = await _history(api, bob, game_id)
    created, started = lines[0]["data"], next(x["data"] for x in lines
                                               if x["type"] == "game_started")
    master = base64.b64decode(started["seed"])
    assert hashlib.sha256(master).hexdigest() == created["seed_sha256"] == seeds["seed_sha256"]
    assert [c["seed"] for c in started["client_seeds"]] == [b64(SEED_A), b64(SEED_B)]
    key = spec_key(master, [SEED_A, SEED_B])
    dealt = [x["data"] for x in lines if x["type"] == "round_started"]
    ended = [x["data"] for x in lines if x["type"] == "round_ended"]
    assert dealt and len(ended) == len(dealt)
    for d, e in zip(dealt, ended, strict=True):
        seed = spec_round(key, d["round_no"])
        assert d["seed_sha256"] == hashlib.sha256(seed).hexdigest()
        assert base64.b64decode(e["seed"]) == seed
        assert seed != spec_round(master, d["round_no"])  # not the master seed's alone


async def test_given_a_seat_without_a_seed_then_it_contributes_the_empty_value_on_record(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    r = await api.post(ann, "/v1/games", {"ruleset": {"players": 3, "end_mode": "quick"},
                                          "bots": [{"level": "random"}]})
    game_id = r.json()["game_id"]
    await api.post(bob, f"/v1/games/{game_id}/seats", {"client_seed": b64(SEED_B)})
    assert (await api.post(ann, f"/v1/games/{game_id}/start")).status_code == 200

    page = (await api.get(bob, f"/v1/games/{game_id}/events")).json()
    started = next(e["event"] for e in page["events"] if e["event"]["type"] == "game_started")
    by_seat = {c["seat"]: c for c in started["client_seeds"]}
    ann_seat = next(s for s, c in by_seat.items() if c["source"] == "none")
    assert by_seat[ann_seat]["seed"] == ""  # ann sent none: the empty value, said so
    assert [c["source"] for c in started["client_seeds"]].count("bot") == 1
    assert started["seed"] is None  # the master seed stays secret
    report = (await api.get(bob, f"/v1/games/{game_id}/verify")).json()
    assert report["ok"] and report["seeds"]["client_seeds"][ann_seat] == {
        "seat": ann_seat, "seed": "", "source": "none"}


async def test_given_a_seed_too_long_then_each_route_refuses_it_plainly(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    too_long = b64(bytes(65))
    r = await api.post(ann, "/v1/games", {"ruleset": {"players": 2}, "client_seed": too_long})
    assert r.status_code == 400 and r.json()["code"] == "malformed_request", r.text
    assert "client_seed" in r.text
    game_id = await api.game(ann, [], start=False, ruleset={"players": 2})
    r = await api.post(bob, f"/v1/games/{game_id}/seats", {"client_seed": too_long})
    assert r.status_code == 400 and r.json()["code"] == "malformed_request", r.text
    r = await api.post(ann, f"/v1/games/{game_id}/client-seed", {"seed": too_long})
    assert r.status_code == 400 and r.json()["code"] == "malformed_request", r.text
    r = await api.post(ann, f"/v1/games/{game_id}/client-seed", {"seed": "not base64!"})
    assert r.status_code == 400, r.text
    r = await api.post(ann, f"/v1/games/{game_id}/client-seed", {"seed": b64(bytes(64))})
    assert r.status_code == 200, r.text  # 64 bytes: the most there may be


async def test_given_a_started_game_then_no_seed_can_be_set_or_changed(api):
    ann, bob, eve = await api.player("ann"), await api.player("bob"), await api.player("eve")
    game_id = await api.game(ann, [bob])
    r = await api.post(bob, f"/v1/games/{game_id}/client-seed", {"seed": b64(SEED_B)})
    assert r.status_code == 422 and r.json()["rule"] == "already_started", r.text
    r = await api.post(eve, f"/v1/games/{game_id}/client-seed", {"seed": b64(SEED_B)})
    assert r.status_code in (403, 422), r.text  # no seat, and too late anyway
    lobby_id = await api.game(ann, [], start=False, ruleset={"players": 2})
    r = await api.post(eve, f"/v1/games/{lobby_id}/client-seed", {"seed": b64(SEED_B)})
    assert r.status_code == 403 and r.json()["code"] == "not_seated", r.text


async def _every_read(api, who, game_id: str, version: int) -> list[str]:
    """What `who` can read of the game: view, summary, events, their stream, history, the
    lobby (public and mine), the state at each version, verify."""
    base = f"/v1/games/{game_id}"
    answers = [await api.get(who, path, params=params) for path, params in [
        (f"{base}/view", {}), (base, {}), (f"{base}/events", {}), (f"{base}/history", {}),
        (f"{base}/history/page", {}), (f"{base}/verify", {}), ("/v1/games", {}),
        ("/v1/games", {"mine": "true"}), ("/v1/games", {"status": "lobby"}),
        *[(f"{base}/state", {"version": v}) for v in range(1, version + 1)]]]
    lines, last = [], False
    async with api.http.stream("GET", f"{base}/events", params={"after": 0}, headers={
            **who.auth, "Accept": "text/event-stream"}) as r:
        async for line in r.aiter_lines():
            lines.append(line)
            last = last or (line.startswith("id:") and int(line[3:]) >= version)
            if last and line.startswith("data:"):  # the last event's own data, then stop
                break
    return [a.text for a in answers] + ["\n".join(lines)]


async def test_given_seeds_sent_then_nobody_else_reads_them_before_the_deal_and_all_after(
        api, live):
    ann, bob, cat = await api.player("ann"), await api.player("bob"), await api.player("cat")
    watcher = await api.player("watcher")
    rules = {"players": 3, "end_mode": "quick"}
    r = await api.post(ann, "/v1/games", {"ruleset": rules, "client_seed": b64(SEED_A)})
    game_id = r.json()["game_id"]
    await api.post(bob, f"/v1/games/{game_id}/seats", {"client_seed": b64(bytes(32))})
    await api.post(bob, f"/v1/games/{game_id}/client-seed", {"seed": b64(SEED_B)})  # replaced
    await api.post(cat, f"/v1/games/{game_id}/seats")  # none: cat's is empty
    await api.post(bob, f"/v1/games/{game_id}/client-seed", {"seed": b64(SEED_B2)})
    services = build(live.settings)
    try:
        game = await services.pipeline.load(game_id, fresh=True)
    finally:
        await services.close()
    master = game.lobby.master_seed
    assert len(master) == 32 and game.lobby.client_seeds[1] == SEED_B2
    secret = {0: forms(SEED_A), 1: forms(SEED_B) | forms(SEED_B2) | forms(bytes(32))}
    everyone = forms(SEED_A) | forms(SEED_B) | forms(SEED_B2) | forms(bytes(32))
    for seat, who in [(0, ann), (1, bob), (2, cat), (None, watcher)]:
        texts = await _every_read(api, who, game_id, game.version)
        others = everyone - secret.get(seat, set())
        leaked = {f for f in others | forms(master) for t in texts if f in t}
        assert not leaked, (seat, leaked)
        if seat == 1:  # a seat sees the seeds it sent in its events (the creator's travels in
            assert forms(SEED_B2) & {f for f in forms(SEED_B2) if f in texts[2]}  # game_created,
            # which holds the master seed too: the server's alone)

    assert (await api.post(ann, f"/v1/games/{game_id}/start")).status_code == 200
    named = [b64(SEED_A), b64(SEED_B2), ""]
    for who in (ann, bob, cat, watcher):  # every seed arrives, to everyone, by every feed
        page = (await api.get(who, f"/v1/games/{game_id}/events")).json()
        started = next(e["event"] for e in page["events"]
                       if e["event"]["type"] == "game_started")
        assert [c["seed"] for c in started["client_seeds"]] == named
        assert [c["source"] for c in started["client_seeds"]] == ["player", "player", "none"]
        texts = await _every_read(api, who, game_id, game.version + 1)
        assert b64(SEED_A) in texts[-1] and b64(SEED_B2) in texts[-1]  # the stream
        assert not any(f in t for f in forms(master) for t in texts)  # until the end
        if who is not bob:  # replaced before the deal: bob's alone, for good
            assert not any(f in t for f in forms(SEED_B) for t in texts)


async def test_given_one_idempotency_key_then_a_fresh_seed_does_not_make_another_command(api):
    """A client seed is the client's random draw: a retry with a new one (an SDK that drew it
    again) is the same command, answered as the first was, with the first seed kept."""
    ann, bob = await api.player("ann"), await api.player("bob")
    body = {"ruleset": {"players": 2, "end_mode": "quick"}}
    key = {"Idempotency-Key": "create-once"}
    first = await api.post(ann, "/v1/games", {**body, "client_seed": b64(SEED_A)}, headers=key)
    again = await api.post(ann, "/v1/games", {**body, "client_seed": b64(SEED_B)}, headers=key)
    assert first.status_code == 201 and again.status_code in (200, 201), again.text
    game_id = first.json()["game_id"]
    assert again.json()["game_id"] == game_id
    for seed in (SEED_B, SEED_B2):
        r = await api.post(bob, f"/v1/games/{game_id}/seats", {"client_seed": b64(seed)},
                           headers={"Idempotency-Key": "sit-once"})
        assert r.status_code == 200, r.text
    await api.post(ann, f"/v1/games/{game_id}/start")
    report = (await api.get(bob, f"/v1/games/{game_id}/verify")).json()
    assert [c["seed"] for c in report["seeds"]["client_seeds"]] == [SEED_A.hex(), SEED_B.hex()]
