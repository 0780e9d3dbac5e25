"""The lobby: create, list, read, join, bots, start, leave, resign."""

from __future__ import annotations

import base64
from urllib.parse import quote

from .contract_check import DOCUMENT


async def test_given_a_ruleset_and_bots_when_a_game_is_created_then_201_with_the_seats(api):
    alice = await api.player()

    r = await api.post(alice, "/v1/games", {
        "ruleset": {"players": 4}, "bots": [{"level": "greedy", "seat": 3}, {}],
        "turn_clock": 60, "public": False,
        "timeout_policy": {"bot_level": "greedy", "hand_over_after": None},
    })
    listed = await api.get(alice, "/v1/games", params={"mine": "true"})

    assert r.status_code == 201, r.text
    g = r.json()
    assert r.headers["location"] == f"/v1/games/{g['game_id']}"
    assert g["status"] == "lobby" and g["public"] is False and g["turn_clock"] == 60
    assert g["timeout_policy"] == {"bot_level": "greedy", "hand_over_after": None}
    assert listed.json()["games"] == [g]
    assert g["seats"] == [{"kind": "human", "player_id": alice.player_id},
                          {"kind": "bot", "level": "random"}, None,
                          {"kind": "bot", "level": "greedy"}]


async def test_given_open_seats_when_players_join_and_the_creator_starts_then_it_plays(api):
    alice, bob = await api.player(), await api.player()
    game_id = await api.game(alice, [bob], start=False)

    started = await api.post(alice, f"/v1/games/{game_id}/start")
    detail = await api.get(bob, f"/v1/games/{game_id}")

    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert detail.json()["summary"]["status"] == "playing"
    assert detail.json()["view"]["hand"] is None  # the spectator's view


async def test_given_an_open_seat_when_start_then_422_with_the_engine_code(api):
    alice = await api.player()
    game_id = await api.game(alice, [], start=False, ruleset={"players": 2})

    r = await api.post(alice, f"/v1/games/{game_id}/start")

    assert r.status_code == 422
    assert r.json()["code"] == "rule_violation" and r.json()["rule"] == "seats_open"


async def test_given_a_player_who_is_not_the_creator_when_they_start_then_403(api):
    alice, bob = await api.player(), await api.player()
    game_id = await api.game(alice, [bob], start=False)

    r = await api.post(bob, f"/v1/games/{game_id}/start")
    bot = await api.post(bob, f"/v1/games/{game_id}/bots", {"level": "random"})

    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    assert bot.status_code == 403


async def test_given_a_seat_when_the_player_leaves_before_the_start_then_it_opens(api):
    alice, bob, carol = await api.player(), await api.player(), await api.player()
    game_id = await api.game(alice, [bob], start=False)

    left = await api.post(bob, f"/v1/games/{game_id}/leave")
    joined = await api.post(carol, f"/v1/games/{game_id}/seats", {"seat": 1})
    taken = await api.post(bob, f"/v1/games/{game_id}/seats", {"seat": 1})

    assert left.status_code == 200 and left.json()["seats"][1] is None
    assert joined.json()["seats"][1]["player_id"] == carol.player_id
    assert taken.status_code == 422 and taken.json()["rule"] == "seat_taken"


async def test_given_a_running_game_when_a_player_resigns_then_a_bot_takes_the_seat(api):
    alice, bob = await api.player(), await api.player()
    game_id = await api.game(alice, [bob])

    r = await api.post(bob, f"/v1/games/{game_id}/resign")
    again = await api.post(bob, f"/v1/games/{game_id}/resign")
    leave = await api.post(alice, f"/v1/games/{game_id}/leave")

    assert r.status_code == 200
    assert r.json()["seats"][1] == {"kind": "bot", "level": "random"}
    assert again.status_code == 403 and again.json()["code"] == "not_seated"
    assert leave.status_code == 422 and leave.json()["rule"] == "already_started"


async def test_given_no_seat_when_leaving_then_403_not_seated_as_on_every_route(api):
    alice, bob = await api.player(), await api.player()
    game_id = await api.game(alice, [], start=False, ruleset={"players": 2})

    r = await api.post(bob, f"/v1/games/{game_id}/leave")

    assert r.status_code == 403 and r.json()["code"] == "not_seated"


