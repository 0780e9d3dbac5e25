"""What must arrive, arrives: every kind of caller, on every read path, gets every event it may
see, in order, none missing and none more, held against the finished game's history.

The callers: the creator (seat 0, also the owner of the game's bot seat), an invited player
who took a seat with `POST /seats`, a keyed watcher, and (public games) a watcher without a
key; in a public game, a public game with a spectator delay, and a private game. Every read is
opened before the deal and followed to the end while the two players play through `/turn`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest

from service.wiring.settings import Settings
from tests.postgres import database, url_of

from .api import Api, Player
from .conftest import TEST_HTTP, Live, serve, serve_sqlite, stop
from .reads import (
    Reads,
    expected_for,
    follow_news,
    follow_pages,
    follow_stream,
    follow_view,
    history,
    play_turns,
)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def bots_live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[Live]:
    """A server that plays its bots' seats (in-process jobs), on each backend; on PostgreSQL
    its views are read from the projection rows."""
    if request.param == "sqlite":
        live = serve_sqlite(tmp_path_factory, "reads", scheduler="in_process")
        yield live
        stop(live)
        return
    with database("cya_reads") as name:
        live = serve(Settings(database_url=url_of(name), scheduler="in_process"),
                     replace(TEST_HTTP, views_from_memory=False))
        yield live
        stop(live)


@pytest.fixture
async def api(bots_live: Live) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(base_url=bots_live.url, timeout=30) as client:
        yield Api(client)


KINDS = {"public": {"public": True}, "delayed": {"public": True, "spectator_delay": 3},
         "private": {"public": False}}


async def _table(api: Api, kind: dict[str, Any]) -> tuple[str, Player, Player, int]:
    ann, bob = await api.player("ann"), await api.player("bob")
    r = await api.post(ann, "/v1/games", {"ruleset": {"players": 3, "end_mode": "quick"},
                                          "bots": [{"level": "greedy"}], **kind})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    r = await api.post(bob, f"/v1/games/{game_id}/seats")
    assert r.status_code == 200, r.text
    seats = [s and s.get("player_id") for s in r.json()["seats"]]
    return game_id, ann, bob, seats.index(bob.player_id)


@pytest.mark.parametrize("kind", KINDS)
async def test_given_any_caller_then_every_read_path_delivers_every_event_it_may_see(api, kind):
    game_id, ann, bob, bobs = await _table(api, KINDS[kind])
    carol = await api.player("carol")
    callers: dict[str, tuple[dict[str, str], int | None]] = {
        "creator": (ann.auth, 0), "invited": (bob.auth, bobs)}
    if KINDS[kind]["public"]:
        callers |= {"watcher": (carol.auth, None), "anonymous": ({}, None)}
    else:  # nothing at all for anyone else, on any path
        for path in ("events", "view", "turn"):
            r = await api.get(carol, f"/v1/games/{game_id}/{path}",
                              headers={"Accept": "text/event-stream"})
            assert r.status_code == 403, r.text
    reads = {name: Reads() for name in callers}
    following = [asyncio.create_task(reader(api, game_id, headers, reads[name]))
                 for name, (headers, _) in callers.items()
                 for reader in (follow_stream, follow_pages, follow_view)]
    following += [asyncio.create_task(follow_news(api, game_id, who, reads[name]))
                  for name, who in (("creator", ann), ("invited", bob))]
    await asyncio.sleep(0.3)  # every read open before the deal
    r = await api.post(ann, f"/v1/games/{game_id}/start")
    assert r.status_code == 200, r.text
    rng = random.Random(kind)
    await asyncio.wait_for(asyncio.gather(
        play_turns(api, game_id, ann, reads["creator"], rng),
        play_turns(api, game_id, bob, reads["invited"], rng)), 120)
    await asyncio.wait_for(asyncio.gather(*following), 30)

    log = await history(api, game_id, ann)
    for name, (_, seat) in callers.items():
        expected, got = expected_for(log, seat), reads[name]
        streamed = [{"version": e["version"], "event": e["event"]} for e in got.stream]
        assert streamed == expected, f"{name}'s stream"
        assert got.pages == expected, f"{name}'s pages"
        assert got.views == sorted(set(got.views)) and got.views[-1] == len(log), \
            f"{name}'s long poll went back or stopped short: {got.views}"
    for name, seat in (("creator", 0), ("invited", bobs)):
        got = reads[name]
        assert got.turns == sorted(got.turns) and got.turns[-1] == len(log), name
        kinds = [n["type"] for n in got.news]
        assert "game_started" in kinds and kinds[-1] == "game_finished", f"{name}: {kinds}"
        awaited = {e["version"] for e in reads["creator"].stream if e["awaiting"] == [seat]}
        told = [n["version"] for n in got.news if n["type"] == "your_turn"]
        assert told and told == sorted(told) and set(told) <= awaited, f"{name}'s turns"

