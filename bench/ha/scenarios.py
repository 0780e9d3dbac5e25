"""The two failovers, each under the players' load, and what is judged of each:

- postgres: kill -9 of the primary's postmaster. Patroni promotes the synchronous standby and
  HAProxy follows it; the killed node rejoins as the standby, and a switchover makes it the
  primary again (fail back). Judged: how long until a command sent after the kill is
  acknowledged (writes back), and the longest wait between acknowledged writes through the
  switchover; every acknowledged command's events in the final log; no answer but 503
  `database_unavailable` with `Retry-After` while it fails over; every game finished and
  verified.
- redis: kill -9 of the Redis master. The Sentinels promote the replica, and every client of
  the service (RQ, pub/sub, the due timer's set) follows it. Judged: how long from the kill
  until a bot's move (due work, released by the workers through Redis) commits again once the
  replica is promoted;
  nothing lost (every game finishes: the sweepers enqueue what the dead master took with it).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
import msgspec

from .players import Player, Tally
from .shape import HaShape
from .waits import wait_for

FINISH_S = 120.0  # how long the games in flight may take to finish once no new one starts
TARGETS: dict[str, float] = {
    "postgres.writes_back_s": 30.0,
    "postgres.failback_write_gap_s": 30.0,
    "postgres.acknowledged_lost": 0,
    "postgres.problems": 0,
    "postgres.games_unverified": 0,
    "redis.due_work_resumed_s": 15.0,
    "redis.acknowledged_lost": 0,
    "redis.problems": 0,
    "redis.games_unverified": 0,
}


@dataclass
class Load:
    tally: Tally
    stop: asyncio.Event
    players: list[Player]
    tasks: list[asyncio.Task[None]]


def start_load(urls: list[str], clients: int, seed: int) -> Load:
    tally, stop = Tally(), asyncio.Event()
    players = [Player(urls[n % len(urls)], tally, random.Random(seed + n))
               for n in range(clients + 1)]
    return Load(tally, stop, players,
                [asyncio.create_task(p.play_games_until(stop)) for p in players[:-1]]
                + [asyncio.create_task(players[-1].probe_until(stop))])


async def finish_load(load: Load) -> list[str]:
    """No new game starts; the ones in flight finish. Returns what went wrong in a client."""
    load.stop.set()
    started = time.monotonic()
    done, pending = await asyncio.wait(load.tasks, timeout=FINISH_S)
    for task in pending:
        task.cancel()
    failures = [repr(t.exception()) for t in done if t.exception() is not None]
    failures += [f"a client still playing after {FINISH_S:.0f} s" for _ in pending]
    for player in load.players:
        await player.close()
    print(f"the games in flight finished in {time.monotonic() - started:.1f} s", flush=True)
    return failures


def writes_back_after(tally: Tally, at: float) -> float | None:
    """Seconds from `at` to the first acknowledgement of a command sent after it."""
    after = [a.answered_at - at for a in tally.acks if a.sent_at >= at]
    return min(after) if after else None


def longest_gap(tally: Tally, start: float, end: float) -> float:
    """The longest time without an acknowledged write between `start` and `end`: a planned
    switchover is not an instant, so no single moment to count writes back from."""
    times = sorted([start, end, *(a.answered_at for a in tally.acks
                                  if start <= a.answered_at <= end)])
    return round(max(b - a for a, b in itertools.pairwise(times)), 2)


async def until(ready: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit(f"waited {timeout_s:.0f} s for {what}")
        await asyncio.sleep(0.05)


async def postgres_failover(shape: HaShape, clients: int, warmup_s: float, hold_s: float
                            ) -> dict[str, Any]:
    pg = shape.postgres
    load = start_load(shape.urls, clients, seed=1)
    await asyncio.sleep(warmup_s)
    killed, kill_at = await asyncio.to_thread(pg.kill_primary)
    print(f"postgres: killed {killed}'s postmaster", flush=True)
    await until(lambda: writes_back_after(load.tally, kill_at) is not None, 60,
                "a command acknowledged after the kill")
    writes_back_s = writes_back_after(load.tally, kill_at)
    promoted = await asyncio.to_thread(pg.leader)
    print(f"postgres: {promoted} leads; writes back after {writes_back_s:.2f} s", flush=True)
    await asyncio.to_thread(wait_for, lambda: pg.sync_standby() == killed, 120,
                            f"{killed} to rejoin as the synchronous standby")
    rejoined_s = time.time() - kill_at
    failback_at = time.time()
    await asyncio.to_thread(pg.switchover, killed)
    switched_at = time.time()
    await until(lambda: writes_back_after(load.tally, switched_at) is not None, 60,
                "a command acknowledged after the fail back")
    failback_s = longest_gap(load.tally, failback_at,
                             switched_at + (writes_back_after(load.tally, switched_at) or 0))
    leader_after = await asyncio.to_thread(pg.leader)
    print(f"postgres: failed back to {leader_after}; longest wait between acknowledged "
          f"writes {failback_s:.2f} s", flush=True)
    await asyncio.sleep(hold_s)
    failures = await finish_load(load)
    figures = await judge(shape.urls[0], load.tally)
    figures.pop("bot_moves_at")
    return {"killed": killed, "promoted": promoted,
            "writes_back_s": round(writes_back_s or 0, 2),
            "rejoined_as_standby_s": round(rejoined_s, 2), "failed_back_to": leader_after,
            "failback_write_gap_s": failback_s, **figures,
            "problems": len(load.tally.problems) + len(failures) + len(shape.dead()),
            "problem_samples": (load.tally.problems + failures)[:10],
            "dead_processes": shape.dead()}


async def redis_failover(shape: HaShape, clients: int, warmup_s: float, hold_s: float
                         ) -> dict[str, Any]:
    redis = shape.redis
    load = start_load(shape.urls, clients, seed=2)
    await asyncio.sleep(warmup_s)
    old, kill_at = await asyncio.to_thread(redis.kill_master)
    print(f"redis: killed the master (port {old})", flush=True)
    await asyncio.to_thread(wait_for, lambda: redis.master_port() not in (None, old), 60,
                            "the Sentinels to promote the replica")
    promoted_at = time.time()
    print(f"redis: replica promoted after {promoted_at - kill_at:.2f} s", flush=True)
    await asyncio.sleep(hold_s)
    failures = await finish_load(load)
    figures = await judge(shape.urls[0], load.tally)
    after = sorted(t for t in figures.pop("bot_moves_at") if t >= promoted_at)
    resumed_s = round(after[0] - kill_at, 2) if after else None
    return {"promoted_s": round(promoted_at - kill_at, 2), "due_work_resumed_s": resumed_s,
            "bot_moves_after_promotion": len(after), **figures,
            "problems": len(load.tally.problems) + len(failures) + len(shape.dead()),
            "problem_samples": (load.tally.problems + failures)[:10],
            "dead_processes": shape.dead()}


async def judge(url: str, tally: Tally) -> dict[str, Any]:
    """Each game's final log against what was acknowledged in it, and its verify."""
    logs: dict[str, dict[int, str]] = {}
    probes = set(tally.probes)
    bot_moves_at: list[float] = []
    verified = 0
    async with httpx.AsyncClient(base_url=f"{url}/v1", timeout=60) as http:
        key = (await http.post("/players", json={"name": "judge"})).json()["api_key"]
        http.headers["Authorization"] = f"Bearer {key}"
        missing_probes = [game_id for game_id in tally.probes
                          if (await http.get(f"/games/{game_id}")).status_code != 200]
        for game_id in tally.finished:
            answer = await http.get(f"/games/{game_id}/history")
            lines = [msgspec.json.decode(line) for line in answer.content.splitlines() if line]
            logs[game_id] = {line["version"]: line["type"] for line in lines}
            bot_moves_at += [datetime.fromisoformat(line["recorded_at"]).timestamp()
                             for line in lines if (line["actor"] or "").startswith("bot:")]
            report = (await http.get(f"/games/{game_id}/verify")).json()
            verified += bool(report.get("ok"))
    lost = [(a.game_id, version, kind) for a in tally.acks if a.game_id in logs
            for version, kind in a.events if logs[a.game_id].get(version) != kind]
    lost += [(game_id, 1, "game_created") for game_id in missing_probes]
    return {"commands_acknowledged": len(tally.acks),
            "events_acknowledged": sum(len(a.events) for a in tally.acks),
            "acknowledged_lost": len(lost), "lost_samples": lost[:5],
            # in games that never finished, whose log is not open: those fail `games_unverified`
            "acknowledged_unjudged": sum(a.game_id not in logs and a.game_id not in probes
                                         for a in tally.acks),
            "probe_writes": len(tally.probes),
            "unavailable_503": tally.unavailable, "stale_409_422": tally.stale,
            "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
            "games_started": len(tally.games), "games_finished": len(tally.finished),
            "games_verified": verified, "games_unverified": len(tally.games) - verified,
            "bot_moves_at": bot_moves_at}


def met(report: dict[str, dict[str, Any]]) -> dict[str, bool]:
    judged = {}
    for name, target in TARGETS.items():
        scenario, figure = name.split(".", 1)
        if scenario in report:
            value = report[scenario].get(figure)
            judged[name] = value is not None and value <= target
    return judged
