"""Many games at once on one box: the production shape (PostgreSQL, Redis, two API processes
with no proxy in front; the clients split across their ports) holding `--games` two-player
games, every seat following its game by an event stream (two streams a game; seat 0's on one
process, seat 1's on the other, so half the deliveries cross Redis), under a human-paced
command load at half of bench/http_api.py's closed-loop commands/s, measured first in the
same run on the same processes.

The load generator is `--processes` processes (multiprocessing), each with a raw-asyncio
event-stream client; their CPU is reported beside the servers'. The games are made through
the API. Targets: p99 command latency (due → answer, open loop) ≤ 100 ms; p99 delivery ≤
250 ms, from the command's send (an upper bound of from-commit) until both seats' streams
have its last event; server memory per open stream ≤ 64 KiB (RSS after opening the streams
less before, over the streams); no event-loop stall over 100 ms during the load (the
servers' probe, /v1/metrics); every stream got every event of its game, in order.

`--games 10000,15000,20000` ramps: a fresh run at each size until a target misses
(`--past-misses`: every size, to see how far the games and streams hold past the first miss).
`--by-game` puts both seats of a game on one process, as a balancer hashing the game id
would: every delivery is then local (the commit's own process), none crosses Redis.
Before the load, the servers' CPU with every stream open and no command is measured for
10 s (`server_cores_idle_streams_open`).
Prints one JSON object on its last line; exits 1 when a target is missed.

    .venv/bin/python bench/live_games.py                     # 10,000 games, 20,000 streams
    .venv/bin/python bench/live_games.py --games 200 --seconds 20   # brief
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from live import baseline, figures, servers

IDLE_S = 10.0  # the servers' CPU measured with every stream open and no command


def _all(pipes: list[Any], step: tuple[Any, ...]) -> list[dict[str, Any]]:
    for pipe in pipes:
        pipe.send(step)
    return [pipe.recv() for pipe in pipes]


def run(games: int, seconds: float, processes: int, heartbeat_s: int, own_postgres: bool,
        by_game: bool = False) -> dict[str, Any]:
    from live import load  # aiohttp, the bench extra's: `--help` runs without it

    folder = tempfile.mkdtemp(prefix=f"cya-live-{games}-")  # kept: the servers' logs
    print(f"servers' logs in {folder}", file=sys.stderr, flush=True)
    with servers.production(2, Path(folder), heartbeat_s, games, own_postgres) as apis:
        ports = [api.port for api in apis]
        rss_idle = [api.rss_kib() for api in apis]
        closed = baseline.commands_per_s([api.url for api in apis], 3.0)
        rate = closed / 2
        ctx = multiprocessing.get_context("fork")
        pipes, workers = [], []
        share = [games // processes + (i < games % processes) for i in range(processes)]
        for i in range(processes):
            mine, theirs = ctx.Pipe()
            worker = ctx.Process(target=load.run,
                                 args=(theirs, ports, sum(share[:i]), share[i], by_game),
                                 daemon=True)
            worker.start()
            pipes.append(mine)
            workers.append(worker)
        try:
            made = _all(pipes, ("make",))
            print(f"made {made}", file=sys.stderr, flush=True)
            rss_before = [api.rss_kib() for api in apis]
            lag_before_open = [api.metrics() for api in apis]
            opened = _all(pipes, ("open",))
            print(f"opened {opened}; RSS {[api.rss_kib() for api in apis]} KiB after "
                  f"{rss_before}", file=sys.stderr, flush=True)
            time.sleep(2.0)  # the openings' own work settles
            rss_after = [api.rss_kib() for api in apis]
            # What the open streams cost with no command at all (heartbeats, the feeds'
            # timer, the matchmaker's tick): the part of a command's CPU the load does not add.
            idle_before = [api.cpu_s() for api in apis]
            time.sleep(IDLE_S)
            idle_cores = (sum(api.cpu_s() for api in apis) - sum(idle_before)) / IDLE_S
            lag_before = [api.metrics() for api in apis]
            cpu_before = [api.cpu_s() for api in apis]
            busy_before = servers.machine_cpu()
            with servers.control_loop(Path(folder)) as control:
                played = _all(pipes, ("play", rate / processes, seconds))
            machine_busy = servers.busy_share(busy_before, servers.machine_cpu())
            cpu_after = [api.cpu_s() for api in apis]
            lag_after = [api.metrics() for api in apis]
            reports = _all(pipes, ("judge", 5.0))
        finally:
            for pipe in pipes:
                pipe.send(("stop",))
            for worker in workers:
                worker.join(30)
        streams = sum(o["streams"] for o in opened)
        refused: dict[str, int] = {}
        for o in opened:
            for code, n in o["refused"].items():
                refused[code] = refused.get(code, 0) + n
        during_load = figures.lag(lag_before, lag_after)
        while_opening = figures.lag(lag_before_open, lag_before)
        window = max(p["s"] for p in played)
        return {
            "games_asked": games, "games": sum(m["games"] for m in made),
            "games_failed": sum(m["failed"] for m in made),
            "making_s": round(max(m["s"] for m in made), 1),
            "streams": streams, "stream_openings_refused": refused,
            "stream_open_errors": sum(o["errors"] for o in opened),
            "opening_s": round(max(o["s"] for o in opened), 1),
            "closed_loop_commands_per_s": round(closed, 1), "rate_per_s": round(rate, 1),
            "seconds": seconds, **figures.judged(reports),
            "server_rss_mib_idle": [round(r / 1024) for r in rss_idle],
            "server_rss_mib_games_made": [round(r / 1024) for r in rss_before],
            "server_rss_mib": [round(r / 1024) for r in rss_after],
            "kib_per_stream": round((sum(rss_after) - sum(rss_before)) / max(streams, 1), 1),
            "loop_stalls_over_100ms": during_load["stalls_over_100ms"],
            "loop_lag_worst_ms_bound": during_load["worst_ms_bound"],
            "loop_stalls_while_opening": while_opening["stalls_over_100ms"],
            "bare_loop_stalls_over_100ms": control.get("over_100ms"),
            "bare_loop_worst_ms": control.get("max_ms"),
            "load_window_s": round(window, 1),
            "server_cores": round((sum(cpu_after) - sum(cpu_before)) / window, 2),
            "server_cpu_ms_per_command": round(
                (sum(cpu_after) - sum(cpu_before)) * 1000 / max(
                    sum(r["commands"] + r["refused"] for r in reports), 1), 2),
            "server_cores_idle_streams_open": round(idle_cores, 3),
            "machine_busy_while_loaded": machine_busy,
            "client_cores": round(sum(p["cpu_s"] for p in played) / window, 2),
            "processes": processes, "routing": "by-game" if by_game else "split",
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="10000",
                        help="games at once; a comma-separated list ramps, stopping at the "
                             "first size that misses a target (default 10000)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="length of the measured command load (default 60)")
    parser.add_argument("--processes", type=int, default=4,
                        help="load-generator processes (default 4)")
    parser.add_argument("--heartbeat", type=int, default=15,
                        help="the servers' stream heartbeat, seconds (default 15, the "
                             "service's)")
    parser.add_argument("--own-postgres", action="store_true",
                        help="a PostgreSQL cluster of the run's own on a free port (durable, "
                             "as the shared one), instead of a database on the local server")
    parser.add_argument("--by-game", action="store_true",
                        help="both seats of a game on one process (as behind a balancer that "
                             "hashes the game id), instead of one on each")
    parser.add_argument("--past-misses", action="store_true",
                        help="ramp through every size of --games, past the first miss")
    args = parser.parse_args()
    servers.raise_open_files()
    runs = []
    for games in (int(g) for g in args.games.split(",")):
        result = run(games, args.seconds, args.processes, args.heartbeat, args.own_postgres,
                     args.by_game)
        result["met"] = figures.met(result)
        runs.append(result)
        print(json.dumps(result), file=sys.stderr, flush=True)
        if not all(result["met"].values()) and not args.past_misses:
            break
    first = runs[0]
    held = [r["games_asked"] for r in runs if all(r["met"].values())]
    missing = next((r for r in runs if not all(r["met"].values())), None)
    missed = [name for name, ok in missing["met"].items() if not ok] if missing else []
    summary = {"benchmark": "live_games", **first,
               "ramp": [{"games": r["games_asked"], "met": all(r["met"].values()),
                         **{k: r[k] for k in ("p99_command_ms", "p99_delivery_ms",
                                              "kib_per_stream", "loop_stalls_over_100ms",
                                              "missed_events", "streams",
                                              "stream_openings_refused",
                                              "server_cores_idle_streams_open",
                                              "server_cpu_ms_per_command")}} for r in runs],
               "most_games_held": max(held, default=0),
               "breaks_first_at": missing["games_asked"] if missing else None,
               "breaks_first_on": missed,
               "targets": figures.TARGETS, "ok": all(first["met"].values())}
    print(json.dumps(summary))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