async def test_given_games_when_the_lobby_is_listed_then_filters_and_cursor_pages(api):
    alice = await api.player()
    ids = [await api.game(alice, [], start=False, ruleset={"players": 6, "edition":
                                                             "classic_2011"}) for _ in range(3)]
    await api.game(alice, [], start=False, public=False, ruleset={"players": 6})

    first = await api.get(alice, "/v1/games", params={"players": 6, "status": "lobby",
                                                      "limit": 2})
    second = await api.get(alice, "/v1/games", params={
        "players": 6, "status": "lobby", "limit": 2, "cursor": first.json()["next_cursor"]})
    classic = await api.get(alice, "/v1/games", params={"edition": "classic_2011",
                                                        "limit": 100})
    quick = await api.get(alice, "/v1/games", params={"edition": "classic_2011",
                                                      "end_mode": "quick", "limit": 100})

    listed = [g["game_id"] for g in first.json()["games"] + second.json()["games"]]
    assert listed[:3] == ids[::-1]
    assert all(g["public"] for g in first.json()["games"] + second.json()["games"])
    assert set(ids) <= {g["game_id"] for g in classic.json()["games"]}
    assert all(g["ruleset"]["edition"] == "classic_2011" for g in classic.json()["games"])
    assert not set(ids) & {g["game_id"] for g in quick.json()["games"]}


async def test_given_mine_then_the_games_i_sit_in_or_created_private_ones_too(api):
    alice, bob, carol = [await api.player(n) for n in ("alice", "bob", "carol")]
    seated = await api.game(alice, [bob], start=False, public=False, ruleset={"players": 3})
    created_only = await api.game(bob, [], start=False, join=False, ruleset={"players": 2})
    resigned = await api.game(carol, [bob], ruleset={"players": 2, "end_mode": "quick"})
    await api.game(alice, [], start=False, ruleset={"players": 2})  # not bob's
    assert (await api.post(bob, f"/v1/games/{resigned}/resign")).status_code == 200

    bobs = await api.get(bob, "/v1/games", params={"mine": "true", "limit": 100})
    bobs_lobby = await api.get(bob, "/v1/games", params={"mine": "true", "status": "lobby"})
    carols = await api.get(carol, "/v1/games", params={"mine": "true"})
    public = await api.get(bob, "/v1/games", params={"limit": 100})

    assert bobs.status_code == 200, bobs.text
    assert [g["game_id"] for g in bobs.json()["games"]] == [created_only, seated]
    assert [g["game_id"] for g in bobs_lobby.json()["games"]] == [created_only, seated]
    assert [g["game_id"] for g in carols.json()["games"]] == [resigned]  # carol still sits
    assert seated not in {g["game_id"] for g in public.json()["games"]}  # private
    # Each summary names the creator and the players seated; bob resigned his seat to a bot.
    assert [g["names"] for g in bobs.json()["games"]] == [
        {bob.player_id: "bob"}, {alice.player_id: "alice", bob.player_id: "bob"}]
    assert carols.json()["games"][0]["names"] == {carol.player_id: "carol"}


async def test_given_a_bad_cursor_or_filter_then_400(api):
    alice = await api.player()

    def forged(token: bytes) -> str:
        return base64.urlsafe_b64encode(token).decode()

    bad_cursors = [await api.get(alice, "/v1/games", params={"cursor": cursor}) for cursor in (
        "!!",
        forged(b"2026-11-24T07:18:28+00:00|a\x00b"),  # PostgreSQL refuses a NUL in text
        forged(b"2026-11-24T07:18:28|ab"),  # no time zone
        # In UTC before year 1 or after 9999: asyncpg could not send it (was a 500)
        forged(b"0001-01-01T00:00:00+14:00|ab"),
        forged(b"9999-12-31T23:59:59-14:00|ab"),
    )]
    bad_status = await api.get(alice, "/v1/games", params={"status": "nope"})

    for r in bad_cursors:
        assert r.status_code == 400 and r.json()["code"] == "malformed_request", r.text
    assert bad_status.status_code == 400
    assert bad_status.json()["errors"][0]["allowed"] == ["abandoned", "expired", "finished",
                                                         "lobby", "playing"]


async def test_given_an_unknown_query_parameter_then_400_naming_those_there_are(api):
    # As an unknown body field: a misspelt filter ignored would list the wrong games.
    alice = await api.player()
    game_id = await api.game(alice, [], start=False, ruleset={"players": 2})

    typo = await api.get(alice, "/v1/games", params={"edtion": "de_2024"})
    on_view = await api.get(alice, f"/v1/games/{game_id}/view", params={"wait": "3"})
    known = await api.get(alice, f"/v1/games/{game_id}/view", params={"timeout": "0"})
    keyless = await api.http.get("/v1/games", params={"edtion": "de_2024"})

    assert typo.status_code == 400 and typo.json()["errors"] == [{
        "message": "Unknown query parameter; this operation takes: cursor, edition, end_mode, "
                   "limit, mine, players, status",
        "key": "edtion", "source": "query",
        "allowed": ["cursor", "edition", "end_mode", "limit", "mine", "players", "status"]}]
    assert on_view.status_code == 400
    assert on_view.json()["errors"][0]["allowed"] == ["timeout", "wait_for_version"]
    assert known.status_code == 200
    # The lobby is open to watchers without a key: the parameter is what is wrong.
    assert keyless.status_code == 400 and keyless.json()["errors"] == typo.json()["errors"]


