"""Table talk over HTTP: a seated player's preset reaction reaches the other seats and the
watchers (stream, event pages, history) as one `reaction_sent` event naming only the seat and
the reaction; a second one too soon is a 429 `too_many_reactions` with Retry-After; nobody
without a seat talks; the game, its legal moves and its audit are untouched."""

from __future__ import annotations

import asyncio
import json
import random
import time

from cya_rules.table.talk import REACTION_INTERVAL_S
from cya_rules.verify.cli import main as verify_offline

from .api import Api
from .contract_check import assert_fits

PATH = "/v1/games/{game_id}/reactions"


async def _stream_until(api: Api, game_id: str, who, kind: str) -> dict:
    headers = {"Accept": "text/event-stream", **(who.auth if who else {})}
    async with api.http.stream("GET", f"/v1/games/{game_id}/events", headers=headers) as r:
        async for line in r.aiter_lines():
            if line.startswith("data:") and kind in line:
                return json.loads(line[5:])
    raise AssertionError("the stream ended without it")


async def test_given_a_running_game_when_a_player_reacts_then_the_table_and_watchers_see_it(
        api: Api):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    seats = await api.seats(game_id, [ann, bob])
    ann_seat = next(s for s, p in seats.items() if p is ann)
    before = (await api.get(bob, f"/v1/games/{game_id}/turn?timeout=0")).json()
    bob_hears = asyncio.create_task(_stream_until(api, game_id, bob, "reaction_sent"))
    watcher_hears = asyncio.create_task(_stream_until(api, game_id, None, "reaction_sent"))
    await asyncio.sleep(0.3)

    sent = await api.post(ann, PATH.format(game_id=game_id), {"reaction": "well_played"})

    assert sent.status_code == 200, sent.text
    assert_fits(sent, PATH)
    body = sent.json()
    assert body["version"] == before["version"] + 1
    assert [e["event"] for e in body["events"]] == [
        {"type": "reaction_sent", "seat": ann_seat, "reaction": "well_played"}]
    for heard in await asyncio.wait_for(asyncio.gather(bob_hears, watcher_hears), 10):
        assert heard["event"] == {"type": "reaction_sent", "seat": ann_seat,
                                  "reaction": "well_played"}
        assert heard["version"] == body["version"]
    page = (await api.http.get(f"/v1/games/{game_id}/events",
                               params={"after": before["version"]})).json()
    assert [e["event"]["type"] for e in page["events"]] == ["reaction_sent"]
    # Nothing else moved: the same decision, the same legal moves, the same hand.
    after = (await api.get(bob, f"/v1/games/{game_id}/turn?timeout=0")).json()
    assert after["legal_commands"] == before["legal_commands"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["awaiting"] == before["view"]["awaiting"]


async def test_given_a_reaction_when_the_seat_sends_another_at_once_then_429_with_retry_after(
        api: Api):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    path = PATH.format(game_id=game_id)

    first = await api.post(ann, path, {"reaction": "oops"})
    second = await api.post(ann, path, {"reaction": "good_game"})
    other_seat = await api.post(bob, path, {"reaction": "oops"})
    again = await api.post(ann, path, {"reaction": "oops"}, headers={"Idempotency-Key": "k1"})

    assert first.status_code == 200
    assert second.status_code == 429, second.text
    assert second.json()["code"] == "too_many_reactions"
    assert second.headers["content-type"].startswith("application/problem+json")
    assert 1 <= int(second.headers["retry-after"]) <= 5
    assert other_seat.status_code == 200  # the pace is per seat
    assert again.status_code == 429
    page = (await api.http.get(f"/v1/games/{game_id}/events")).json()["events"]
    assert [e["event"]["type"] for e in page].count("reaction_sent") == 2


async def test_given_no_seat_or_no_deal_or_no_preset_then_nobody_talks(api: Api):
    ann, bob, eve = await api.player("ann"), await api.player("bob"), await api.player("eve")
    waiting = await api.game(ann, [bob], start=False)
    game_id = await api.game(ann, [bob])

    in_lobby = await api.post(ann, PATH.format(game_id=waiting), {"reaction": "oops"})
    stranger = await api.post(eve, PATH.format(game_id=game_id), {"reaction": "oops"})
    free_text = await api.post(ann, PATH.format(game_id=game_id), {"reaction": "you lose"})
    extra = await api.post(ann, PATH.format(game_id=game_id),
                           {"reaction": "oops", "text": "hello"})
    anonymous = await api.http.post(PATH.format(game_id=game_id), json={"reaction": "oops"})

    assert in_lobby.status_code == 422 and in_lobby.json()["rule"] == "not_started"
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_seated"
    assert free_text.status_code == 400 and extra.status_code == 400
    assert anonymous.status_code == 401
    log = (await api.http.get(f"/v1/games/{game_id}/events")).text
    assert "reaction_sent" not in log and "hello" not in log


async def test_given_reactions_through_a_whole_game_then_the_audit_still_verifies_it(
        api: Api, tmp_path, capsys):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    seats = await api.seats(game_id, [ann, bob])
    await api.post(ann, PATH.format(game_id=game_id), {"reaction": "good_game"})
    ann_spoke = time.monotonic()
    await api.step(game_id, seats, random.Random(1))
    await api.post(bob, PATH.format(game_id=game_id), {"reaction": "nice_steal"})
    await api.play_out(game_id, seats, random.Random(4))
    await asyncio.sleep(max(0.0, ann_spoke + REACTION_INTERVAL_S + 0.2 - time.monotonic()))

    after_end = await api.post(ann, PATH.format(game_id=game_id), {"reaction": "good_game"})
    report = (await api.http.get(f"/v1/games/{game_id}/verify")).json()
    # A stream opened after the end still ends: talk after `game_ended` keeps nothing open.
    async with asyncio.timeout(10):
        async with api.http.stream("GET", f"/v1/games/{game_id}/events",
                                   headers={"Accept": "text/event-stream"}) as r:
            lines = [line async for line in r.aiter_lines() if line.startswith("data:")]

    assert after_end.status_code == 200, after_end.text
    assert report["ok"], report
    assert '"reaction_sent"' in lines[-1]
    history = (await api.http.get(f"/v1/games/{game_id}/history")).text
    assert sum('"reaction_sent"' in line for line in history.splitlines()) == 3
    # And offline, with the rules package alone (`cya-verify`, docs/audit.md).
    saved = tmp_path / f"{game_id}.history.ndjson"
    saved.write_text(history)
    assert verify_offline([str(saved), "--json"]) == 0, capsys.readouterr().out
