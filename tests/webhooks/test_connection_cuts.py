"""Every committed event reaches its subscribers while the database's connections are cut
again and again, PostgreSQL itself up (issue 36, defect 10): what a restart's first moments,
a failover proxy or an idle timeout do to a pool. A commit that cannot tell what it owes its
outbox must not happen; one that happened owes every message, and each is delivered.

Real PostgreSQL (this test's own database: only its backends are cut), the service on it
with deliveries in-process, and a real subscriber on loopback. Commands are sent again with
their `Idempotency-Key` while the database is unavailable (503, or the answer lost), as a
client does; each game's `/history` is then compared with what its players were sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest

from service.http.api_settings import HttpSettings
from service.http.app import create_app
from service.wiring.settings import Settings
from tests.postgres import PG_ADMIN

from .conftest import HOOKS
from .servers import Receiver, serving
from .test_event_webhooks import takes_all

GAMES = 6
PLAY_FOR_S = 12.0
CUT_EVERY_S = 0.25


@pytest.fixture
def on_postgres(database_url: str) -> Iterator[str]:
    """The service on this test's PostgreSQL database, deliveries run in its own process."""
    # A delivery cut between its claim and its settling holds its game's queue for the
    # lease: a short one, so that the sweep hands it out again within the test.
    settings = replace(Settings(database_url=database_url, scheduler="in_process"),
                       webhooks=replace(HOOKS, lease_s=1.0, total_timeout_s=0.8))
    with serving(create_app(settings, HttpSettings(rate_limit_per_minute=0))) as base:
        yield base


