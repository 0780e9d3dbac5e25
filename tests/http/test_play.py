"""Play: the view and its ETag, legal commands, commands with their headers, and every error."""

from __future__ import annotations

import asyncio
import random
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import httpx
from litestar import post
from litestar.testing import create_test_client

from service.http.bodies import BodyRequest
from service.http.problems import EXCEPTION_HANDLERS

from .api import Api
from .conftest import TEST_HTTP, serve, stop
from .contract_check import DOCUMENT


async def _two_player_game(api):
    alice, bob = await api.player("alice"), await api.player("bob")
    game_id = await api.game(alice, [bob])
    seats = await api.seats(game_id, [alice, bob])
    return game_id, seats


async def _first_move(api):
    """A new two-player game, its seats, its first view, the player to move and their first
    legal command."""
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    me = seats[view["awaiting"][0]]
    command = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"][0]
    return game_id, seats, view, me, command


async def test_given_a_started_game_then_each_seat_sees_its_own_hand_and_the_version_etag(api):
    game_id, seats = await _two_player_game(api)

    views = {s: await api.get(p, f"/v1/games/{game_id}/view") for s, p in seats.items()}

    for seat, r in views.items():
        body = r.json()
        assert r.status_code == 200 and body["seat"] == seat
        assert r.headers["etag"] == f'"{body["version"]}"'
        # One ETag, two hands: no cache may hand one seat's view to another.
        assert r.headers["vary"] == "Authorization"
        assert r.headers["cache-control"] == "private, no-cache"
        assert len(body["view"]["hand"]) == body["view"]["seats"][seat]["hand_count"]
    assert set(views[0].json()["view"]["hand"]).isdisjoint(views[1].json()["view"]["hand"])


async def test_given_the_current_etag_when_if_none_match_then_304(api):
    game_id, seats = await _two_player_game(api)
    first = await api.get(seats[0], f"/v1/games/{game_id}/view")

    etag = first.headers["etag"]
    url = f"/v1/games/{game_id}/view"

    again = await api.get(seats[0], url, headers={"If-None-Match": etag})
    in_a_list = await api.get(seats[0], url, headers={"If-None-Match": f'"0", {etag}'})
    other = await api.get(seats[0], url, headers={"If-None-Match": '"0"'})
    too_long = await api.get(seats[0], url, headers={"If-None-Match": ', '.join(['"1"'] * 14)})

    assert again.status_code == in_a_list.status_code == 304
    assert again.headers["etag"] == in_a_list.headers["etag"] == etag
    assert again.headers["vary"] == "Authorization"
    assert other.status_code == 200 and other.json() == first.json()
    assert too_long.status_code == 400 and too_long.json()["code"] == "malformed_request"
    assert too_long.json()["errors"] == [{"message": "Expected `str` of length <= 64",
                                          "key": "if_none_match", "source": "header"}]


async def test_given_a_weak_etag_or_a_star_when_if_none_match_then_304(api):
    # RFC 9110 §13.1.2: If-None-Match compares weakly, and * matches any version (were 200s)
    game_id, seats = await _two_player_game(api)
    url = f"/v1/games/{game_id}/view"
    etag = (await api.get(seats[0], url)).headers["etag"]

    weak = await api.get(seats[0], url, headers={"If-None-Match": f"W/{etag}"})
    star = await api.get(seats[0], url, headers={"If-None-Match": "*"})
    weak_other = await api.get(seats[0], url, headers={"If-None-Match": 'W/"0"'})

    assert weak.status_code == star.status_code == 304
    assert weak.headers["etag"] == star.headers["etag"] == etag
    assert weak_other.status_code == 200