async def test_given_a_value_outside_a_fixed_set_then_the_400_lists_the_allowed_ones(api):
    alice = await api.player()

    level = await api.post(alice, "/v1/games", {"ruleset": {"players": 2},
                                                "bots": [{"level": "smart"}]})
    edition = await api.get(alice, "/v1/games", params={"edition": "first"})
    command = await api.post(alice, "/v1/games/some-game/commands", {"type": "fly"})
    number = await api.post(alice, "/v1/games", {"ruleset": {"players": 9}})

    assert level.json()["errors"] == [{
        "message": "Invalid enum value 'smart'; allowed: expert, greedy, ismcts, random",
        "key": "bots[0].level", "source": "body",
        "allowed": ["expert", "greedy", "ismcts", "random"]}]
    assert edition.json()["errors"][0]["allowed"] == ["classic_2011", "en_2022", "de_2024"]
    assert {"form_set", "discard", "respond"} <= set(command.json()["errors"][0]["allowed"])
    assert command.status_code == level.status_code == number.status_code == 400
    assert "allowed" not in number.json()["errors"][0]  # a range, not a set


async def test_given_a_body_of_the_wrong_types_then_400_naming_the_field_and_no_game(api):
    alice = await api.player()
    before = (await api.get(alice, "/v1/games", params={"limit": 100})).json()["games"]

    answers = [(field, await api.post(alice, "/v1/games", body)) for field, body in (
        ("ruleset.public_set_composition", {"ruleset": {"players": 4,
                                                        "public_set_composition": 0}}),
        ("ruleset.players", {"ruleset": {"players": "4"}}),
        ("bots[0].level", {"ruleset": {"players": 4}, "bots": [{"level": 1}]}),
        ("timeout_policy.hand_over_after", {"ruleset": {"players": 4},
                                            "timeout_policy": {"hand_over_after": 0}}),
        ("timeout_policy.hand_over_after", {"ruleset": {"players": 4},
                                            "timeout_policy": {"hand_over_after": 10**30}}),
    )]

    for field, r in answers:
        assert r.status_code == 400 and r.json()["code"] == "malformed_request", r.text
        assert r.json()["errors"][0]["key"] == field and r.json()["errors"][0]["source"] == "body"
    after = (await api.get(alice, "/v1/games", params={"limit": 100})).json()["games"]
    assert [g["game_id"] for g in after] == [g["game_id"] for g in before]


async def test_given_a_private_game_then_outsiders_get_403_and_unknown_ids_404(api):
    alice, bob, eve = await api.player(), await api.player(), await api.player()
    game_id = await api.game(alice, [], start=False, public=False, ruleset={"players": 2})

    # Before the deal the id is an invitation: whoever has it may look before joining.
    invited = await api.get(bob, f"/v1/games/{game_id}")
    assert (await api.post(bob, f"/v1/games/{game_id}/seats")).status_code == 200
    assert (await api.post(alice, f"/v1/games/{game_id}/start")).status_code == 200
    private = await api.get(eve, f"/v1/games/{game_id}")
    unknown = await api.get(eve, "/v1/games/no-such-game")

    assert invited.status_code == 200 and invited.json()["summary"]["seats"][1] is None
    assert invited.json()["view"] is None
    assert private.status_code == 403 and private.json()["code"] == "private_game"
    assert unknown.status_code == 404 and unknown.json()["code"] == "game_not_found"


async def test_given_a_huge_bad_game_id_then_the_400_does_not_echo_it_whole(api):
    alice = await api.player()

    r = await api.get(alice, "/v1/games/" + "!" * 60_000)

    assert r.status_code == 400 and len(r.json()["detail"]) <= 301, r.text[:300]


async def test_given_a_game_id_no_game_could_have_then_400_on_every_game_route(api):
    # PostgreSQL refuses a NUL in text: such an id reached the database as a 500.
    alice = await api.player()
    paths = DOCUMENT["paths"]
    routes = [(method, path) for path, item in paths.items() for method in item
              if "{game_id}" in path]

    for method, path in routes:
        for game_id in ("\x00", "a\x00b", "\u00e9", "a" * 65, "a\tb", "a b"):
            body = ({"type": "end_turn"} if path.endswith("/commands") else
                    {"seed": ""} if path.endswith("/client-seed") else
                    {"reaction": "good_game"} if path.endswith("/reactions") else None)
            params = {"version": 1} if path.endswith("/state") else None
            r = await api.http.request(method.upper(), path.replace("{game_id}", quote(
                game_id, safe="")), params=params, json=body, headers=alice.auth)

            assert r.status_code == 400, (method, path, game_id, r.text)
            assert r.json()["code"] == "malformed_request"
            assert "game_id" in {e["key"] for e in r.json()["errors"]}
    assert len(routes) == 19  # rematch, decline, client-seed and reactions among them