async def cut_again_and_again(database: str, every_s: float) -> int:
    """Every backend of `database` ended, every `every_s`, until cancelled: how many."""
    admin = await asyncpg.connect(PG_ADMIN)
    cut = 0
    try:
        while True:
            await asyncio.sleep(every_s * random.uniform(0.5, 1.5))
            cut += int(await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = $1 AND pid <> pg_backend_pid()", database))
    except asyncio.CancelledError:
        return cut
    finally:
        await admin.close()


async def send(client: httpx.AsyncClient, method: str, path: str, key: str,
               body: Any = None, idempotency_key: str | None = None) -> httpx.Response:
    """The request, sent again while the database is unavailable (a 503, or the connection
    lost with the answer): a command with the same key, so it takes effect once. A 500 is
    sent again too: asyncpg leaves a connection cut mid-statement unusable for the next one
    ("cannot switch to state 12", MagicStack/asyncpg#1069), a fault of its own that is not
    what this test is about."""
    headers = auth(key)
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    for _ in range(200):
        with contextlib.suppress(httpx.TransportError):
            r = await client.request(method, path, headers=headers, json=body)
            if r.status_code < 500:
                return r
        await asyncio.sleep(0.05)
    raise AssertionError(f"{method} {path} unavailable for 10 s")


async def player(client: httpx.AsyncClient, name: str, subscriber: str | None = None
                 ) -> str:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    key = str(r.json()["api_key"])
    if subscriber is not None:
        r = await client.post("/v1/webhooks/subscriptions", headers=auth(key),
                              json={"url": subscriber, "event_types": ["events"]})
        assert r.status_code == 201, r.text
    return key


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@dataclass(frozen=True)
class Table:
    game_id: str
    host: str  # made the game without a seat: may read its history while it runs
    keys: tuple[str, str]  # the seats', each subscribed
    joined: tuple[int, int]  # the version at which each seat sat down


async def dealt_game(client: httpx.AsyncClient, n: int, subscriber: str) -> Table:
    host = await player(client, f"host-{n}")
    keys = (await player(client, f"cut-{n}-0", subscriber),
            await player(client, f"cut-{n}-1", subscriber))
    created = await client.post("/v1/games", headers=auth(host), json={
        "ruleset": {"players": 2, "end_mode": "quick"}, "join": False})
    assert created.status_code == 201, created.text
    game = str(created.json()["game_id"])
    joined = []
    for key in keys:
        r = await client.post(f"/v1/games/{game}/seats", headers=auth(key))
        assert r.status_code == 200, r.text
        joined.append(int(r.json()["version"]))
    r = await client.post(f"/v1/games/{game}/start", headers=auth(host))
    assert r.status_code == 200, r.text
    return Table(game, host, keys, (joined[0], joined[1]))


async def play(client: httpx.AsyncClient, table: Table, until: float) -> int:
    """Legal commands from whichever seat must answer, until the game ends or `until`: how
    many were sent."""
    path, keys, sent = f"/v1/games/{table.game_id}", table.keys, 0
    while time.monotonic() < until:
        view = (await send(client, "GET", f"{path}/view", keys[0])).json()
        if view["status"] != "playing":
            break
        seat = view["awaiting"][0]
        legal = (await send(client, "GET", f"{path}/legal-commands", keys[seat])).json()
        r = await send(client, "POST", f"{path}/commands", keys[seat],
                       random.choice(legal["commands"]), idempotency_key=uuid.uuid4().hex)
        assert r.status_code in (200, 409, 422), r.text  # 409/422: the game moved on
        sent += 1
    return sent


def delivered(receiver: Receiver, game: str) -> dict[int, list[int]]:
    """The versions of the events each seat was sent of `game`, in the order first sent."""
    seen: set[str] = set()
    by_seat: dict[int, list[int]] = {}
    for r in receiver.received:
        body = json.loads(r.body)
        if body["game_id"] != game or r.headers["webhook-id"] in seen:
            continue
        seen.add(r.headers["webhook-id"])
        by_seat.setdefault(body["seat"], []).extend(e["version"] for e in body["events"])
    return by_seat


async def history(client: httpx.AsyncClient, game: str, key: str) -> list[int]:
    r = await send(client, "GET", f"/v1/games/{game}/history", key)
    assert r.status_code == 200, r.text
    return [json.loads(line)["version"] for line in r.text.splitlines() if line]


async def test_given_connections_cut_again_and_again_then_every_committed_event_is_delivered(
        on_postgres: str, database_url: str) -> None:
    receiver = Receiver(takes_all)
    with serving(receiver) as subscriber:
        async with httpx.AsyncClient(base_url=on_postgres, timeout=30) as client:
            # Given subscribed players at tables already dealt
            tables = [await dealt_game(client, n, subscriber) for n in range(GAMES)]

            # When every connection of the database is cut every quarter second or so
            # while the games are played
            cutter = asyncio.create_task(cut_again_and_again(
                urlsplit(database_url).path.lstrip("/"), CUT_EVERY_S))
            until = time.monotonic() + PLAY_FOR_S
            sent = await asyncio.gather(*(play(client, t, until) for t in tables))
            cutter.cancel()
            cut = await cutter
            logs = {t.game_id: await history(client, t.game_id, t.host) for t in tables}

        # Then each seat is sent every event of its game from its sitting down, in order
        def owed(t: Table, seat: int) -> list[int]:
            return [v for v in logs[t.game_id] if v >= t.joined[seat]]

        def missing() -> dict[tuple[str, int], list[int]]:
            lost = {}
            for t in tables:
                got = delivered(receiver, t.game_id)
                for seat in (0, 1):
                    gone = sorted(set(owed(t, seat)) - set(got.get(seat, [])))
                    if gone:
                        lost[(t.game_id[:8], seat)] = gone
            return lost

        deadline = time.monotonic() + 10
        while missing() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert not missing(), f"committed but never sent (game, seat): versions {missing()}"
    assert cut >= PLAY_FOR_S / CUT_EVERY_S and sum(sent) >= 100, (cut, sent)
    for t in tables:
        got = delivered(receiver, t.game_id)
        assert all(got[s] == owed(t, s) for s in (0, 1)), t.game_id  # in order, once each
