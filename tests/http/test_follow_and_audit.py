"""Follow (event pages, SSE with resume) and audit (history, state at a version, verify)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random

import httpx
import sqlalchemy as sa
from litestar.response.sse import ServerSentEventMessage

from service.events.engine import create_engine
from service.events.tables import events
from service.http.routes.follow import WRITE_AT_MOST

from .contract_check import assert_fits


async def _game(api, *, played: int = 0):
    alice, bob = await api.player("alice"), await api.player("bob")
    game_id = await api.game(alice, [bob])
    seats = await api.seats(game_id, [alice, bob])
    rng = random.Random(7)
    for _ in range(played):
        await api.step(game_id, seats, rng)
    return game_id, seats


async def test_given_a_log_then_pages_follow_each_other_without_gaps(api):
    game_id, seats = await _game(api, played=6)

    versions, after = [], 0
    while True:
        page = (await api.get(seats[0], f"/v1/games/{game_id}/events",
                              params={"after": after, "limit": 3})).json()
        if not page["events"]:
            break
        versions += [e["version"] for e in page["events"]]
        after = page["next_after"]

    assert versions == list(range(1, page["version"] + 1))


async def test_given_after_past_the_end_then_an_empty_page_at_the_games_real_version(api):
    game_id, seats = await _game(api, played=2)
    current = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()["version"]

    page = (await api.get(seats[0], f"/v1/games/{game_id}/events",
                          params={"after": current + 50})).json()

    assert page["events"] == [] and page["version"] == current


async def test_given_the_deal_then_each_seat_sees_only_its_own_hand_in_the_log(api):
    game_id, seats = await _game(api)

    deals = {}
    for seat, who in seats.items():
        page = (await api.get(who, f"/v1/games/{game_id}/events")).json()
        (deal,) = [e["event"] for e in page["events"] if e["event"]["type"] == "round_started"]
        deals[seat] = deal

    for seat, deal in deals.items():
        assert deal["draw_pile"] is None and deal["draft_piles"] is None
        assert deal["hands"][seat] and not deal["hands"][1 - seat]


async def _sse(client: httpx.AsyncClient, url: str, headers: dict, want: int) -> list[dict]:
    got: list[dict] = []
    async with client.stream("GET", url, headers={**headers, "Accept": "text/event-stream"}
                             ) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        event: dict = {}
        async for line in r.aiter_lines():
            if line.startswith(":"):
                got.append({"comment": line})
            elif line.startswith("id:"):
                event["id"] = int(line[3:].strip())
            elif line.startswith("data:"):
                event["data"] = json.loads(line[5:].strip())
            elif line == "" and event:
                got.append(event)
                event = {}
            if len([g for g in got if "id" in g]) >= want:
                break
    return got


async def test_given_an_sse_stream_when_commands_commit_then_they_arrive_in_order(api):
    game_id, seats = await _game(api)
    url = f"/v1/games/{game_id}/events"
    start = (await api.get(seats[0], url)).json()["version"]

    stream = asyncio.create_task(_sse(api.http, url, seats[0].auth, start + 3))
    await asyncio.sleep(0.2)
    rng = random.Random(3)
    while not stream.done():
        await api.step(game_id, seats, rng)
        await asyncio.sleep(0.05)
    got = [g for g in await stream if "id" in g]

    assert [g["id"] for g in got] == list(range(1, len(got) + 1))
    assert all(g["data"]["version"] == g["id"] for g in got)


async def _raw_messages(client: httpx.AsyncClient, url: str, headers: dict, want: int
                        ) -> tuple[list[bytes], int]:
    """The stream's first `want` event messages, as the bytes that came, and the most event
    messages one chunk of the body held."""
    buffer, most = b"", 0
    async with client.stream("GET", url, headers={**headers, "Accept": "text/event-stream"}
                             ) as r:
        async for chunk in r.aiter_raw():
            buffer += chunk
            most = max(most, chunk.count(b"\r\nevent: message\r\n"))
            blocks = [b + b"\r\n\r\n" for b in buffer.split(b"\r\n\r\n")[:-1]]
            events = [b for b in blocks if b.startswith(b"id: ")]
            if len(events) >= want:
                return events[:want], most
    raise AssertionError("the stream ended early")


async def test_given_two_seats_streams_then_each_message_is_litestars_and_only_the_deal_differs(
        api):
    # What the feed holds goes in one write of up to WRITE_AT_MOST messages, each made once
    # per feed and viewer (a public one once for all): the bytes must still be what Litestar's
    # message encodes, and a seat's hand its own.
    game_id, seats = await _game(api, played=10)
    url = f"/v1/games/{game_id}/events"
    version = (await api.get(seats[0], url)).json()["version"]
    assert version > WRITE_AT_MOST  # the opening's catch-up takes more than one write

    read = await asyncio.gather(*(_raw_messages(api.http, url, seats[s].auth, version)
                                  for s in (0, 1)))
    got = [messages for messages, _ in read]
    assert all(1 < most <= WRITE_AT_MOST for _, most in read)

    for messages in got:
        for i, raw in enumerate(messages, start=1):
            data = raw.split(b"data: ", 1)[1][:-4]
            assert raw == ServerSentEventMessage(data=data.decode(), id=str(i),
                                                 event="message").encode()
            assert json.loads(data)["version"] == i
    differ = [i for i, (a, b) in enumerate(zip(*got, strict=True), start=1) if a != b]
    kinds = [json.loads(got[0][i - 1].split(b"data: ", 1)[1])["event"]["type"] for i in differ]
    assert kinds and set(kinds) <= {"round_started", "cards_drawn"}
    for seat, messages in enumerate(got):
        (deal,) = [json.loads(m.split(b"data: ", 1)[1])["event"] for m in messages
                   if b'"type":"round_started"' in m]
        assert deal["hands"][seat] and not deal["hands"][1 - seat]


async def test_given_last_event_id_then_the_stream_resumes_after_it(api):
    game_id, seats = await _game(api, played=2)
    current = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()["version"]

    got = await _sse(api.http, f"/v1/games/{game_id}/events",
                     {**seats[1].auth, "Last-Event-ID": str(current - 2)}, 2)

    assert [g["id"] for g in got if "id" in g] == [current - 1, current]


async def test_given_an_empty_last_event_id_then_the_stream_starts_from_after(api):
    # An event source that has received no id yet sends the header empty (the SSE spec's
    # reset): it resumes nowhere, so `after` (or the start) decides.
    game_id, seats = await _game(api, played=2)
    current = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()["version"]

    got = await _sse(api.http, f"/v1/games/{game_id}/events?after={current - 1}",
                     {**seats[1].auth, "Last-Event-ID": ""}, 1)

    assert [g["id"] for g in got if "id" in g] == [current]


async def test_given_a_last_event_id_that_is_no_version_then_400(api):
    # The stream's ids are versions, and EventSource sends back the last one it received:
    # anything else is a client's mistake, which resuming from the start would hide.
    game_id, seats = await _game(api, played=2)
    url = f"/v1/games/{game_id}/events"

    answers = [await api.get(seats[1], url, headers={"Accept": "text/event-stream",
                                                     "Last-Event-ID": last_id})
               for last_id in (b"\xb2", b"soon", b"-1", b"1e3", b"9" * 10)]

    for r in answers:  # "\xb2" is "²" in Latin-1: a digit to str.isdigit, not to int
        assert r.status_code == 400, r.text
        assert [e["key"] for e in r.json()["errors"]] == ["last_event_id"]


async def test_given_accept_with_q_values_then_the_stream_only_when_ranked_above_json(api):
    game_id, seats = await _game(api)
    url = f"/v1/games/{game_id}/events"
    chosen = {}
    for accept in ("text/event-stream", "text/event-stream;q=0", "*/*",
                   "application/json;q=0.9, text/event-stream;q=0.1",
                   "text/event-stream, application/json", "text/*, application/json;q=0.5"):
        async with api.http.stream("GET", url, headers={**seats[0].auth,
                                                        "Accept": accept}) as r:
            chosen[accept] = r.headers["content-type"].split(";")[0]

    assert chosen == {
        "text/event-stream": "text/event-stream",
        "text/event-stream;q=0": "application/json",
        "*/*": "application/json",
        "application/json;q=0.9, text/event-stream;q=0.1": "application/json",
        "text/event-stream, application/json": "text/event-stream",
        "text/*, application/json;q=0.5": "text/event-stream",
    }


async def test_given_an_idle_stream_then_heartbeats_arrive_as_comments_only(api):
    game_id, seats = await _game(api)
    current = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()["version"]
    url = f"/v1/games/{game_id}/events?after={current}"

    async def first_block() -> list[str]:
        """The lines up to the first blank one: one SSE message block."""
        block: list[str] = []
        async with api.http.stream("GET", url, headers={**seats[0].auth,
                                                        "Accept": "text/event-stream"}) as r:
            async for line in r.aiter_lines():
                if not line and block:
                    return block
                if line:
                    block.append(line)
        return block

    # A `data:` line, even empty, would make EventSource fire an empty `message` event.
    assert await asyncio.wait_for(first_block(), 5) == [": heartbeat"]


async def test_given_a_running_game_then_history_is_closed_to_seats_and_open_when_done(api):
    game_id, seats = await _game(api)

    running = await api.get(seats[1], f"/v1/games/{game_id}/history")
    await api.play_out(game_id, seats, random.Random(5))
    done = await api.get(seats[1], f"/v1/games/{game_id}/history")

    assert running.status_code == 403 and running.json()["code"] == "game_not_finished"
    assert done.status_code == 200
    assert done.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in done.text.splitlines()]
    assert [x["version"] for x in lines] == list(range(1, len(lines) + 1))
    deal = next(x for x in lines if x["type"] == "round_started")
    assert deal["data"]["draw_pile"]  # unredacted


async def test_given_json_pages_of_the_history_then_they_hold_the_ndjson_lines(api):
    # Generated clients read JSON only: the same lines, a page at a time, same access rules.
    game_id, seats = await _game(api)
    running = await api.get(seats[1], f"/v1/games/{game_id}/history/page")
    await api.play_out(game_id, seats, random.Random(5))
    lines = [json.loads(x) for x in
             (await api.get(seats[1], f"/v1/games/{game_id}/history")).text.splitlines()]

    pages, after = [], 0
    while True:
        r = await api.get(seats[1], f"/v1/games/{game_id}/history/page",
                          params={"after": after, "limit": 50})
        assert r.status_code == 200 and r.json()["version"] == len(lines)
        assert_fits(r, "/v1/games/{game_id}/history/page")
        if not r.json()["lines"]:
            break
        pages.append(r.json()["lines"])
        after = r.json()["next_after"]

    assert running.status_code == 403 and running.json()["code"] == "game_not_finished"
    assert [line for page in pages for line in page] == lines
    assert all(len(page) <= 50 for page in pages) and len(pages) > 1


async def test_given_the_history_alone_then_an_auditor_recomputes_every_hash(api):
    game_id, seats = await _game(api)
    await api.play_out(game_id, seats, random.Random(6))
    lines = (await api.get(seats[0], f"/v1/games/{game_id}/history")).text.splitlines()

    def compact(value: object) -> bytes:  # as the contract's `HistoryLine.hash` says
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()

    previous = "0" * 64
    for line in map(json.loads, lines):
        header = [game_id, line["version"], line["type"], line["schema_version"],
                  line["visibility"], line["command_id"], line["actor"]]
        digest = hashlib.sha256(previous.encode() + compact(header) + b"\n"
                                + compact(line["data"])).hexdigest()
        assert digest == line["hash"], line["version"]
        previous = digest
    assert len(lines) > 50 and json.loads(lines[-1])["type"] == "game_ended"


async def test_given_a_creator_without_a_seat_then_history_is_open_while_it_runs(api):
    host, bob, carol = await api.player(), await api.player(), await api.player()
    r = await api.post(host, "/v1/games", {"ruleset": {"players": 2}, "join": False})
    game_id = r.json()["game_id"]
    for p in (bob, carol):
        await api.post(p, f"/v1/games/{game_id}/seats")
    await api.post(host, f"/v1/games/{game_id}/start")

    history = await api.get(host, f"/v1/games/{game_id}/history")

    assert history.status_code == 200 and "round_started" in history.text


async def test_given_a_creator_who_played_and_resigned_then_history_stays_closed(api):
    # Resigned, the creator holds no seat, but it saw its hand and could relay the other
    # hands the log shows to a player still seated.
    host, bob, carol = await api.player(), await api.player(), await api.player()
    game_id = await api.game(host, [bob, carol])
    resigned = await api.post(host, f"/v1/games/{game_id}/resign")

    history = await api.get(host, f"/v1/games/{game_id}/history")

    assert resigned.status_code == 200, resigned.text
    assert history.status_code == 403 and history.json()["code"] == "game_not_finished"


async def test_given_a_creator_who_left_before_the_deal_then_history_is_open(api):
    host, bob, carol = await api.player(), await api.player(), await api.player()
    game_id = await api.game(host, [bob], start=False, ruleset={"players": 2})
    await api.post(host, f"/v1/games/{game_id}/leave")
    await api.post(carol, f"/v1/games/{game_id}/seats")
    await api.post(host, f"/v1/games/{game_id}/start")

    history = await api.get(host, f"/v1/games/{game_id}/history")

    assert history.status_code == 200 and "round_started" in history.text


async def test_given_an_earlier_version_then_state_shows_my_view_as_it_was(api):
    game_id, seats = await _game(api, played=3)
    now = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()

    then = await api.get(seats[0], f"/v1/games/{game_id}/state", params={"version": 4})
    current = await api.get(seats[0], f"/v1/games/{game_id}/state",
                            params={"version": now["version"]})
    future = await api.get(seats[0], f"/v1/games/{game_id}/state",
                           params={"version": now["version"] + 1})
    missing = await api.get(seats[0], f"/v1/games/{game_id}/state")

    assert then.status_code == 200 and then.json()["version"] == 4
    assert current.json()["view"] == now["view"]
    assert then.json()["view"]["seats"][1]["hand_count"] > 0
    assert future.status_code == 404 and future.json()["code"] == "version_not_found"
    assert missing.status_code == 400


async def test_given_a_log_damaged_in_the_database_then_a_clear_problem_not_a_bare_500(api,
                                                                                      live):
    # Someone with write access changed a stored event's type: the reads that decode or replay
    # the log say which version breaks and point at /verify, which names the damage.
    game_id, seats = await _game(api, played=2)
    engine = create_engine(live.settings.database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.update(events).where(events.c.game_id == game_id,
                                                       events.c.version == 3)
                               .values(type="bogus"))
    finally:
        await engine.dispose()

    page = await api.get(seats[0], f"/v1/games/{game_id}/events")
    state = await api.get(seats[0], f"/v1/games/{game_id}/state", params={"version": 4})
    verified = await api.get(seats[0], f"/v1/games/{game_id}/verify")

    for r in (page, state):
        assert r.status_code == 500 and r.json()["code"] == "damaged_log", r.text
        assert "version 3" in r.json()["detail"] and "/verify" in r.json()["detail"]
    assert verified.status_code == 200 and verified.json()["ok"] is False
    assert verified.json()["first_bad_version"] == 3
