"""Bot workers benchmark, one run on the local PostgreSQL and Redis (a fresh database and a
Redis database index of its own, both cleaned up after), two `cya worker` processes:

(a) bot reply latency: a human's command committed → the bot's command committed, one bot to
    move — p50 ≤ 2× and p99 ≤ 3× the bare RQ enqueue → finished latency of a no-op job
    measured in the same run, by the same workers;
(b) ≥ 50 complete 4-bot `quick` games per minute through RQ with the two workers.

Prints the figures and targets as one JSON object on its last line; exits 1 on a miss.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import redis.asyncio as aioredis
import sqlalchemy as sa
from redis import Redis
from rq import Queue

from cya_rules import EndMode, legal_commands, player_view, preset
from cya_rules.bots import random_policy
from cya_rules.table.seats import BotSeat, HumanSeat
from service.events.migrate import upgrade
from service.events.tables import games
from service.pipeline.publishers import CHANNEL_PREFIX
from service.scheduling.job_names import NOOP
from service.scheduling.rq_scheduler import RQScheduler
from service.table.clock import BOT_TURN, DueWork
from service.table.lobby_commands import CreateGame, Start
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings

PG = os.environ.get("CYA_BENCH_PG", "postgres@127.0.0.1:5432")
REDIS = os.environ.get("CYA_BENCH_REDIS", "redis://127.0.0.1:6379")
CLAIM_KEY = "cya:bench:claimed-by"
TARGETS = {"p50_vs_noop_max": 2.0, "p99_vs_noop_max": 3.0, "games_per_minute_min": 50.0}
CYA = str(Path(sys.executable).parent / "cya")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


class TimedScheduler(RQScheduler):
    """Notes the moment a command's commit hands a bot turn to RQ: the latency's start."""

    last_bot_turn_at: float | None = None

    async def schedule(self, game_id: str, due: DueWork | None) -> None:
        if due is not None and due.kind == BOT_TURN:
            self.last_bot_turn_at = time.perf_counter()
        await super().schedule(game_id, due)


def noop_latencies(queue: Queue, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        job = queue.enqueue(NOOP, result_ttl=60)
        assert job.latest_result(timeout=10) is not None
        out.append(time.perf_counter() - t0)
    return out


async def bot_latencies(api: Services, sched: TimedScheduler, n: int) -> list[float]:
    """A human (seat 0) plays random legal commands against one greedy bot; each command that
    hands the decision to the bot is one sample: until the bot's commit is published."""
    client: Any = aioredis.from_url(api.settings.redis_url)
    out: list[float] = []
    rng = random.Random(1)
    try:
        while len(out) < n:
            ruleset = preset("classic", 2, end_mode=EndMode("quick"))
            created = await api.pipeline.create_game(
                CreateGame(ruleset, seats=(HumanSeat("h"), BotSeat("greedy"))), "h")
            gid = created.game_id
            pubsub = client.pubsub()
            await pubsub.subscribe(CHANNEL_PREFIX + gid)
            await api.pipeline.lobby(gid, Start(), "h")
            await _play_as_human(api, sched, gid, pubsub, rng, out, n)
            await pubsub.aclose()
    finally:
        await client.aclose()
    return out


async def next_version(pubsub: Any, timeout_s: float = 10) -> int:
    """The next version published for the game (subscribe confirmations skipped)."""
    deadline = time.monotonic() + timeout_s
    while (left := deadline - time.monotonic()) > 0:
        msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
        if msg is not None:
            return int(msg["data"])
    raise AssertionError("no commit published in time: the bot never answered")


async def _play_as_human(api: Services, sched: TimedScheduler, gid: str, pubsub: Any,
                         rng: random.Random, out: list[float], n: int) -> None:
    while len(out) < n:
        game = await api.pipeline.load(gid, fresh=True)
        if game.status == "finished":
            return
        pending = game.pending_seat()
        assert pending is not None and game.state is not None
        if pending[0] != 0:  # the bot's move (a chain of its decisions): wait for a publish
            await next_version(pubsub)
            continue
        command = random_policy(player_view(game.state, 0), legal_commands(game.state, 0), rng)
        sched.last_bot_turn_at = None
        outcome = await api.pipeline.play(gid, 0, command, expected_version=game.version)
        started = sched.last_bot_turn_at
        if started is None:
            continue  # still the human's decision
        while await next_version(pubsub) <= outcome.version:
            pass  # the first publish past the human's version is the bot's commit
        out.append(time.perf_counter() - started)


async def games_per_minute(api: Services, n_games: int) -> float:
    ruleset = preset("classic", 4, end_mode=EndMode("quick"))
    t0 = time.perf_counter()
    ids = []
    for _ in range(n_games):
        created = await api.pipeline.create_game(
            CreateGame(ruleset, seats=tuple(BotSeat("random") for _ in range(4))), "bench")
        await api.pipeline.lobby(created.game_id, Start(), "bench")
        ids.append(created.game_id)
    while True:
        async with api.store.read() as conn:
            left = await conn.scalar(sa.select(sa.func.count()).select_from(games).where(
                games.c.game_id.in_(ids), games.c.status != "finished"))
        if not left:
            return n_games / (time.perf_counter() - t0) * 60
        assert time.perf_counter() - t0 < 300, f"{left} games still running after 300 s"
        await asyncio.sleep(0.05)


def claim_redis_db() -> tuple[str, Redis]:
    token = uuid.uuid4().hex
    for index in range(15, 0, -1):
        client = Redis.from_url(f"{REDIS}/{index}")
        if client.dbsize() == 0 and client.set(CLAIM_KEY, token, nx=True, ex=900):
            return f"{REDIS}/{index}", client
        client.close()
    raise SystemExit("no free Redis database index")


async def main(args: argparse.Namespace) -> dict[str, Any]:
    dbname = f"cya_bench_bots_{uuid.uuid4().hex[:8]}"
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
        sched = TimedScheduler(redis_url, settings.rq_queue)
        api = build(settings, scheduler=sched)
        try:
            queue = Queue(settings.rq_queue, connection=redis)
            noop_latencies(queue, 50)  # warm-up: workers up, connections open
            noop = noop_latencies(queue, args.samples)
            await bot_latencies(api, sched, 20)  # warm-up
            bot = await bot_latencies(api, sched, args.samples)
            gpm = await games_per_minute(api, args.games)
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
    ms = 1000.0
    figures = {
        "noop_p50_ms": statistics.median(noop) * ms, "noop_p99_ms": pct(noop, 0.99) * ms,
        "bot_p50_ms": statistics.median(bot) * ms, "bot_p99_ms": pct(bot, 0.99) * ms,
        "games_per_minute": gpm, "samples": args.samples, "games": args.games,
    }
    figures["p50_vs_noop"] = figures["bot_p50_ms"] / figures["noop_p50_ms"]
    figures["p99_vs_noop"] = figures["bot_p99_ms"] / figures["noop_p99_ms"]
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--worker-args", nargs="*", default=[],
                        help="extra `cya worker` options, e.g. --log-level INFO")
    figures = asyncio.run(main(parser.parse_args()))
    ok = (figures["p50_vs_noop"] <= TARGETS["p50_vs_noop_max"]
          and figures["p99_vs_noop"] <= TARGETS["p99_vs_noop_max"]
          and figures["games_per_minute"] >= TARGETS["games_per_minute_min"])
    print(json.dumps({**figures, "targets": TARGETS, "ok": ok}))
    sys.exit(0 if ok else 1)