async def test_given_an_idempotency_key_when_create_is_retried_then_one_game(api):
    alice = await api.player()
    body = {"ruleset": {"players": 2}}
    key = {"Idempotency-Key": "create-1"}

    first = await api.post(alice, "/v1/games", body, headers=key)
    second = await api.post(alice, "/v1/games", body, headers=key)

    assert first.json()["game_id"] == second.json()["game_id"]


async def test_given_a_lobby_command_retried_then_the_first_result_not_the_game_now(api):
    alice, bob = await api.player(), await api.player()
    game_id = await api.game(alice, [], start=False, ruleset={"players": 2})
    key = {"Idempotency-Key": "join-1"}

    first = await api.post(bob, f"/v1/games/{game_id}/seats", headers=key)
    again = await api.post(bob, f"/v1/games/{game_id}/seats", headers=key)
    await api.post(bob, f"/v1/games/{game_id}/leave")
    later = await api.post(bob, f"/v1/games/{game_id}/seats", headers=key)

    assert first.status_code == again.status_code == later.status_code == 200
    # The first answer comes from the games row, the repeats from the log folded to its
    # version: the same summary either way, Bob seated, though he has left since.
    assert again.json() == first.json() == later.json()
    assert first.json()["seats"][1] == {"kind": "human", "player_id": bob.player_id}


async def test_given_a_retry_of_a_command_that_took_the_access_away_then_its_first_result(api):
    # Resigning (or leaving a private game) takes the caller's access away: the retry of a
    # request whose answer was lost must still get that answer, not 403.
    alice, bob, carol = await api.player(), await api.player(), await api.player()
    running = await api.game(alice, [bob], ruleset={"players": 2, "end_mode": "quick"},
                             public=False)
    lobby = await api.game(alice, [carol], start=False, public=False,
                           ruleset={"players": 3})
    resign, leave = {"Idempotency-Key": "resign-1"}, {"Idempotency-Key": "leave-1"}

    resigned = [await api.post(bob, f"/v1/games/{running}/resign", headers=resign)
                for _ in range(2)]
    unkeyed = await api.post(bob, f"/v1/games/{running}/resign")
    other_key = await api.post(bob, f"/v1/games/{running}/resign",
                               headers={"Idempotency-Key": "resign-2"})
    left = [await api.post(carol, f"/v1/games/{lobby}/leave", headers=leave) for _ in range(2)]
    never_seated = await api.post(bob, f"/v1/games/{lobby}/leave", headers=leave)

    assert [r.status_code for r in resigned] == [200, 200], resigned[1].text
    assert resigned[0].json() == resigned[1].json()
    assert resigned[1].json()["seats"][1] == {"kind": "bot", "level": "random"}
    assert [r.status_code for r in left] == [200, 200], left[1].text
    assert left[0].json() == left[1].json() and left[1].json()["seats"][1] is None
    # Without the first request's key, the refusal stands.
    assert unkeyed.status_code == other_key.status_code == never_seated.status_code == 403
    assert other_key.json()["code"] == "private_game"
    assert never_seated.json()["code"] == "private_game"


async def test_given_an_empty_idempotency_key_then_400_and_nothing_done(api):
    alice, bob = await api.player(), await api.player()
    game_id = await api.game(alice, [], start=False, ruleset={"players": 2})

    create = await api.post(alice, "/v1/games", {"ruleset": {"players": 2}},
                            headers={"Idempotency-Key": ""})
    join = await api.post(bob, f"/v1/games/{game_id}/seats", headers={"Idempotency-Key": ""})
    view = await api.get(alice, f"/v1/games/{game_id}")

    for r in (create, join):  # the one error: not also the optional body, which was not sent
        assert r.status_code == 400, r.text
        assert r.json()["errors"] == [{"message": "Expected `str` of length >= 1",
                                       "key": "idempotency_key", "source": "header"}]
    assert view.json()["summary"]["seats"][1] is None


async def test_given_the_creator_when_they_add_bots_then_the_seats_fill_and_it_starts(api):
    alice = await api.player()
    game_id = await api.game(alice, [], start=False, ruleset={"players": 3})

    first = await api.post(alice, f"/v1/games/{game_id}/bots", {"level": "greedy", "seat": 2})
    second = await api.post(alice, f"/v1/games/{game_id}/bots")
    full = await api.post(alice, f"/v1/games/{game_id}/bots")
    started = await api.post(alice, f"/v1/games/{game_id}/start")

    assert first.json()["seats"][2] == {"kind": "bot", "level": "greedy"}
    assert second.json()["seats"][1] == {"kind": "bot", "level": "random"}
    assert full.status_code == 422 and full.json()["rule"] == "game_full"
    assert started.json()["status"] == "playing"
