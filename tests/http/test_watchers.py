"""Watching without a key, and a game's spectator delay: a watcher (anyone without a seat)
trails a running game by that many events, so nobody watching can relay the cards as they
fall; the players see it live, and everyone sees all of it once it is over."""

from __future__ import annotations

import asyncio
import random

from .api import Api, Player
from .contract_check import assert_fits

DELAY = 4


async def _game(api: Api, *, delay: int = 0, public: bool = True
                ) -> tuple[str, dict[int, Player]]:
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob], spectator_delay=delay, public=public)
    return game_id, await api.seats(game_id, [ann, bob])


async def test_given_no_key_then_a_public_game_is_watched_and_a_private_one_is_not(api):
    public, _ = await _game(api)
    private, _ = await _game(api, public=False)

    lobby = await api.http.get("/v1/games")
    view = await api.http.get(f"/v1/games/{public}/view")
    page = await api.http.get(f"/v1/games/{public}/events")
    closed = await api.http.get(f"/v1/games/{private}/view")
    mine = await api.http.get("/v1/games", params={"mine": "true"})
    turn = await api.http.get(f"/v1/games/{public}/turn")
    forged = await api.http.get(f"/v1/games/{public}/view",
                                headers={"Authorization": "Bearer cya_nope"})

    assert lobby.status_code == 200 and public in {g["game_id"] for g in lobby.json()["games"]}
    assert view.status_code == 200 and view.json()["seat"] is None
    assert view.json()["view"]["hand"] is None
    assert_fits(view, "/v1/games/{game_id}/view")
    assert page.status_code == 200 and page.json()["events"]
    assert closed.status_code == 403 and closed.json()["code"] == "private_game"
    assert mine.status_code == 401 and turn.status_code == 401 and forged.status_code == 401


