"""HTTP benchmark: the real API in one uvicorn process on the local PostgreSQL (a fresh
database, dropped after), loaded over loopback from this, a second, process:

(a) commands/s with 64 concurrent games played by scripted clients, against the POST of a
    bare Litestar hello-world app in the same process                    — target ≥ 0.35×
(b) p99 command latency at half of (a)'s rate                             — target ≤ 25 ms
(c) GET /view against a hello-world GET                                   — target ≥ 0.7×
(d) 1,000 concurrent SSE subscribers: p99 from sending a command until each subscriber has
    its events                                                            — target ≤ 100 ms
(e) commands/s with signed receipts against the same API with receipts turned off
    (`CYA_RECEIPTS=0`, the operator setting: as many API processes again, on the same
    database, playing games of their own; its slices take turns with (a)'s) — target ≥ 0.9×

The scripted clients track their own hands from their views and the events their commands
return, form a pair when they hold one and discard otherwise (falling back to the first legal
command on a refusal), so a command costs one request. Rate limits are off for the run (the
hello world has none). Prints the figures and targets as one JSON object on its last line;
exits 1 when a target is missed.

`--views-from-db` serves (c) from the projection rows, as every API process does when several
write (with Redis), instead of from the one process's folded games. `--api-processes N` runs N
API processes on the one database with the local Redis (so views come from the rows), and
sends each request to the next process in turn, as a round-robin balancer would: a game's
consecutive commands land on different processes, whose folded games trail each other's
writes. The targets are the issue's, set for the default (one process).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/http_api.py [--views-from-db] [--api-processes N]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

PG = os.environ.get("CYA_BENCH_PG", "postgres@127.0.0.1:5432")
REDIS = os.environ.get("CYA_BENCH_REDIS", "redis://127.0.0.1:6379/0")  # --api-processes > 1
TARGETS = {"commands_vs_hello_post": 0.35, "p99_ms_at_half_rate": 25.0,
           "view_vs_hello_get": 0.7, "sse_p99_delivery_ms": 100.0,
           "commands_with_vs_without_receipts": 0.9}
RULES = {"players": 4, "edition": "classic_2011", "end_mode": "quick",
         "tie_policy": "shared_win"}
GAMES = 64
ROUNDS = 5
SSE_SUBSCRIBERS = 1000


# The server role.


def serve(port: int, views_from_db: bool) -> None:
    import uvicorn
    from litestar import Litestar, get, post

    from service.http.api_settings import HttpSettings
    from service.http.app import create_app
    from service.wiring.bootstrap import tune_gc
    from service.wiring.settings import Settings

    @post("/bench/hello", status_code=200)
    async def hello_post(data: dict[str, Any]) -> dict[str, Any]:
        return {"hello": "world", "got": len(data)}

    @get("/bench/hello")
    async def hello_get() -> dict[str, str]:
        return {"hello": "world"}

    api = create_app(Settings.from_env(), HttpSettings(rate_limit_per_minute=0,
                                                       views_from_memory=not views_from_db))
    # The baseline is a bare Litestar app in the same process. Registered in the API's app,
    # the hello world paid the API's middleware (metrics, CORS), which made it about 7% slower
    # and the ratios that much easier to meet.
    hello = Litestar([hello_post, hello_get])

    async def app(scope: Any, receive: Any, send: Any) -> None:
        bare = scope["type"] == "http" and scope["path"].startswith("/bench/")
        await (hello if bare else api)(scope, receive, send)

    tune_gc()  # as `app_from_env` does for serve.sh
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False,
                backlog=4096, timeout_keep_alive=60, lifespan="on")


# The load role.


@dataclass
class Seat:
    key: str
    hand: list[str] = field(default_factory=list)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


@dataclass
class Table:
    game_id: str
    seats: list[Seat]
    turn: int = 0
    over: bool = False
    version: int = 0


def _kind(card: str) -> str:
    return card.split("#", 1)[0]


WILDS = {"gold", "silver"}


def choose(hand: list[str]) -> dict[str, Any]:
    by_type: dict[str, str] = {}
    for card in hand:
        t = _kind(card)
        if t in by_type and t not in WILDS:
            return {"type": "form_set", "source": "hand", "hand_cards": [by_type[t], card]}
        by_type[t] = card
    return {"type": "discard", "card": hand[0]}


class Load:
    def __init__(self, bases: list[str]) -> None:
        import aiohttp

        self.bases, self._turn = bases, 0
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, force_close=False),
            timeout=aiohttp.ClientTimeout(total=60))

    async def close(self) -> None:
        await self.http.close()

    def base(self) -> str:
        """The API process for the next request: each in turn."""
        self._turn = (self._turn + 1) % len(self.bases)
        return self.bases[self._turn]

    async def call(self, method: str, path: str, body: Any = None,
                   headers: dict[str, str] | None = None, *, parse: bool = True
                   ) -> tuple[int, Any]:
        async with self.http.request(method, self.base() + path, json=body,
                                     headers=headers) as r:
            raw = await r.read()  # throughput loops skip parsing: this machine's cores are shared
            return r.status, (json.loads(raw) if raw and parse else None)

    async def player(self) -> str:
        _, body = await self.call("POST", "/v1/players", {})
        return str(body["api_key"])

    async def table(self) -> Table:
        seats = [Seat(await self.player()) for _ in range(RULES["players"])]
        _, game = await self.call("POST", "/v1/games", {"ruleset": RULES}, seats[0].auth)
        game_id = game["game_id"]
        for s in seats[1:]:
            await self.call("POST", f"/v1/games/{game_id}/seats", None, s.auth)
        await self.call("POST", f"/v1/games/{game_id}/start", None, seats[0].auth)
        t = Table(game_id, seats)
        await self.resync(t)
        return t

    async def resync(self, t: Table) -> None:
        for s in t.seats:
            _, view = await self.call("GET", f"/v1/games/{t.game_id}/view", None, s.auth)
            s.hand = list(view["view"]["hand"] or [])
            t.turn = view["awaiting"][0] if view["awaiting"] else 0
            t.over = view["status"] == "finished"
            t.version = view["version"]

    async def move(self, t: Table) -> float:
        """One command by the seat whose turn it is; returns its latency in seconds."""
        seat = t.seats[t.turn]
        command = choose(seat.hand)
        start = time.perf_counter()
        status, body = await self.call("POST", f"/v1/games/{t.game_id}/commands", command,
                                       seat.auth)
        latency = time.perf_counter() - start
        if status != 200:  # our bookkeeping missed something: ask the server
            _, legal = await self.call("GET", f"/v1/games/{t.game_id}/legal-commands", None,
                                       seat.auth)
            if legal and legal["commands"]:
                await self.call("POST", f"/v1/games/{t.game_id}/commands",
                                legal["commands"][0], seat.auth)
            await self.resync(t)
            return latency
        self.apply(t, body["events"])
        return latency

    @staticmethod
    def apply(t: Table, events: list[dict[str, Any]]) -> None:
        for e in (x["event"] for x in events):
            kind = e["type"]
            if kind == "set_formed" and e["source"] == "hand":
                for c in e["cards"]:
                    t.seats[e["seat"]].hand.remove(c)
            elif kind == "card_discarded":
                t.seats[e["seat"]].hand.remove(e["card"])
            elif kind == "cards_drawn" and e["cards"]:
                t.seats[e["seat"]].hand.extend(e["cards"])
            elif kind == "turn_started":
                t.turn = e["seat"]
            elif kind in {"game_ended", "round_started", "round_ended"}:
                t.over = True  # quick mode: one round; a new round would need a resync


async def _timed(duration: float, worker: Any, n: int) -> tuple[int, list[float]]:
    gc.collect()  # between timed slices only (see `run_load`)
    stop = time.perf_counter() + duration
    latencies: list[float] = []

    async def loop(i: int) -> int:
        done = 0
        while time.perf_counter() < stop:
            latencies.append(await worker(i))
            done += 1
        return done

    counts = await asyncio.gather(*(loop(i) for i in range(n)))
    return sum(counts), latencies


async def tables(load: Load, n: int) -> list[Table]:
    """At least n new games, made in parallel batches of GAMES."""
    made: list[Table] = []
    while len(made) < n:
        made += await asyncio.gather(*(load.table() for _ in range(GAMES)))
    return made


class Games:
    """64 games in play; a finished one is replaced from a stock made beforehand (`restock`,
    between timed slices): making a game costs 13 requests, which must not be timed."""

    def __init__(self, load: Load, stock: list[Table]) -> None:
        self.load, self.stock = load, stock
        self.live: list[Table] = [stock.pop() for _ in range(GAMES)]
        self.made_while_timed = 0  # the stock ran out: reported, and should stay 0

    async def restock(self, size: int) -> None:
        self.stock += await tables(self.load, size - len(self.stock))

    async def step(self, i: int) -> float:
        t = self.live[i]
        if t.over:
            if self.stock:
                t = self.stock.pop()
            else:
                self.made_while_timed += 1
                t = await self.load.table()
            self.live[i] = t
        return await self.load.move(t)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def p99(values: list[float]) -> float:
    return pct(values, 0.99)


async def hello_rate(load: Load, method: str, duration: float) -> float:
    async def one(_: int) -> float:
        await load.call(method, "/bench/hello", {"a": 1} if method == "POST" else None,
                        parse=False)
        return 0.0

    n, _ = await _timed(duration, one, GAMES)
    return n / duration


async def paced(games: Games, rate: float, duration: float) -> list[float]:
    """Open loop: command k is sent at start + k / rate, whatever the answers' speed. Each
    send starts at its time: making them all up front would stall this process for tens of
    milliseconds at the start and send the first ones late, in a burst. A command whose game
    still waits for its previous answer queues behind it, and that wait counts in its latency
    (the open loop's point: a slow answer delays what comes after it)."""
    gc.collect()
    start = time.perf_counter()
    latencies: list[float] = []
    busy = [asyncio.Lock() for _ in range(GAMES)]

    async def send(k: int) -> None:
        i = k % GAMES
        due = time.perf_counter()
        async with busy[i]:
            queued = time.perf_counter() - due
            latencies.append(queued + await games.step(i))

    sends = []
    for k in range(int(rate * duration)):
        await asyncio.sleep(max(0.0, start + k / rate - time.perf_counter()))
        sends.append(asyncio.create_task(send(k)))
    await asyncio.gather(*sends)
    return latencies


async def sse_delivery(load: Load, tables: list[Table], subscribers: int,
                       commands: int) -> list[float]:
    import aiohttp

    arrived: dict[tuple[str, int], list[float]] = {}
    ready = asyncio.Event()
    connected = 0

    async def subscribe(t: Table, seat: Seat) -> None:
        nonlocal connected
        async with load.http.get(
            f"{load.base()}/v1/games/{t.game_id}/events?after={t.version}",
            headers={**seat.auth, "Accept": "text/event-stream"},
            timeout=aiohttp.ClientTimeout(total=None, sock_read=None),
        ) as r:
            connected += 1
            if connected == subscribers:
                ready.set()
            async for line in r.content:
                if line.startswith(b"id:"):
                    arrived.setdefault((t.game_id, int(line[3:])), []).append(
                        time.perf_counter())

    tasks = [asyncio.create_task(subscribe(tables[i % len(tables)],
                                           tables[i % len(tables)].seats[i % 4]))
             for i in range(subscribers)]
    await asyncio.wait_for(ready.wait(), 60)
    await asyncio.sleep(0.5)
    per_game = subscribers / len(tables)
    latencies: list[float] = []
    for n in range(commands):
        t = tables[n % len(tables)]
        if t.over:
            continue
        sent = time.perf_counter()
        status, body = await load.call("POST", f"/v1/games/{t.game_id}/commands",
                                       choose(t.seats[t.turn].hand), t.seats[t.turn].auth)
        if status != 200:
            await load.resync(t)
            continue
        load.apply(t, body["events"])
        last = (t.game_id, body["version"])
        deadline = time.perf_counter() + 2.0
        while len(arrived.get(last, ())) < per_game and time.perf_counter() < deadline:
            await asyncio.sleep(0.002)
        got = arrived.get(last, [])
        latencies += [a - sent for a in got] + [2.0] * int(per_game - len(got))
        await asyncio.sleep(0.02)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies


async def run_load(bases: list[str], seconds: float, unsigned: list[str]) -> dict[str, Any]:
    # The load generator collects its garbage between timed slices only (`_timed`, `paced`),
    # as `timeit` does: a full collection of its own heap stalls it for 40-90 ms, and every
    # command in flight then would be timed as that much slower.
    gc.disable()
    load, load_unsigned = Load(bases), Load(unsigned)
    try:
        stock = await tables(load, 6 * GAMES)  # outside the timing
        games = Games(load, stock)
        # The same API with receipts off (its own process, its own games), for (e).
        games_unsigned = Games(load_unsigned, await tables(load_unsigned, 2 * GAMES))
        await _timed(1.0, games_unsigned.step, GAMES)  # warm up
        viewers = [(t.game_id, s) for t in stock for s in t.seats]

        async def view(i: int) -> float:
            game_id, seat = viewers[random.randrange(len(viewers))]
            await load.call("GET", f"/v1/games/{game_id}/view", None, seat.auth, parse=False)
            return 0.0

        await _timed(1.0, games.step, GAMES)  # warm up
        # The phases take turns, a slice each, so the machine's noise hits all alike; each
        # ratio is the median over the rounds of (API slice / the hello slice beside it).
        rates: dict[str, list[float]] = {"hp": [], "c": [], "hg": [], "v": [], "u": []}
        for _ in range(ROUNDS):
            rates["hp"].append(await hello_rate(load, "POST", seconds))
            await games.restock(2 * GAMES)
            rates["c"].append((await _timed(seconds, games.step, GAMES))[0] / seconds)
            await games_unsigned.restock(2 * GAMES)
            rates["u"].append((await _timed(seconds, games_unsigned.step, GAMES))[0] / seconds)
            rates["hg"].append(await hello_rate(load, "GET", seconds))
            rates["v"].append((await _timed(seconds, view, GAMES))[0] / seconds)
        hello_post, command_rate = statistics.mean(rates["hp"]), statistics.mean(rates["c"])
        hello_get, view_rate = statistics.mean(rates["hg"]), statistics.mean(rates["v"])
        command_ratio = statistics.median(c / h for c, h in zip(rates["c"], rates["hp"],
                                                                 strict=True))
        view_ratio = statistics.median(v / h for v, h in zip(rates["v"], rates["hg"],
                                                              strict=True))
        receipts_ratio = statistics.median(c / u for c, u in zip(rates["c"], rates["u"],
                                                                  strict=True))
        await games.restock(4 * GAMES)
        latencies = await paced(games, command_rate / 2, seconds * ROUNDS)
        sse_tables = list(await asyncio.gather(*(load.table() for _ in range(50))))
        sse = await sse_delivery(load, sse_tables, SSE_SUBSCRIBERS, 100)
    finally:
        await load.close()
        await load_unsigned.close()
    figures = {
        "hello_post_per_s": round(hello_post), "commands_per_s": round(command_rate),
        "commands_vs_hello_post": round(command_ratio, 3),
        "half_rate_per_s": round(command_rate / 2),
        "p50_ms_at_half_rate": round(pct(latencies, 0.5), 2),
        "p90_ms_at_half_rate": round(pct(latencies, 0.9), 2),
        "p99_ms_at_half_rate": round(p99(latencies), 2),
        "hello_get_per_s": round(hello_get), "view_per_s": round(view_rate),
        "view_vs_hello_get": round(view_ratio, 3),
        "games_made_while_timed": games.made_while_timed,
        "sse_subscribers": SSE_SUBSCRIBERS, "sse_deliveries": len(sse),
        "sse_p99_delivery_ms": round(p99(sse), 2),
        "commands_per_s_without_receipts": round(statistics.mean(rates["u"])),
        "commands_with_vs_without_receipts": round(receipts_ratio, 3),
        "games_made_while_timed_without_receipts": games_unsigned.made_while_timed,
    }
    return figures


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(f"postgresql://{PG}/postgres")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _wait_up(url: str, proc: subprocess.Popen[bytes]) -> None:
    import urllib.request

    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit("the server exited during start-up")
        try:
            urllib.request.urlopen(url + "/v1/healthz", timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.5,
                        help=f"length of each slice ({ROUNDS} rounds of four slices)")
    parser.add_argument("--views-from-db", action="store_true",
                        help="serve GET /view from the projection rows, as with several "
                             "API processes")
    parser.add_argument("--api-processes", type=int, default=1, metavar="N",
                        help="N API processes (with Redis), each request to the next")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.views_from_db)
        return 0
    from service.events.migrate import upgrade

    name = f"cya_bench_http_{uuid.uuid4().hex[:10]}"
    asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    keys = f"/tmp/{name}-receipt-keys.json"  # the API processes share one key ring
    env = {**os.environ, "CYA_DATABASE_URL": f"postgresql+asyncpg://{PG}/{name}",
           "CYA_RECEIPTS": "1", "CYA_RECEIPT_KEYS_FILE": keys}
    if args.api_processes > 1:  # the production layout: changes travel through Redis
        env |= {"CYA_REDIS_URL": REDIS, "CYA_SCHEDULER": "none"}  # the games have no clocks
    servers: list[subprocess.Popen[bytes]] = []
    try:
        upgrade(env["CYA_DATABASE_URL"])
        bases = []
        for _ in range(args.api_processes):
            port = _free_port()
            servers.append(subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--serve", str(port)]
                + ["--views-from-db"] * args.views_from_db, env=env))
            bases.append(f"http://127.0.0.1:{port}")
            _wait_up(bases[-1], servers[-1])
        # (e)'s baseline: as many API processes again, the same in all but receipts (off).
        unsigned = []
        for _ in range(args.api_processes):
            port = _free_port()
            servers.append(subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--serve", str(port)]
                + ["--views-from-db"] * args.views_from_db, env=env | {"CYA_RECEIPTS": "0"}))
            unsigned.append(f"http://127.0.0.1:{port}")
            _wait_up(unsigned[-1], servers[-1])
        figures = asyncio.run(run_load(bases, args.seconds, unsigned))
    finally:
        for server in servers:
            server.terminate()
            server.wait(30)
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        if os.path.exists(keys):
            os.unlink(keys)
    ok = {
        "commands_vs_hello_post": figures["commands_vs_hello_post"]
        >= TARGETS["commands_vs_hello_post"],
        "p99_ms_at_half_rate": figures["p99_ms_at_half_rate"] <= TARGETS["p99_ms_at_half_rate"],
        "view_vs_hello_get": figures["view_vs_hello_get"] >= TARGETS["view_vs_hello_get"],
        "sse_p99_delivery_ms": figures["sse_p99_delivery_ms"]
        <= TARGETS["sse_p99_delivery_ms"],
        "commands_with_vs_without_receipts": figures["commands_with_vs_without_receipts"]
        >= TARGETS["commands_with_vs_without_receipts"],
    }
    print(json.dumps({"benchmark": "http", "api_processes": args.api_processes,
                      "views_from_db": args.views_from_db or args.api_processes > 1, **figures,
                      "targets": TARGETS, "met": ok, "ok": all(ok.values())}))
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
