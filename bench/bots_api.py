"""The bot author's API, measured with the SDK (`clients/python`) against one API process of
its own (uvicorn, a fresh SQLite file, bot moves in-process, rate limits off):

(a) HTTP requests per own decision of the example bot (`examples/random_bot.py` run by the
    `cya-bot` runner) over 20 four-player `quick` games against three built-in bots, counted
    at the client's transport, everything included (the news stream, each game's creation
    and start, every command): ≤ 2.0;
(b) 1,000 per-player news streams open on the process (500 two-player games between them,
    each seat a streaming player that answers its `your_turn` news with a random legal
    command after a random pause: about 25 commands a second in all, `--rate`; aiohttp as the
    load generator, as in bench/http_api.py: httpx's async client with 1,000 open streams was
    itself the bottleneck, and measured its own queue): p99 from sending the command that
    commits to the awaited seat's `your_turn` news on its stream ≤ 50 ms (the clock starts
    before the request, so the figure includes the commit itself; the first 1,000 samples);
(c) a four-player `quick` game of the example bot against three built-in bots takes ≤ 1.5×
    the time of a game between four built-in bots (medians over 20 games each, the two kinds
    alternating, from the start to the end seen by a client).

Prints the figures and targets as one JSON object on its last line; exits 1 on a miss.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from cya_client import Client, models
from cya_client.bot import Plan, Runner
from cya_client.bot.cli import load_choose
from cya_client.transport import CountingTransport

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "clients" / "python" / "examples" / "random_bot.py"
TARGETS = {"requests_per_decision": 2.0, "news_p99_ms": 50.0, "game_time_ratio": 1.5}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    url = f"sqlite+aiosqlite:///{folder / 'cya.sqlite3'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")}
    env |= {"CYA_DATABASE_URL": url, "CYA_SCHEDULER": "in_process",
            "CYA_RATE_LIMIT_PER_MINUTE": "0"}
    cya = Path(sys.executable).parent / "cya"
    subprocess.run([str(cya), "db", "upgrade"], env=env, check=True, capture_output=True)
    port = _free_port()
    log = open(folder / "api.log", "wb")  # noqa: SIM115 (lives with the process)
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "service.http.app:app_from_env",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(f"{base}/v1/healthz").status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the API process never became healthy")


def _player(base: str, name: str, transport: httpx.BaseTransport | None = None) -> Client:
    client = Client(base, transport=transport)
    client.api_key = client.players.create(name).api_key
    return client


# -- (a) requests per own decision ----------------------------------------------------------

def requests_per_decision(base: str, games: int) -> dict[str, Any]:
    counted = CountingTransport()
    with _player(base, "example", counted) as client:
        counted.requests.clear()
        counted.statuses.clear()
        runner = Runner(client, load_choose(EXAMPLE),
                        Plan(new=True, players=4, bots=["greedy", "random", "random"],
                             games=games))
        results = runner.run()
    decisions = sum(r.decisions for r in results)
    return {"runner_games": len(results), "decisions": decisions, "requests": counted.total,
            "requests_by_route": dict(counted.requests),
            "requests_per_decision": round(counted.total / max(decisions, 1), 3),
            "errors": runner.errors + sum(r.errors for r in results)}


# -- (c) a game of the example bot vs a game of built-in bots -------------------------------

def _bot_game(client: Client) -> float:
    game = client.games.create(models.NewGame(
        ruleset=models.RuleSet(players=4, end_mode="quick"), join=False,
        bots=[models.BotSpec(level=b) for b in ("greedy", "random", "random", "random")]))
    t0 = time.perf_counter()
    client.games.start(game.game_id)
    while True:  # a long poll for a version past the end answers as soon as the game ends
        view = client.play.view(game.game_id, wait_for_version=10**8, timeout=25)
        if view.status == "finished":
            return time.perf_counter() - t0


def _example_game(client: Client) -> float:
    times: dict[str, float] = {}
    runner = Runner(client, load_choose(EXAMPLE),
                    Plan(new=True, players=4, bots=["greedy", "random", "random"], games=1),
                    on_start=lambda record: times.setdefault("start", time.perf_counter()),
                    on_result=lambda result: times.setdefault("end", time.perf_counter()))
    results = runner.run()
    assert results and not results[0].errors, results
    return times["end"] - times["start"]


def game_time_ratio(base: str, games: int) -> dict[str, Any]:
    example_s, bots_s = [], []
    with _player(base, "timed") as client:
        _bot_game(client), _example_game(client)  # warm both paths up
        for _ in range(games):
            example_s.append(_example_game(client))
            bots_s.append(_bot_game(client))
    example, bots = statistics.median(example_s), statistics.median(bots_s)
    return {"example_game_ms_median": round(example * 1000, 1),
            "bots_game_ms_median": round(bots * 1000, 1),
            "game_time_ratio": round(example / bots, 3)}


# -- (b) 1,000 news streams -----------------------------------------------------------------

class Streams:
    """The load generator of (b): aiohttp, as in bench/http_api.py, light enough that 1,000 open
    streams measure the server rather than the client."""

    def __init__(self, base: str, players: int, samples: int, pause_s: float) -> None:
        self.base, self.players, self.samples, self.pause_s = base, players, samples, pause_s
        self.sent: dict[str, float] = {}  # game -> when its latest command was sent
        self.seen: set[tuple[str, int]] = set()
        self.latencies_ms: list[float] = []
        self.connected = 0
        self.commands = 0
        self.done = asyncio.Event()
        self.rng = random.Random(28)
        self.answers: set[asyncio.Task[None]] = set()
        self.timeline: list[tuple[float, float]] = []  # (sent, latency ms), for --timeline

    async def run(self) -> dict[str, Any]:
        import aiohttp  # the bench extra's: `--help` runs without it

        async with aiohttp.ClientSession(
                self.base, connector=aiohttp.TCPConnector(limit=0),
                timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as http:
            self.http = http
            return await self._run()

    async def _key(self, name: str) -> dict[str, str]:
        async with self.http.post("/v1/players", json={"name": name}) as r:
            return {"Authorization": f"Bearer {(await r.json())['api_key']}"}

    async def _run(self) -> dict[str, Any]:
        keys: list[dict[str, str]] = []
        for start in range(0, self.players, 50):
            keys += await asyncio.gather(*(self._key(f"s{i}") for i in
                                           range(start, min(start + 50, self.players))))
        games = [await self._game(keys[i], keys[i + 1]) for i in range(0, len(keys) - 1, 2)]
        readers = [asyncio.create_task(self._read(k)) for k in keys]
        while self.connected < len(keys):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        t0 = time.perf_counter()
        for game_id, creator in games:
            self.sent[game_id] = time.perf_counter()
            async with self.http.post(f"/v1/games/{game_id}/start", headers=creator) as r:
                await r.read()
            await asyncio.sleep(0.005)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.done.wait(), 120)
        elapsed = time.perf_counter() - t0
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        if os.environ.get("CYA_BENCH_TIMELINE"):
            Path(os.environ["CYA_BENCH_TIMELINE"]).write_text(json.dumps(
                [(round(at - t0, 3), round(ms, 2)) for at, ms in self.timeline]))
        ordered = sorted(self.latencies_ms)
        return {"streams": len(keys), "stream_games": len(games), "samples": len(ordered),
                "commands_per_s": round(self.commands / elapsed, 1),
                "news_p50_ms": round(ordered[len(ordered) // 2], 2),
                "news_p99_ms": round(ordered[int(len(ordered) * 0.99)], 2),
                "news_max_ms": round(ordered[-1], 2)}

    async def _game(self, creator: dict[str, str], guest: dict[str, str]
                    ) -> tuple[str, dict[str, str]]:
        async with self.http.post("/v1/games", headers=creator, json={
                "ruleset": {"players": 2, "end_mode": "quick"}, "bots": []}) as r:
            game_id = (await r.json())["game_id"]
        async with self.http.post(f"/v1/games/{game_id}/seats", headers=guest) as r:
            await r.read()
        return game_id, creator

    async def _read(self, key: dict[str, str]) -> None:
        async with self.http.get("/v1/players/me/events", headers=key) as r:
            self.connected += 1
            async for line in r.content:
                if not line.strip():
                    continue
                arrived = time.perf_counter()
                news = json.loads(line)
                if news["type"] != "your_turn":
                    continue
                game, version = news["game_id"], news["version"]
                if (game, version) in self.seen:
                    continue
                self.seen.add((game, version))
                if game in self.sent:
                    sent = self.sent.pop(game)
                    self.latencies_ms.append((arrived - sent) * 1000)
                    self.timeline.append((sent, (arrived - sent) * 1000))
                    if len(self.latencies_ms) >= self.samples:
                        self.done.set()
                task = asyncio.create_task(self._answer(key, game, version, news["turn"]))
                self.answers.add(task)
                task.add_done_callback(self.answers.discard)

    async def _answer(self, key: dict[str, str], game: str, version: int,
                      turn: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(0, 2 * self.pause_s))
        if self.done.is_set():
            return
        self.sent[game] = time.perf_counter()
        self.commands += 1
        async with self.http.post(f"/v1/games/{game}/commands", json=self.rng.choice(
                turn["legal_commands"]), headers={**key, "If-Match": f'"{version}"'}) as r:
            await r.read()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=25.0,
                        help="commands a second the streaming players send in all, about "
                        "(each waits a random pause, on average games / rate seconds)")
    parser.add_argument("--only", choices=["requests", "streams", "games"],
                        help="run one part alone (its figure; the others are not measured)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cya-bots-api-") as folder:
        proc, base = start_server(Path(folder))
        try:
            a = requests_per_decision(base, args.games) if args.only in (
                None, "requests") else {"requests_per_decision": 0.0, "errors": 0}
            c = game_time_ratio(base, args.games) if args.only in (
                None, "games") else {"game_time_ratio": 0.0}
            b = asyncio.run(Streams(base, args.streams, args.samples,
                                        args.streams / 2 / args.rate).run()) \
                if args.only in (None, "streams") else {"news_p99_ms": 0.0}
        finally:
            proc.terminate()
            proc.wait(10)
    figures = {**a, **b, **c}
    met = {"requests_per_decision": a["requests_per_decision"] <= 2.0 and not a["errors"],
           "news_p99_ms": b["news_p99_ms"] <= 50.0,
           "game_time_ratio": c["game_time_ratio"] <= 1.5}
    print(json.dumps({"figures": figures, "targets": TARGETS, "met": met}))
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