async def test_given_the_pending_seat_then_legal_commands_post_as_they_are(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    me, other = seats[view["awaiting"][0]], seats[1 - view["awaiting"][0]]

    legal = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()
    idle = (await api.get(other, f"/v1/games/{game_id}/legal-commands")).json()
    r = await api.post(me, f"/v1/games/{game_id}/commands", legal["commands"][0])

    assert legal["commands"] and idle["commands"] == []
    assert r.status_code == 200
    assert r.json()["version"] > view["version"] and r.json()["committed"] is True
    assert [e["version"] for e in r.json()["events"]] == list(
        range(view["version"] + 1, r.json()["version"] + 1))


async def test_given_dry_run_then_events_come_back_and_nothing_is_committed(api):
    game_id, _seats, view, me, command = await _first_move(api)

    dry = await api.post(me, f"/v1/games/{game_id}/commands", command,
                         params={"dry_run": "true"})
    after = (await api.get(me, f"/v1/games/{game_id}/view")).json()

    assert dry.status_code == 200 and dry.json()["committed"] is False and dry.json()["events"]
    assert after["version"] == view["version"]


async def test_given_a_dry_run_with_a_used_key_then_never_the_committed_result(api):
    game_id, _seats, _view, me, command = await _first_move(api)
    key = {"Idempotency-Key": "move-1"}

    sent = await api.post(me, f"/v1/games/{game_id}/commands", command, headers=key)
    dry = await api.post(me, f"/v1/games/{game_id}/commands", command, headers=key,
                         params={"dry_run": "true"})

    assert sent.status_code == 200 and sent.json()["committed"] is True
    # Decided afresh on the game as it is now: refused, or what it would do, uncommitted.
    assert dry.status_code in (409, 422) or dry.json()["committed"] is False, dry.text
    assert dry.status_code != 200 or not dry.json()["replayed"]


async def test_given_a_dry_run_of_a_challenge_then_it_stops_before_the_defenders_answer(api):
    # Whether the defender answers or concedes at once depends on its hand: a dry run that
    # showed the automatic concession would tell the challenger what that hand lacks.
    game_id, seats = await _two_player_game(api)
    rng = random.Random(3)
    path = f"/v1/games/{game_id}/commands"
    for _ in range(400):
        view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
        me = seats[view["awaiting"][0]]
        legal = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"]
        challenges = [c for c in legal if c["type"] == "challenge"]
        if challenges:
            break
        assert (await api.post(me, path, rng.choice(legal))).status_code == 200
    else:
        raise AssertionError("no challenge came up")

    dry = (await api.post(me, path, challenges[0], params={"dry_run": "true"})).json()
    real = (await api.post(me, path, challenges[0])).json()

    assert [e["event"]["type"] for e in dry["events"]] == ["challenge_opened"]
    assert dry["partial"] is True and dry["version"] == view["version"] + 1
    assert real["partial"] is False and real["events"][0] == dry["events"][0]


async def test_given_an_idempotency_key_when_a_command_is_retried_then_the_first_result(api):
    game_id, _seats, _view, me, command = await _first_move(api)
    key = {"Idempotency-Key": "cmd-1"}

    first = await api.post(me, f"/v1/games/{game_id}/commands", command, headers=key)
    second = await api.post(me, f"/v1/games/{game_id}/commands", command, headers=key)
    other = await api.post(me, f"/v1/games/{game_id}/commands", {"type": "end_turn"},
                           headers=key)

    assert second.status_code == 200 and second.json()["replayed"] is True
    assert second.json()["version"] == first.json()["version"]
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"


async def test_given_two_players_sending_the_same_idempotency_key_then_each_command_acts(api):
    # Keys are scoped to the player who sends them: bots that count their commands from 1
    # must not get each other's 409 (or each other's first outcome). 128 characters: the most
    # the contract allows, which the scoped id must still fit.
    game_id, seats = await _two_player_game(api)
    key = {"Idempotency-Key": "k" * 128}
    sent: dict[int, int] = {}
    while len(sent) < 2:
        view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
        seat = view["awaiting"][0]
        me = seats[seat]
        command = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"][0]
        r = await api.post(me, f"/v1/games/{game_id}/commands", command,
                           headers=key if seat not in sent else {})
        assert r.status_code == 200, r.text
        if seat not in sent:
            assert r.json()["replayed"] is False
            sent[seat] = r.json()["version"]
    assert sent[0] != sent[1]


async def test_given_a_player_claims_the_key_of_a_bots_next_move_then_the_bot_still_moves(live):
    # The workers name a bot's move `due:<version>:bot_turn`. A player who learned (by a dry
    # run) the version their command leads to, and sent it under that name, held the bot's
    # move back for good: its command id was taken, so every copy of its job gave up.
    server = serve(replace(live.settings, scheduler="in_process"))  # this one moves bots
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            await _claim_the_bots_keys(Api(client))
    finally:
        stop(server)


async def _claim_the_bots_keys(api: Api) -> None:
    alice = await api.player("alice")
    r = await api.post(alice, "/v1/games", {"ruleset": {"players": 2, "end_mode": "quick"},
                                            "bots": [{"level": "random"}]})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    path = f"/v1/games/{game_id}/commands"
    assert (await api.post(alice, f"/v1/games/{game_id}/start")).status_code == 200
    view = (await api.get(alice, f"/v1/games/{game_id}/view")).json()
    claimed = 0
    while claimed < 3 and view["status"] != "finished":
        if view["awaiting"] != [view["seat"]]:  # the bot's move: it must come
            before = view["version"]
            view = (await api.get(alice, f"/v1/games/{game_id}/view", params={
                "wait_for_version": before + 1, "timeout": 10})).json()
            assert view["version"] > before, f"the game stopped at {before}, the bot to move"
            continue
        command = (await api.get(alice, f"/v1/games/{game_id}/legal-commands")).json()[
            "commands"][0]
        dry = await api.post(alice, path, command, params={"dry_run": "true"})
        r = await api.post(alice, path, command,
                           headers={"Idempotency-Key": f"due:{dry.json()['version']}:bot_turn"})
        assert r.status_code == 200, r.text
        view = (await api.get(alice, f"/v1/games/{game_id}/view")).json()
        claimed += view["awaiting"] != [view["seat"]]
    assert claimed == 3 or view["status"] == "finished"


async def test_given_a_stale_if_match_then_409_with_the_current_version(api):
    game_id, seats, view, me, command = await _first_move(api)

    r = await api.post(me, f"/v1/games/{game_id}/commands", command,
                       headers={"If-Match": f'"{view["version"] - 1}"'})
    ok = await api.post(me, f"/v1/games/{game_id}/commands", command,
                        headers={"If-Match": f'"{view["version"]}"'})
    bad = [await api.post(me, f"/v1/games/{game_id}/commands", command,
                          headers={"If-Match": tag}) for tag in ("yesterday", b'"\xb2"', "**")]
    after = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    following = (await api.get(seats[after["awaiting"][0]],
                               f"/v1/games/{game_id}/legal-commands")).json()["commands"][0]
    anything = await api.post(seats[after["awaiting"][0]], f"/v1/games/{game_id}/commands",
                              following, headers={"If-Match": "*"})  # RFC 9110: any version

    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    assert r.json()["current_version"] == view["version"]
    assert ok.status_code == 200
    for answer in bad:  # b"\xb2" reads as "²" in Latin-1: a digit to str.isdigit, not to int
        assert answer.status_code == 400 and answer.json()["code"] == "malformed_request"
    assert anything.status_code == 200, anything.text
    assert anything.json()["version"] > after["version"]


async def test_given_the_other_seat_when_it_sends_a_command_then_409_not_your_decision(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    other = seats[1 - view["awaiting"][0]]

    r = await api.post(other, f"/v1/games/{game_id}/commands", {"type": "end_turn"})

    assert r.status_code == 409 and r.json()["code"] == "not_your_decision"


async def test_given_an_illegal_command_then_422_with_the_rule_and_legal_commands(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    me = seats[view["awaiting"][0]]

    r = await api.post(me, f"/v1/games/{game_id}/commands", {"type": "discard", "card": "x#1"})
    after = (await api.get(me, f"/v1/games/{game_id}/view")).json()

    assert r.status_code == 422 and r.json()["code"] == "rule_violation"
    assert r.json()["rule"] and r.json()["legal_commands"]
    assert r.json()["legal_commands"] == (
        await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"]
    assert after["version"] == view["version"]  # nothing half-written


async def test_given_malformed_or_huge_bodies_then_400_and_413_never_500(api):
    game_id, seats = await _two_player_game(api)
    url = f"/v1/games/{game_id}/commands"
    auth = seats[0].auth

    not_json = await api.http.post(url, content=b"{nope", headers=auth)
    wrong_type = await api.post(seats[0], url, {"type": "discard", "card": 7})
    unknown_field = await api.post(seats[0], url, {"type": "end_turn", "please": True})
    huge = await api.http.post(url, content=b'{"type":"end_turn","x":"' + b"a" * 200_000
                               + b'"}', headers={**auth, "content-type": "application/json"})

    for r in (not_json, wrong_type, unknown_field):
        assert r.status_code == 400 and r.json()["code"] == "malformed_request", r.text
    assert huge.status_code == 413 and huge.json()["code"] == "body_too_large"


async def test_given_a_body_not_utf8_or_nested_too_deep_then_400_on_every_body_route(api):
    game_id, seats = await _two_player_game(api)
    headers = {**seats[0].auth, "content-type": "application/json"}
    not_utf8 = b'{"name": "\xff"}'
    too_deep = b'{"a":' * 5000 + b"1" + b"}" * 5000

    # Each body is decoded into its route's type and refused at its first misfit: an unknown
    # field, or the text that is not UTF-8 (a player's name, here).
    answers = {(path, kind): await api.http.post(path, content=body, headers=headers)
               for path in ("/v1/players", "/v1/games", f"/v1/games/{game_id}/seats",
                            f"/v1/games/{game_id}/bots", f"/v1/games/{game_id}/commands")
               for kind, body in (("not utf8", not_utf8), ("too deep", too_deep))}

    assert {(key, r.status_code, r.json()["code"]) for key, r in answers.items()} == {
        (key, 400, "malformed_request") for key in answers}
    assert "UTF-8" in answers["/v1/players", "not utf8"].json()["detail"]


def test_given_a_body_type_admitting_any_json_then_a_body_nested_too_deep_is_400():
    # No route of the API admits JSON of any depth today; one that did must still not 500.
    @post("/echo")
    async def echo(data: dict[str, Any]) -> int:
        return len(data)

    too_deep = b'{"a":' * 5000 + b"1" + b"}" * 5000
    with create_test_client([echo], request_class=BodyRequest,
                            exception_handlers=EXCEPTION_HANDLERS) as client:
        r = client.post("/echo", content=too_deep, headers={"content-type": "application/json"})
        fine = client.post("/echo", json={"a": {"b": 1}})

    assert r.status_code == 400 and "nested too deeply" in r.json()["detail"], r.text
    assert fine.status_code == 201 and fine.json() == 1


async def test_given_no_body_where_one_is_required_then_400_saying_so(api):
    game_id, seats = await _two_player_game(api)
    paths = DOCUMENT["paths"]
    needing = [(method, path) for path, item in paths.items() for method, op in item.items()
               if op.get("requestBody", {}).get("required")]

    for method, path in needing:
        r = await api.http.request(method.upper(), path.replace("{game_id}", game_id),
                                   headers=seats[0].auth)

        assert r.status_code == 400, (path, r.text)
        assert r.json()["errors"] == [{"message": "This operation needs a JSON body.",
                                       "key": "data", "source": "body"}]
    assert sorted(path for _, path in needing) == [
        "/v1/challenges", "/v1/games",
        "/v1/games/{game_id}/client-seed", "/v1/games/{game_id}/commands",
        "/v1/games/{game_id}/reactions", "/v1/matchmaking",
        "/v1/tournaments", "/v1/webhooks/bot", "/v1/webhooks/subscriptions"]


async def test_given_someone_without_a_seat_then_403_for_seat_resources(api):
    game_id, _seats = await _two_player_game(api)
    eve = await api.player("eve")

    legal = await api.get(eve, f"/v1/games/{game_id}/legal-commands")
    command = await api.post(eve, f"/v1/games/{game_id}/commands", {"type": "end_turn"})
    watch = await api.get(eve, f"/v1/games/{game_id}/view")

    assert legal.status_code == 403 and legal.json()["code"] == "not_seated"
    assert command.status_code == 403
    assert watch.status_code == 200 and watch.json()["seat"] is None
    assert watch.json()["view"]["hand"] is None


async def test_given_a_long_poll_when_another_seat_moves_then_the_view_arrives(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    me = seats[view["awaiting"][0]]
    watcher = seats[1 - view["awaiting"][0]]
    command = (await api.get(me, f"/v1/games/{game_id}/legal-commands")).json()["commands"][0]

    poll = asyncio.create_task(api.get(watcher, f"/v1/games/{game_id}/view", params={
        "wait_for_version": view["version"] + 1, "timeout": 10}))
    await asyncio.sleep(0.2)
    assert not poll.done()
    await api.post(me, f"/v1/games/{game_id}/commands", command)
    r = await asyncio.wait_for(poll, 5)

    assert r.json()["version"] > view["version"]


async def test_given_a_long_poll_with_nothing_happening_then_it_times_out_as_it_stands(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()

    r = await api.get(seats[0], f"/v1/games/{game_id}/view", params={
        "wait_for_version": view["version"] + 5, "timeout": 0.3})

    assert r.status_code == 200 and r.json()["version"] == view["version"]


async def test_given_a_long_poll_past_the_end_then_it_answers_when_the_game_ends(api):
    game_id, seats = await _two_player_game(api)
    view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
    far = {"wait_for_version": view["version"] + 100_000, "timeout": 30}

    poll = asyncio.create_task(api.get(seats[0], f"/v1/games/{game_id}/view", params=far))
    await api.play_out(game_id, seats, random.Random(2))
    ended = asyncio.get_running_loop().time()
    during = await asyncio.wait_for(poll, 10)
    answered = asyncio.get_running_loop().time()
    started = asyncio.get_running_loop().time()
    after = await api.get(seats[1], f"/v1/games/{game_id}/view", params=far)

    assert during.json()["status"] == "finished" and answered - ended < 3
    assert after.json()["status"] == "finished"
    assert after.json()["version"] == during.json()["version"]
    assert asyncio.get_running_loop().time() - started < 3


async def test_given_a_whole_game_played_through_the_api_then_it_finishes_and_verifies(api):
    game_id, seats = await _two_player_game(api)

    await api.play_out(game_id, seats, random.Random(1))
    verify = await api.get(seats[0], f"/v1/games/{game_id}/verify")
    late = await api.post(seats[0], f"/v1/games/{game_id}/commands", {"type": "end_turn"})

    assert verify.status_code == 200 and verify.json()["ok"] is True
    assert verify.json()["rounds_verified"] >= 1
    assert late.status_code == 422 and late.json()["rule"] == "game_over"


@asynccontextmanager
async def _seat_resigned_behind_a_stale_process(live, http=TEST_HTTP):
    """A second API process on the same database whose cache still has me in the seat that I
    have just resigned through the first: (that process's client, game, me, the command I
    could send before)."""
    second = serve(live.settings, http)
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as one, \
                httpx.AsyncClient(base_url=second.url, timeout=30) as other:
            api, stale = Api(one), Api(other)
            game_id, seats = await _two_player_game(api)
            view = (await stale.get(seats[0], f"/v1/games/{game_id}/view")).json()
            me = seats[view["awaiting"][0]]
            legal = (await stale.get(me, f"/v1/games/{game_id}/legal-commands")).json()
            assert (await api.post(me, f"/v1/games/{game_id}/resign")).status_code == 200
            yield stale, game_id, me, legal["commands"][0]
    finally:
        stop(second)


async def test_given_another_process_handed_my_seat_to_a_bot_then_my_command_is_403(live):
    async with _seat_resigned_behind_a_stale_process(live) as (stale, game_id, me, command):
        # Decided on the stale cache, refused on the fresh state of the retry.
        r = await stale.post(me, f"/v1/games/{game_id}/commands", command)

    assert r.status_code == 403 and r.json()["code"] == "not_seated", r.text


async def test_given_another_process_handed_my_seat_to_a_bot_then_it_is_not_mine_here(live):
    # Views from the projection rows, as replicas read them.
    async with _seat_resigned_behind_a_stale_process(
            live, replace(TEST_HTTP, views_from_memory=False)) as (stale, game_id, me, _):
        # In this order: both answer on the stale cache (legal-commands then refreshes it).
        mine = await stale.get(me, f"/v1/games/{game_id}/view")
        legal = await stale.get(me, f"/v1/games/{game_id}/legal-commands")

    assert mine.status_code == 200 and mine.json()["seat"] is None
    assert mine.json()["view"]["hand"] is None  # the bot's hand now
    assert legal.status_code == 403 and legal.json()["code"] == "not_seated"


async def test_given_malformed_command_headers_then_400_naming_the_header(api):
    game_id, _seats, view, me, command = await _first_move(api)
    url = f"/v1/games/{game_id}/commands"
    pattern = r'^((W/)?"?[0-9]{1,9}"?|\*)$'

    answers = {bad: await api.post(me, url, command, headers={name: value})
               for bad, (name, value) in {
                   "key": ("Idempotency-Key", "k" * 129),
                   # A client that sends the header empty when it has no key would else meet
                   # its own first command's outcome on the second.
                   "empty key": ("Idempotency-Key", ""),
                   "tag": ("If-Match", "yesterday"),
                   "long tag": ("If-Match", '"' + "1" * 40 + '"'),
               }.items()}

    errors = {bad: (r.status_code, r.json()["code"], r.json()["errors"])
              for bad, r in answers.items()}
    assert errors == {
        "key": (400, "malformed_request", [{"message": "Expected `str` of length <= 128",
                                            "key": "idempotency_key", "source": "header"}]),
        "empty key": (400, "malformed_request", [{"message": "Expected `str` of length >= 1",
                                                  "key": "idempotency_key",
                                                  "source": "header"}]),
        "tag": (400, "malformed_request", [{"message": f"Expected `str` matching regex "
                                                       f"{pattern!r}",
                                            "key": "if_match", "source": "header"}]),
        "long tag": (400, "malformed_request", [{"message": "Expected `str` of length <= 32",
                                                 "key": "if_match", "source": "header"}]),
    }
    # None of them acted.
    assert (await api.get(me, f"/v1/games/{game_id}/view")).json()["version"] == view["version"]
