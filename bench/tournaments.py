"""Tournament benchmark, one run on the local PostgreSQL and Redis (a fresh database and a Redis
database index of its own, both cleaned up after), two `cya worker` processes:

a 64-entrant duplicate tournament of built-in bots (4-player `quick`, half `random`, half
`greedy`; one deal by default, so 64 tables: 16 groups at 4 seat rotations) runs to its end —
created, its tables opened by a worker's job, each game's end fed back, standings kept — and
its games per minute, from its creation to its `tournament_finished`, are ≥ 0.8× those of the
same games (the same seats, dealt from the same seeds) created and started one by one by this
process on the same workers, from the first creation to the last game's end (the baseline,
measured in the same run, after the tournament). A warm-up of a few games comes first.

Prints the figures and targets as one JSON object on its last line; exits 1 on a miss.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any, cast

import asyncpg
import sqlalchemy as sa
from redis import Redis

from cya_rules import EndMode, RuleSet
from cya_rules.table.seats import BotLevel, BotSeat
from service.events.migrate import upgrade
from service.events.tables import games, tournaments
from service.table.lobby_commands import CreateGame, Start
from service.tournaments.entrants import BotEntrant
from service.tournaments.runner.log import load
from service.tournaments.runner.verify import verify
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings

PG = os.environ.get("CYA_BENCH_PG", "postgres@127.0.0.1:5432")
REDIS = os.environ.get("CYA_BENCH_REDIS", "redis://127.0.0.1:6379")
CLAIM_KEY = "cya:bench:claimed-by"
TARGETS = {"vs_one_by_one_min": 0.8}
CYA = str(Path(sys.executable).parent / "cya")
TIMEOUT_S = 900


async def _wait(api: Services, what: sa.ColumnElement[bool], table: Any, t0: float) -> None:
    while True:
        async with api.store.read() as conn:
            left = await conn.scalar(sa.select(sa.func.count()).select_from(table).where(what))
        if not left:
            return
        assert time.perf_counter() - t0 < TIMEOUT_S, f"{left} still running after {TIMEOUT_S} s"
        await asyncio.sleep(0.05)


async def one_by_one(api: Services, ruleset: RuleSet, seatings: list[tuple[tuple[str, ...],
                                                                            bytes]]) -> float:
    """Each game created and started by this process, one after another; seconds until the
    last one ends."""
    t0 = time.perf_counter()
    ids = []
    for levels, seed in seatings:
        seats = tuple(BotSeat(cast(BotLevel, level)) for level in levels)
        created = await api.pipeline.create_game(CreateGame(ruleset, seats), "bench",
                                                 master_seed=seed)
        await api.pipeline.lobby(created.game_id, Start(), "bench")
        ids.append(created.game_id)
    await _wait(api, sa.and_(games.c.game_id.in_(ids), games.c.status != "finished"), games, t0)
    return time.perf_counter() - t0


async def tournament(api: Services, ruleset: RuleSet, entrants: int, deals: int
                     ) -> tuple[float, str]:
    """The tournament from its creation to its end; seconds, and its id."""
    levels = ["random", "greedy"]
    field = tuple(BotEntrant(levels[i % 2]) for i in range(entrants))
    t0 = time.perf_counter()
    t = await api.tournaments.runner.create("bench", "bench", "duplicate", ruleset, field,
                                            deals=deals)
    await _wait(api, sa.and_(tournaments.c.tournament_id == t.tournament_id,
                             tournaments.c.status != "finished"), tournaments, t0)
    return time.perf_counter() - t0, t.tournament_id


def claim_redis_db() -> tuple[str, Redis]:
    token = uuid.uuid4().hex
    for index in range(15, 0, -1):
        client = Redis.from_url(f"{REDIS}/{index}")
        if client.dbsize() == 0 and client.set(CLAIM_KEY, token, nx=True, ex=1800):
            return f"{REDIS}/{index}", client
        client.close()
    raise SystemExit("no free Redis database index")


async def measure(api: Services, args: argparse.Namespace) -> dict[str, Any]:
    ruleset = RuleSet(4, end_mode=EndMode.QUICK)
    await one_by_one(api, ruleset, [(("random", "greedy") * 2, os.urandom(32))] * 4)  # warm-up
    t_seconds, tournament_id = await tournament(api, ruleset, args.entrants, args.deals)
    t, _ = await load(api.store, tournament_id)
    assert t.created is not None
    seatings = [(tuple(cast(BotEntrant, t.created.entrants[e]).level for e in table.seats),
                 bytes.fromhex(t.revealed[table.deal])) for table in t.tables]
    b_seconds = await one_by_one(api, ruleset, seatings)
    report = await verify(api.store, tournament_id)
    n = len(t.tables)
    figures: dict[str, Any] = {
        "entrants": args.entrants, "deals": args.deals, "games": n,
        "tournament_s": t_seconds, "one_by_one_s": b_seconds,
        "tournament_games_per_minute": n / t_seconds * 60,
        "one_by_one_games_per_minute": n / b_seconds * 60,
        "verified": report.ok, "deals_identical": report.deals_identical,
    }
    figures["vs_one_by_one"] = (figures["tournament_games_per_minute"]
                                / figures["one_by_one_games_per_minute"])
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


async def main(args: argparse.Namespace) -> dict[str, Any]:
    dbname = f"cya_bench_tourney_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(f"postgresql://{PG}/postgres")
    await admin.execute(f'CREATE DATABASE "{dbname}"')
    redis_url, redis = claim_redis_db()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        url = f"postgresql+asyncpg://{PG}/{dbname}"
        await asyncio.to_thread(upgrade, url)
        settings = Settings(database_url=url, redis_url=redis_url, scheduler="rq")
        env = {**os.environ, "CYA_DATABASE_URL": url, "CYA_REDIS_URL": redis_url}
        procs = [subprocess.Popen([CYA, "worker", *args.worker_args], env=env,
                                  start_new_session=True) for _ in range(2)]
        api = build(settings)
        try:
            return await measure(api, args)
        finally:
            await api.close()
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(10)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)  # anything the worker left behind
        redis.flushdb()
        redis.close()
        await admin.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--worker-args", nargs="*", default=[],
                        help="extra `cya worker` options, e.g. --log-level INFO")
    figures = asyncio.run(main(parser.parse_args()))
    ok = bool(figures["verified"]) and figures["vs_one_by_one"] >= TARGETS["vs_one_by_one_min"]
    print(json.dumps({**figures, "targets": TARGETS, "ok": ok}))
    sys.exit(0 if ok else 1)
