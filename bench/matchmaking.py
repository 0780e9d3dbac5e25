"""Quick-play benchmark on the production shape: two API processes and one `cya worker` on a
PostgreSQL and a Redis of their own (started here on free ports, removed after), 1,000
concurrent seekers of mixed kinds (2, 3 or 4 players, rated or not, ratings spread over 30
ordinal points), each following its own news stream.

(a) p95 from a compatible group existing (its last seeker's arrival, or the moment the
    widening ranges first reach each other) to every seeker of it being told `matched` on its
    news stream                                                     — target ≤ 1 s
(b) no seeker matched twice: each game seats exactly the seekers the news matched into it,
    and each seeker hears one `matched`                             — target 0
(c) none left unmatched while a compatible seeker waits: at the end, fewer waiting seekers
    of a kind than its seats, and no compatible group among them    — target 0

Baseline, same run and servers: p95 from `POST /start` of a two-player lobby game to both
players being told `game_started` on their streams (the lobby path a match takes).

Seekers arrive at random over `--arrive-s` seconds, each seek sent to one of the two
processes and its stream opened on the other, so news crosses processes through Redis.
Prints the figures and targets as one JSON object on its last line; exits 1 on a miss.

    .venv/bin/python bench/matchmaking.py [--seekers 1000] [--arrive-s 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = {"p95_told_s": 1.0, "matched_twice": 0, "left_unmatched": 0}
WIDEN_PER_S = 1.0
RATING_RANGE = 5.0
KINDS = [(players, rated) for players in (2, 3, 4) for rated in (False, True)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"nothing listens on {port}")


class Cluster:
    """A PostgreSQL and a Redis of the run's own, in a temporary folder."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="cya-bench-match-"))
        self.pg_port, self.redis_port = _free_port(), _free_port()
        self.procs: list[subprocess.Popen[bytes]] = []
        # PostgreSQL refuses to run as root: as its own user then (as bench/ha/patroni.py).
        self._as: list[str] = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []

    def __enter__(self) -> Cluster:
        data = self.dir / "pg"
        if self._as:
            shutil.chown(self.dir, "postgres")
        subprocess.run([*self._as, "initdb", "-D", str(data), "-U", "postgres",
                        "--auth=trust", "-E", "UTF8"], check=True, stdout=subprocess.DEVNULL)
        self.procs.append(subprocess.Popen(
            [*self._as, "postgres", "-D", str(data), "-p", str(self.pg_port), "-k", str(self.dir),
             "-c", "max_connections=300", "-c", "listen_addresses=127.0.0.1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.procs.append(subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--save", "",
             "--appendonly", "no", "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL))
        _wait_port(self.pg_port)
        _wait_port(self.redis_port)
        for _ in range(100):
            if subprocess.run(["pg_isready", "-h", "127.0.0.1", "-p", str(self.pg_port)],
                              stdout=subprocess.DEVNULL).returncode == 0:
                break
            time.sleep(0.1)
        return self

    @property
    def database_url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.pg_port}/postgres"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def __exit__(self, *exc: object) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        if os.environ.get("CYA_BENCH_KEEP_LOGS"):  # the API processes' and worker's logs
            for log in self.dir.glob("*.log"):
                shutil.copy(log, Path(os.environ["CYA_BENCH_KEEP_LOGS"]) / log.name)
        shutil.rmtree(self.dir, ignore_errors=True)


def _services(cluster: Cluster, logs: Path) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("CYA_")},
           "CYA_DATABASE_URL": cluster.database_url, "CYA_REDIS_URL": cluster.redis_url,
           "CYA_SCHEDULER": "rq", "CYA_RATE_LIMIT_PER_MINUTE": "0",
           "CYA_MATCH_WIDEN_PER_S": str(WIDEN_PER_S), "CYA_SSE_HEARTBEAT_SECONDS": "5"}
    procs, urls = [], []
    for n in range(2):
        port = _free_port()
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "service.http.app:app_from_env",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
            stderr=open(logs / f"api-{n}.log", "wb")))  # noqa: SIM115
        urls.append(f"http://127.0.0.1:{port}")
    procs.append(subprocess.Popen([str(Path(sys.executable).parent / "cya"), "worker"],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                  stderr=open(logs / "worker.log", "wb")))  # noqa: SIM115
    for url in urls:
        _wait_port(int(url.rsplit(":", 1)[1]))
    return procs, urls


class Seeker:
    def __init__(self, n: int, key: str, player_id: str, kind: tuple[int, bool],
                 rating: float) -> None:
        self.n, self.key, self.player_id = n, key, player_id
        self.kind, self.rating = kind, rating
        self.seek: dict[str, Any] | None = None
        self.told: list[tuple[float, str]] = []  # (when, game id) of each `matched`
        self.listening = asyncio.Event()

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