async def _play(api: Api, game_id: str, seats: dict[int, Player], commands: int,
                rng: random.Random) -> int:
    for _ in range(commands):
        if await api.step(game_id, seats, rng) is None:
            break
    return (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()["version"]


async def test_given_a_spectator_delay_then_watchers_trail_the_table_by_it(api):
    game_id, seats = await _game(api, delay=DELAY)
    carol = await api.player("carol")  # a keyed watcher: no seat, so delayed too
    live = await _play(api, game_id, seats, 12, random.Random(1))

    watched = [await api.http.get(f"/v1/games/{game_id}/view"),
               await api.get(carol, f"/v1/games/{game_id}/view")]
    detail = await api.http.get(f"/v1/games/{game_id}")
    page = await api.http.get(f"/v1/games/{game_id}/events", params={"limit": 500})
    ahead = await api.http.get(f"/v1/games/{game_id}/state", params={"version": live})
    behind = await api.http.get(f"/v1/games/{game_id}/state",
                                params={"version": live - DELAY})
    seated = await api.get(seats[0], f"/v1/games/{game_id}/view")

    for r in watched:
        assert r.status_code == 200 and r.json()["version"] == live - DELAY
        assert r.headers["etag"] == f'"{live - DELAY}"'
    assert seated.json()["version"] == live
    assert detail.json()["view"] == watched[0].json()["view"]
    assert detail.json()["summary"]["spectator_delay"] == DELAY
    assert page.json()["version"] == live - DELAY
    assert [e["version"] for e in page.json()["events"]][-1] == live - DELAY
    assert ahead.status_code == 403 and ahead.json()["code"] == "spectator_delay"
    assert behind.status_code == 200


async def test_given_a_spectator_delay_then_a_watchers_summary_tells_nothing_past_it(api):
    """Not the live version, whose decision it is now, its deadline or when it last moved: a
    watcher who knew who must answer a challenge right now could relay it."""
    game_id, seats = await _game(api, delay=DELAY)
    carol = await api.player("carol")
    rng = random.Random(4)
    before, live = 0, await _play(api, game_id, seats, 6, rng)
    # Until then and now differ in whose decision it is, and the horizon lies in an earlier
    # commit than the last one: the events of one commit share its time.
    while (view := (await api.http.get(f"/v1/games/{game_id}/view")).json())["awaiting"] == (
            await api.get(seats[0], f"/v1/games/{game_id}/view")).json()["awaiting"] or (
            before < live - DELAY):
        before, live = live, await _play(api, game_id, seats, 1, rng)
        assert live > before, "the game ended before the test could judge it"

    seated = (await api.get(seats[0], f"/v1/games/{game_id}")).json()["summary"]
    summaries = [(await api.http.get(f"/v1/games/{game_id}")).json()["summary"],
                 (await api.get(carol, f"/v1/games/{game_id}")).json()["summary"],
                 *[g for g in (await api.http.get("/v1/games", params={"limit": 100})
                               ).json()["games"] if g["game_id"] == game_id]]

    assert len(summaries) == 3
    assert seated["version"] == live and seated["awaiting"] != view["awaiting"]
    for summary in summaries:
        assert summary["version"] == live - DELAY, summary
        assert summary["awaiting"] == view["awaiting"]
        assert summary["updated_at"] < seated["updated_at"]


async def test_given_a_spectator_delay_then_a_watchers_stream_trails_and_ends_with_the_game(
        api):
    game_id, seats = await _game(api, delay=DELAY)
    got: list[int] = []

    async def watch() -> None:
        async with api.http.stream("GET", f"/v1/games/{game_id}/events",
                                   headers={"Accept": "text/event-stream"}) as r:
            async for line in r.aiter_lines():
                if line.startswith("id:"):
                    got.append(int(line[3:]))

    watching = asyncio.create_task(watch())
    rng, seen_lag = random.Random(3), []
    while True:
        live = await _play(api, game_id, seats, 1, rng)
        await asyncio.sleep(0.05)
        view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
        if view["status"] == "finished":
            break
        seen_lag.append(live - max(got, default=0))
    await asyncio.wait_for(watching, 10)  # the stream ends after the game does

    assert seen_lag and min(seen_lag) >= DELAY  # never closer to the table than the delay
    assert got == list(range(1, live + 1))  # and everything once the game is over
    final = await api.http.get(f"/v1/games/{game_id}/view")
    assert final.json()["version"] == live and final.json()["status"] == "finished"


async def test_given_a_spectator_delay_then_a_watchers_long_poll_across_the_start_trails_it(
        api):
    """Found by bench/soak.py: a watcher's long poll opened while the game was in its lobby
    answered the live table when the game started during the wait."""
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob], start=False, spectator_delay=DELAY)
    path = f"/v1/games/{game_id}"
    lobby = (await api.http.get(f"{path}/view")).json()["version"]
    poll = asyncio.create_task(api.http.get(f"{path}/view", params={
        "wait_for_version": lobby + 1, "timeout": 2}))
    await asyncio.sleep(0.3)

    assert (await api.post(ann, f"{path}/start")).status_code == 200
    live = (await api.get(ann, f"{path}/view")).json()["version"]
    answer = await poll

    assert answer.status_code == 200  # trailing by the delay, never back past the lobby
    assert answer.json()["version"] == max(live - DELAY, lobby) < live


async def test_given_a_spectator_delay_then_watchers_reads_across_the_start_trail_it(api):
    """Found by bench/soak.py: a watcher's page or view checked while the game was in its
    lobby read what the start committed meanwhile, the live table."""
    ahead = []
    for _ in range(5):
        ann, bob = await api.player("ann"), await api.player("bob")
        game_id = await api.game(ann, [bob], start=False, spectator_delay=DELAY)
        path = f"/v1/games/{game_id}"
        lobby = (await api.http.get(f"{path}/view")).json()["version"]
        reads = [asyncio.create_task(api.http.get(f"{path}/{what}", params={"limit": 100}
                                                  if what == "events" else {}))
                 for what in ("events", "view") * 15]

        assert (await api.post(ann, f"{path}/start")).status_code == 200
        live = (await api.get(ann, f"{path}/view")).json()["version"]

        for read in await asyncio.gather(*reads):
            body = read.json()
            last = max((e["version"] for e in body.get("events", [body])), default=0)
            if last > max(lobby, live - DELAY, body["version"] - DELAY):
                ahead.append((read.url.path, last, body["version"]))
    assert not ahead  # never what the delay holds back


async def test_given_a_delay_out_of_bounds_then_the_game_is_refused(api):
    ann = await api.player("ann")

    r = await api.post(ann, "/v1/games", {"ruleset": {"players": 2}, "spectator_delay": -1})

    assert r.status_code == 400 and r.json()["errors"][0]["key"] == "spectator_delay"
