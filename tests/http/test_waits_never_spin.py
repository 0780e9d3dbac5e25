"""A long poll whose cached game lags the log it follows reads the log, and never holds the
event loop while it waits.

The cache takes a commit after the store has it, so a feed can read a version the cache has
yet to see. `/turn` used to reload the stale cached game over and over without awaiting
anything: it answered a stale turn after its whole timeout, and every other request of the
process (`/v1/healthz` included) waited as long. Here the cache is put back one command
behind, as that moment leaves it, and the poll must answer the fresh turn at once.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import httpx
import pytest
import sqlalchemy as sa

from service.http.context import Runtime
from service.pipeline.state_cache import StateCache
from service.table.game import Game

from .api import Api, Player
from .conftest import Live


@pytest.fixture
async def api(sqlite_live: Live) -> AsyncIterator[Api]:
    """The embedded default's server: the one whose views come from its cache."""
    async with httpx.AsyncClient(base_url=sqlite_live.url, timeout=30) as client:
        yield Api(client)


def _runtime(live: Live) -> Runtime:
    return live.server.config.app.state["runtime"]  # type: ignore[no-any-return]


def _cache(live: Live) -> StateCache:
    cache = _runtime(live).services.pipeline.cache
    assert cache is not None
    return cache


def _stale(live: Live, game: Game) -> None:
    """The cache one command behind, as the moment between a commit and its caching leaves
    it (the cache never steps a game back by itself)."""
    _cache(live).discard(game.game_id)
    _cache(live).put(game)


async def _hand_over(api: Api, live: Live, game_id: str, seats: dict[int, Player]
                     ) -> tuple[int, Game]:
    """Plays until the decision passes to the other seat; that seat, and the game cached
    just before the command that passed it."""
    rng = random.Random(2)
    while True:
        view = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()
        mover = view["awaiting"][0]
        stale = _cache(live).get(game_id)
        assert stale is not None and stale.version == view["version"]
        legal = (await api.get(seats[mover], f"/v1/games/{game_id}/legal-commands")).json()
        r = await api.post(seats[mover], f"/v1/games/{game_id}/commands",
                           rng.choice(legal["commands"]))
        assert r.status_code == 200, r.text
        after = (await api.get(seats[0], f"/v1/games/{game_id}/view")).json()["awaiting"]
        if after != [mover]:
            return after[0], stale


async def test_given_a_cache_behind_the_feed_then_turn_answers_fresh_and_the_loop_runs(
        api, sqlite_live):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    seats = await api.seats(game_id, [ann, bob])
    waiter, stale = await _hand_over(api, sqlite_live, game_id, seats)
    latest = (await api.get(seats[waiter], f"/v1/games/{game_id}/view")).json()["version"]
    _stale(sqlite_live, stale)

    async def health() -> float:
        await asyncio.sleep(0.3)
        began = time.monotonic()
        assert (await api.http.get("/v1/healthz")).status_code == 200
        return time.monotonic() - began

    began = time.monotonic()
    turn, healthz = await asyncio.gather(
        api.get(seats[waiter], f"/v1/games/{game_id}/turn", params={"timeout": 4}), health())
    took = time.monotonic() - began

    assert turn.status_code == 200 and turn.json()["version"] == latest
    assert turn.json()["legal_commands"], "the decision is the waiting seat's"
    assert took < 2, f"/turn answered after {took:.1f} s"
    assert healthz < 0.5, f"the event loop was held: /v1/healthz took {healthz:.1f} s"


async def test_given_a_cache_behind_the_feed_then_the_views_long_poll_answers_fresh(
        api, sqlite_live):
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    seats = await api.seats(game_id, [ann, bob])
    waiter, stale = await _hand_over(api, sqlite_live, game_id, seats)
    _stale(sqlite_live, stale)

    began = time.monotonic()
    view = await api.get(seats[waiter], f"/v1/games/{game_id}/view",
                         params={"wait_for_version": stale.version + 1, "timeout": 4})

    assert view.status_code == 200 and view.json()["version"] > stale.version
    assert time.monotonic() - began < 2


async def test_given_a_burst_of_streams_on_a_followed_game_then_none_needs_the_database(
        api, sqlite_live):
    """Opening a stream on a game this process already follows asks its cache who the
    caller is: 9,000 streams opened in a few seconds once took a pooled connection each, and
    426 got 500s from the exhausted pool."""
    ann, bob = await api.player("ann"), await api.player("bob")
    game_id = await api.game(ann, [bob])
    engine = _runtime(sqlite_live).services.store.engine
    checkouts: list[asyncio.Task[object] | None] = []
    def listener(*_: object) -> None:  # a request's, not a feed's or a sweep's
        task = asyncio.current_task()
        if task is not None and task.get_coro().__qualname__.startswith(  # type: ignore[union-attr]
                "RequestResponseCycle"):
            checkouts.append(task)

    path = f"/v1/games/{game_id}/events"
    headers = {"Accept": "text/event-stream"}

    async def first_event(who: dict[str, str]) -> int:
        async with api.http.stream("GET", path, headers={**who, **headers}) as r:
            async for line in r.aiter_lines():
                if line.startswith("id:"):
                    return r.status_code
        return r.status_code

    async with api.http.stream("GET", path, headers=headers):  # the game is followed
        await asyncio.sleep(0.3)
        sa.event.listen(engine.sync_engine, "checkout", listener)
        try:
            answers = await asyncio.gather(*(first_event(who) for who in [ann.auth, bob.auth,
                                                                          {}] * 100))
        finally:
            sa.event.remove(engine.sync_engine, "checkout", listener)

    assert answers == [200] * 300
    assert not checkouts, f"{len(checkouts)} connections taken to open 300 streams"