async def _follow(client: Any, who: Seeker, kind: str, found: list[tuple[float, str]]
                  ) -> None:
    """Record each news item of `kind` (when, game id), until cancelled."""
    async with client.stream("GET", "/v1/players/me/events", headers=who.auth,
                             timeout=None) as r:
        who.listening.set()
        async for line in r.aiter_lines():
            if line.strip():
                news = json.loads(line)
                if news["type"] == kind:
                    found.append((time.time(), news["game_id"]))


async def _stop(tasks: list[asyncio.Task[None]]) -> None:
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _players(clients: list[Any], count: int) -> list[tuple[str, str]]:
    gate = asyncio.Semaphore(50)

    async def one(n: int) -> tuple[str, str]:
        async with gate:
            r = await clients[n % 2].post("/v1/players", json={"name": f"s{n}", "bot": n % 4 == 0})
            body = r.json()
            return body["api_key"], body["player_id"]

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def _seed_ratings(database_url: str, seekers: list[Seeker]) -> None:
    """Each seeker's rating in its kind's family, as if it had played rated games."""
    from sqlalchemy.ext.asyncio import create_async_engine

    from service.events.tables import ratings

    engine = create_async_engine(database_url)
    sigma = 2.0
    async with engine.begin() as conn:
        await conn.execute(ratings.insert(), [
            {"identity": f"player:{s.player_id}", "family": "2p" if s.kind[0] == 2 else "3-6p",
             "mu": s.rating + 3 * sigma, "sigma": sigma, "ordinal": s.rating, "games": 10}
            for s in seekers])
    await engine.dispose()


