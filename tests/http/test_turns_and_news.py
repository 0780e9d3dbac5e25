"""A bot's two calls: `GET /turn` (its view and legal commands in one read, waiting until the
decision is its own) and `POST /commands`; and a player's own news stream across its games."""

from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest

from service.events.migrate import upgrade
from service.wiring.settings import Settings

from .api import Api, Player
from .conftest import serve, stop
from .contract_check import assert_fits


async def _two_player_game(api: Api) -> tuple[str, dict[int, Player]]:
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    return game_id, await api.seats(game_id, [ann, bob])


async def test_given_my_decision_then_the_turn_holds_my_view_and_legal_commands_at_one_version(
        api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    me = seats[view["awaiting"][0]]

    r = await api.get(me, f"/v1/games/{game_id}/turn")

    turn = r.json()
    assert r.status_code == 200
    assert_fits(r, "/v1/games/{game_id}/turn")
    legal = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()
    assert turn["version"] == view["version"] == legal["version"]
    assert turn["awaiting"] == [turn["seat"]] and turn["legal_commands"] == legal["commands"]
    assert turn["view"]["hand"] == (await api.get(me, f"/v1/games/{game_id}/view")).json()[
        "view"]["hand"]


async def test_given_turn_true_then_a_commands_answer_holds_the_turn_get_turn_would_answer(api):
    game_id, seats = await _two_player_game(api)
    for _ in range(6):  # both seats, several commands: each answer's turn is the next read's
        view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
        me = seats[view["awaiting"][0]]
        legal = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"]
        r = await api.post(me, f"/v1/games/{game_id}/commands?turn=true", legal[0])
        assert r.status_code == 200, r.text
        assert_fits(r, "/v1/games/{game_id}/commands")
        answer = r.json()
        read = (await api.get(me, f"/v1/games/{game_id}/turn?timeout=0")).json()
        assert answer["turn"]["version"] == read["version"] >= answer["version"]
        assert {k: v for k, v in answer["turn"].items() if k != "receipt"} == \
            {k: v for k, v in read.items() if k != "receipt"}
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    me = seats[view["awaiting"][0]]
    legal = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"]
    plain = await api.post(me, f"/v1/games/{game_id}/commands", legal[0])
    assert plain.status_code == 200 and plain.json()["turn"] is None  # asked for only


async def test_given_another_seats_decision_then_the_turn_waits_until_it_is_mine(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    mover = view["awaiting"][0]
    waiter = seats[1 - mover]
    waiting = asyncio.create_task(api.get(waiter, f"/v1/games/{game_id}/turn",
                                          params={"timeout": 20}))
    await asyncio.sleep(0.3)
    assert not waiting.done()

    rng = random.Random(3)
    t0 = time.monotonic()
    while not waiting.done():  # the mover plays until the decision passes to the waiter
        turn = (await api.get(seats[mover], f"/v1/games/{game_id}/turn",
                              params={"timeout": 0})).json()
        if turn["legal_commands"]:
            await api.post(seats[mover], f"/v1/games/{game_id}/commands",
                           rng.choice(turn["legal_commands"]))
        await asyncio.sleep(0.05)
    answered = (await waiting).json()

    assert time.monotonic() - t0 < 10
    assert answered["awaiting"] == [answered["seat"]] and answered["legal_commands"]


async def test_given_no_decision_within_the_timeout_then_the_turn_answers_as_it_stands(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    waiter = seats[1 - view["awaiting"][0]]

    t0 = time.monotonic()
    turn = (await api.get(waiter, f"/v1/games/{game_id}/turn",
                          params={"timeout": 0.5})).json()

    assert 0.4 < time.monotonic() - t0 < 5
    assert turn["legal_commands"] == [] and turn["version"] == view["version"]


async def test_given_a_finished_game_then_the_turn_answers_at_once(api):
    game_id, seats = await _two_player_game(api)
    await api.play_out(game_id, seats, random.Random(5))

    t0 = time.monotonic()
    turn = (await api.get(seats[0], f"/v1/games/{game_id}/turn",
                          params={"timeout": 20})).json()

    assert time.monotonic() - t0 < 2
    assert turn["status"] == "finished" and turn["legal_commands"] == []


async def test_given_no_seat_then_the_turn_is_refused(api):
    game_id, _ = await _two_player_game(api)
    carol = await api.player("carol")

    r = await api.get(carol, f"/v1/games/{game_id}/turn")

    assert r.status_code == 403 and r.json()["code"] == "not_seated"


async def _news(client: httpx.AsyncClient, who: Player, until, *, params=None,
                timeout: float = 20) -> list[dict]:
    """NDJSON news until `until(news so far)` holds."""
    got: list[dict] = []

    async def read() -> None:
        async with client.stream("GET", "/v1/players/me/events", headers=who.auth,
                                 params=params) as r:
            assert r.status_code == 200, await r.aread()
            assert r.headers["content-type"].startswith("application/x-ndjson")
            async for line in r.aiter_lines():
                if line.strip():
                    got.append(json.loads(line))
                    if until(got):
                        return

    await asyncio.wait_for(read(), timeout)
    return got


def _kinds(news: list[dict]) -> list[tuple[str, str]]:
    return [(n["type"], n["game_id"]) for n in news]


async def test_given_a_players_stream_then_it_hears_seats_deals_its_turns_and_the_end(api):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob], start=False)
    seats = await api.seats(game_id, [ann, bob])
    news_task = asyncio.create_task(_news(
        api.http, bob, lambda got: any(n["type"] == "game_finished" for n in got), timeout=60))
    await asyncio.sleep(0.3)
    r = await api.post(ann, f"/v1/games/{game_id}/start")
    assert r.status_code == 200
    rng, bobs_turns_played = random.Random(11), 0
    while not news_task.done():  # play the game out through /turn, counting bob's decisions
        some = await api.get(ann, f"/v1/games/{game_id}/view")
        if some.json()["status"] == "finished":
            break
        seat = some.json()["awaiting"][0]
        turn = (await api.get(seats[seat], f"/v1/games/{game_id}/turn",
                              params={"timeout": 0})).json()
        if turn["legal_commands"]:
            await api.post(seats[seat], f"/v1/games/{game_id}/commands",
                           rng.choice(turn["legal_commands"]))
            bobs_turns_played += seats[seat] is bob
    news = await news_task

    kinds = [n["type"] for n in news if n["game_id"] == game_id]
    assert kinds[:2] == ["seated", "game_started"] and kinds[-1] == "game_finished"
    turns = [n for n in news if n["type"] == "your_turn"]
    assert len(turns) == bobs_turns_played > 0
    for n in turns:  # each carries the whole turn, the decision bob's
        assert n["turn"]["awaiting"] == [n["seat"]] and n["turn"]["legal_commands"]
        assert n["turn"]["version"] == n["version"]
    assert news[-1]["winners"] and len(news[-1]["totals"]) == 2


async def test_given_a_stream_resumed_after_a_news_then_it_tells_what_changed_since(api):
    game_id, seats = await _two_player_game(api)
    ann = seats[0] if (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()[
        "seat"] == 0 else seats[1]
    first = await _news(api.http, ann, lambda got: len(got) >= 1)
    other = await api.game(ann, [await api.player("dora")], start=False)

    resumed = await _news(api.http, ann, lambda got: any(n["game_id"] == other for n in got),
                          params={"after": first[-1]["id"]})

    assert ("seated", other) in _kinds(resumed)


async def test_given_waiting_calls_then_they_spend_no_quota(live):
    from .conftest import TEST_HTTP, serve, stop

    strict = serve(live.settings, TEST_HTTP.__class__(**{**TEST_HTTP.__dict__,
                                                          "rate_limit_per_minute": 6}))
    try:
        async with httpx.AsyncClient(base_url=strict.url, timeout=30) as client:
            api = Api(client)
            game_id, seats = await _two_player_game(api)  # 5 requests of ann's and bob's
            view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
            waiter = seats[1 - view["awaiting"][0]]
            waits = [await api.get(waiter, f"/v1/games/{game_id}/turn",
                                   params={"timeout": 0.05}) for _ in range(8)]
            counted = [await api.get(waiter, f"/v1/games/{game_id}/turn",
                                     params={"timeout": 0}) for _ in range(8)]
    finally:
        stop(strict)

    assert [r.status_code for r in waits] == [200] * 8
    assert "ratelimit-remaining" not in waits[0].headers
    assert 429 in [r.status_code for r in counted]
    limited = next(r for r in counted if r.status_code == 429)
    assert int(limited.headers["retry-after"]) >= 1
    assert limited.headers["retry-after"] in limited.json()["detail"]


@pytest.fixture
def bots_move(tmp_path):
    """A server whose bots move (in-process), on an SQLite file of this test's own."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bots.sqlite3'}"
    upgrade(url)
    live = serve(Settings(database_url=url, scheduler="in_process"))
    yield live
    stop(live)


async def test_given_a_stream_open_when_its_player_resigns_then_the_seats_cards_are_hidden(
        bots_move):
    # The stream used to keep showing the seat's draws to the player who gave it up (to the
    # bot that took it over): a resigned player watches as anyone else does.
    live = bots_move
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as client:
        api = Api(client)
        game_id, seats = await _two_player_game(api)
        bob_seat = next(s for s, p in seats.items() if p is seats[1])
        bob, ann = seats[bob_seat], seats[1 - bob_seat]
        got: list[dict] = []

        async def follow() -> None:
            async with client.stream("GET", f"/v1/games/{game_id}/events",
                                     headers={**bob.auth, "Accept": "text/event-stream"}
                                     ) as r:
                async for line in r.aiter_lines():
                    if line.startswith("data:"):
                        got.append(json.loads(line[5:]))

        stream = asyncio.create_task(follow())
        await asyncio.sleep(0.3)
        resigned = (await api.post(bob, f"/v1/games/{game_id}/resign")).json()["version"]
        rng = random.Random(2)
        for _ in range(400):  # ann plays on; the bot plays bob's old seat
            turn = (await api.get(ann, f"/v1/games/{game_id}/turn",
                                  params={"timeout": 5})).json()
            if turn["status"] == "finished":
                break
            if turn["legal_commands"]:
                await api.post(ann, f"/v1/games/{game_id}/commands",
                               rng.choice(turn["legal_commands"]))
        await asyncio.sleep(0.5)
        stream.cancel()

    bots_draws = [e["event"] for e in got if e["version"] > resigned
                  and e["event"]["type"] == "cards_drawn" and e["event"]["seat"] == bob_seat]
    assert bots_draws, "the bot drew no cards while the stream was open"
    assert all(not e.get("cards") for e in bots_draws), bots_draws[:2]