async def _opened_at(database_url: str) -> dict[str, float]:
    """When each match's game id was stored on its seeks (the server's clock)."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    from service.events.tables import seeks

    engine = create_async_engine(database_url)
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(seeks.c.game_id, sa.func.max(seeks.c.updated_at))
                                  .where(seeks.c.game_id.is_not(None))
                                  .group_by(seeks.c.game_id))
        found = {r[0]: r[1].timestamp() for r in rows}
    await engine.dispose()
    return found


async def _baseline(clients: list[Any], pairs: int) -> list[float]:
    """p95 input: from POST /start of a two-player game to both being told it started."""
    made = await _players(clients, 2 * pairs)
    waits: list[float] = []
    for i in range(pairs):
        a, b = (Seeker(0, *made[2 * i + j], (2, False), 0.0) for j in range(2))
        heard: dict[str, list[tuple[float, str]]] = {"a": [], "b": []}
        tasks = [asyncio.create_task(_follow(clients[1], a, "game_started", heard["a"])),
                 asyncio.create_task(_follow(clients[0], b, "game_started", heard["b"]))]
        await a.listening.wait()
        await b.listening.wait()
        r = await clients[0].post("/v1/games", json={"ruleset": {"players": 2}},
                                  headers=a.auth)
        game_id = r.json()["game_id"]
        await clients[1].post(f"/v1/games/{game_id}/seats", headers=b.auth)
        t0 = time.time()
        await clients[0].post(f"/v1/games/{game_id}/start", headers=a.auth)
        while not (heard["a"] and heard["b"]):
            await asyncio.sleep(0.005)
        waits.append(max(heard["a"][0][0], heard["b"][0][0]) - t0)
        await _stop(tasks)
    return waits


def _say(what: str) -> None:
    print(f"{time.strftime('%X')} {what}", file=sys.stderr, flush=True)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


async def _run(urls: list[str], database_url: str, count: int, arrive_s: float,
               seed: int) -> dict[str, Any]:
    import httpx

    from service.matchmaking.seeks import Kind, Seek, compatible, compatible_since

    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=2 * count + 50, max_keepalive_connections=200)
    clients = [httpx.AsyncClient(base_url=u, timeout=60, limits=limits) for u in urls]
    try:
        baseline = await _baseline(clients, 30)
        _say(f"baseline: {len(baseline)} lobby games")
        made = await _players(clients, count)
        seekers = [Seeker(n, key, pid, rng.choice(KINDS), round(rng.uniform(0, 30), 2))
                   for n, (key, pid) in enumerate(made)]
        await _seed_ratings(database_url, seekers)
        streams = [asyncio.create_task(_follow(clients[(s.n + 1) % 2], s, "matched", s.told))
                   for s in seekers]
        _say(f"{count} players, rated")
        while sum(s.listening.is_set() for s in seekers) < count:
            failed = [t for t in streams if t.done()]
            if failed:
                raise SystemExit(f"{len(failed)} news streams failed: {failed[0].exception()!r}")
            await asyncio.sleep(0.1)
        _say(f"{count} news streams open")

        async def seek(s: Seeker, at: float) -> None:
            await asyncio.sleep(at)
            r = await clients[s.n % 2].post("/v1/matchmaking", headers=s.auth, json={
                "players": s.kind[0], "rated": s.kind[1], "rating_range": RATING_RANGE})
            assert r.status_code == 201, r.text
            s.seek = r.json()

        started = time.monotonic()
        await asyncio.gather(*(seek(s, rng.uniform(0, arrive_s)) for s in seekers))
        _say(f"{count} seeks sent")
        # Until every kind has fewer waiting than its seats (ranges widen: all meet in time).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            waiting = Counter(s.kind for s in seekers if not s.told)
            if all(n < kind[0] for kind, n in waiting.items()):
                break
            await asyncio.sleep(0.2)
        await asyncio.sleep(2.0)  # news still on its way, and any second `matched`
        elapsed = time.monotonic() - started
        await _stop(streams)

        def as_seek(s: Seeker) -> Seek:
            assert s.seek is not None
            return Seek(s.seek["seek_id"], s.player_id,
                        Kind(s.kind[0], "en_2022", s.kind[1]), s.seek["rating"],
                        s.seek["rating_range"], datetime.fromisoformat(s.seek["created_at"]))

        groups: dict[str, list[Seeker]] = defaultdict(list)
        twice = 0
        for s in seekers:
            games = {g for _, g in s.told}
            twice += len(s.told) > 1 or len(games) > 1
            if s.told:
                groups[s.told[0][1]].append(s)
        opened = await _opened_at(database_url)
        waits: list[float] = []
        opening: list[float] = []  # the server's part: from compatible to the game's id stored
        for game_id, members in groups.items():
            r = await clients[0].get(f"/v1/games/{game_id}", headers=members[0].auth)
            seated = {x["player_id"] for x in r.json()["summary"]["seats"]}
            if seated != {m.player_id for m in members}:
                twice += 1
            since = compatible_since([as_seek(m) for m in members], WIDEN_PER_S)
            if since is not None:
                told = max(m.told[0][0] for m in members)
                waits.append(told - since.timestamp())
                if game_id in opened:
                    opening.append(opened[game_id] - since.timestamp())
        left = [s for s in seekers if not s.told]
        untold = 0  # matched, by the server's word, but never told on the news stream
        for s in left:
            assert s.seek is not None
            r = await clients[0].get(f"/v1/matchmaking/{s.seek['seek_id']}", headers=s.auth)
            untold += r.json()["status"] == "matched"
        now = datetime.now(UTC)
        by_kind: dict[tuple[int, bool], list[Seek]] = defaultdict(list)
        for s in left:
            by_kind[s.kind].append(as_seek(s))
        unmatched = 0
        for kind, waiting in by_kind.items():
            if len(waiting) >= kind[0] and any(
                    all(compatible(a, b, now, WIDEN_PER_S) for a, b in combinations(g, 2))
                    for g in combinations(waiting, kind[0])):
                unmatched += len(waiting)
        return {"seekers": count, "games": len(groups), "left_waiting": len(left),
                "p50_told_s": round(sorted(waits)[len(waits) // 2], 3) if waits else None,
                "p95_told_s": round(_p95(waits), 3),
                "p95_game_opened_s": round(_p95(opening), 3),
                "max_told_s": round(max(waits, default=0), 3),
                "matched_twice": twice, "left_unmatched": unmatched, "matched_untold": untold,
                "baseline_lobby_p95_s": round(_p95(baseline), 3),
                "run_s": round(elapsed, 1)}
    finally:
        for c in clients:
            await c.aclose()


def _interrupted(signum: int, frame: object) -> None:
    """A SIGTERM unwinds like Ctrl-C: the servers and the cluster started here are stopped."""
    raise KeyboardInterrupt


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seekers", type=int, default=1000)
    parser.add_argument("--arrive-s", type=float, default=10.0,
                        help="seekers arrive at random over this many seconds")
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    from service.events.migrate import upgrade

    signal.signal(signal.SIGTERM, _interrupted)
    with Cluster() as cluster:
        upgrade(cluster.database_url)
        procs, urls = _services(cluster, cluster.dir)
        try:
            time.sleep(1.0)
            figures = asyncio.run(_run(urls, cluster.database_url, args.seekers,
                                       args.arrive_s, args.seed))
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
    missed = [k for k, target in TARGETS.items() if figures[k] > target]
    print(json.dumps({"benchmark": "matchmaking", "shape": "2 API processes + 1 worker + "
                      "PostgreSQL + Redis", **figures, "targets": TARGETS, "missed": missed}))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
