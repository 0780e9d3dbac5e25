"""Server CPU per command: the API processes' own CPU seconds (utime + stime from
/proc/<pid>/stat, both processes summed) over a phase, divided by the commands answered in it.
A shared machine makes wall-clock rates noisy; a process's CPU per unit of work is not
(contention delays the work, it does not add to it), so this is the figure to compare code by.

The production shape of bench/live_games.py, small: a fresh database on the local PostgreSQL,
the local Redis, two API processes (uvicorn).

(a) `closed`: no followers. bench/http_api.py's closed loop (64 four-player games, each
    request to the next process), for `--seconds`; then `paced`: the same games in an open
    loop at `--rate` (a commit then seldom shares its transaction with others, as it does in
    the closed loop: the cost of a command alone).
(b) `followed`: `--games` two-player games, both seats following by event streams (seat 0's
    on one process, seat 1's on the other, so every commit reaches a follower through Redis),
    commands sent at `--rate` a second for `--seconds` by one load process
    (bench/live/load.py). Everything the servers do in the window counts: the command, both
    feeds, both streams' deliveries, heartbeats, the feeds' timer.
(c) `crowd`: `--crowd` streams on four of (a)'s games (a game's seats and processes in
    turn), then 40 commands one at a time, each once every stream has its events: CPU per
    command, and per event delivered to one stream (the issue's many followers of one game).

Target: (b) ≤ 1.5 ms a command. Why: bench/live_games.py's load at 10,000 games is half the
closed loop's rate, 200–360 commands/s on this box; at 1.5 ms that is 0.3–0.54 of a core, so
the servers fit beside PostgreSQL, Redis and the load generator on two cores with room for
bursts (2.2 ms measured before, 0.44–0.8 of a core, saturated them once the others ran).

`--server-python`/`--server-root` run the servers (and the migration) from another checkout,
e.g. a worktree of an older revision with its own venv, for an A/B with the same load.
Prints one JSON object on its last line; exits 1 on a miss.

    .venv/bin/python bench/cpu_per_command.py          # 200 games followed, 40 commands/s
    .venv/bin/python bench/cpu_per_command.py --server-root ../old \
        --server-python ../old/.venv/bin/python        # the servers of another checkout
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from live import servers

TARGET_FOLLOWED_MS = 1.5
CROWD_COMMANDS = 40
CROWD_PROFILE_S = 8.0  # `--profile`: about as long as (c)'s commands take
IDLE_S = 5.0  # (b)'s servers measured idle first, their streams open: the timer, heartbeats
PROFILE: Path | None = None  # `--profile`: py-spy's folded stacks of each server, each phase


@contextlib.contextmanager
def _profiled(apis: list[servers.Api], phase: str, seconds: float) -> Iterator[None]:
    """py-spy sampling each server for the phase (`--profile`; py-spy installed apart), its
    folded stacks written beside the servers' logs: the profile of the very run measured."""
    if PROFILE is None:
        yield
        return
    spies = [subprocess.Popen(["py-spy", "record", "--gil", "--nonblocking", "--format", "raw",
                               "-d", str(int(seconds)), "-r", "200", "-p", str(api.proc.pid),
                               "-o", str(PROFILE / f"{phase}-{i}.txt")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for i, api in enumerate(apis)]
    try:
        yield
    finally:
        for spy in spies:
            spy.wait(seconds + 30)


def _cpu(apis: list[servers.Api]) -> float:
    return sum(api.cpu_s() for api in apis)


async def _unfollowed(bases: list[str], apis: list[servers.Api], seconds: float, rate: float,
                      crowd: int) -> dict[str, Any]:
    """(a) and (a'): bench/http_api.py's games, no followers, closed loop then open loop at
    (b)'s rate (whose commits are not grouped with others as the closed loop's are)."""
    import http_api  # bench/, first on the path of a script run from it

    load = http_api.Load(bases)
    try:
        games = http_api.Games(load, await http_api.tables(load, 4 * http_api.GAMES))
        await http_api._timed(1.0, games.step, http_api.GAMES)  # warm up
        await games.restock(3 * http_api.GAMES)
        before, began = _cpu(apis), time.monotonic()
        with _profiled(apis, "closed", seconds):
            done, _ = await http_api._timed(seconds, games.step, http_api.GAMES)
        cpu, wall = _cpu(apis) - before, time.monotonic() - began
        closed = {"commands": done, "commands_per_s": round(done / wall, 1),
                  "server_cores": round(cpu / wall, 2),
                  "cpu_ms_per_command": round(cpu * 1000 / max(done, 1), 3)}
        await games.restock(3 * http_api.GAMES)
        before, began = _cpu(apis), time.monotonic()
        with _profiled(apis, "paced", seconds):
            done = len(await http_api.paced(games, rate, seconds))
        cpu, wall = _cpu(apis) - before, time.monotonic() - began
        paced = {"commands": done, "commands_per_s": round(done / wall, 1),
                 "server_cores": round(cpu / wall, 2),
                 "cpu_ms_per_command": round(cpu * 1000 / max(done, 1), 3)}
        return {"closed": closed, "paced": paced,
                "crowd": await _crowd(http_api, load, apis, crowd)}
    finally:
        await load.close()


async def _crowd(http_api: Any, load: Any, apis: list[servers.Api], subscribers: int
                 ) -> dict[str, Any]:
    """(c): `subscribers` streams on four games (each opened by one of the game's seats in
    turn, on the processes in turn), then `CROWD_COMMANDS` commands one after the other, each
    once every stream has its last event: the servers' CPU per command, and per delivery of
    an event to one stream."""
    import aiohttp

    tables = [await load.table() for _ in range(4)]
    arrived: dict[tuple[str, int], int] = {}
    opened = 0
    all_open = asyncio.Event()

    async def follow(t: Any, seat: Any) -> None:
        nonlocal opened
        async with load.http.get(
                f"{load.base()}/v1/games/{t.game_id}/events?after={t.version}",
                headers={**seat.auth, "Accept": "text/event-stream"},
                timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as r:
            opened += 1
            if opened == subscribers:
                all_open.set()
            async for line in r.content:
                if line.startswith(b"id:"):
                    key = (t.game_id, int(line[3:]))
                    arrived[key] = arrived.get(key, 0) + 1

    tasks = [asyncio.create_task(follow(tables[i % 4], tables[i % 4].seats[i // 4 % 4]))
             for i in range(subscribers)]
    try:
        await asyncio.wait_for(all_open.wait(), 120)
        await asyncio.sleep(1.0)  # the openings' own work settles
        before, commands, events, late = _cpu(apis), 0, 0, 0
        profiling = contextlib.ExitStack()
        profiling.enter_context(_profiled(apis, "crowd", CROWD_PROFILE_S))
        for n in range(CROWD_COMMANDS):
            t = tables[n % 4]
            if t.over:
                continue
            version = t.version
            status, body = await load.call("POST", f"/v1/games/{t.game_id}/commands",
                                           http_api.choose(t.seats[t.turn].hand),
                                           t.seats[t.turn].auth)
            if status != 200:
                await load.resync(t)
                continue
            load.apply(t, body["events"])
            t.version = body["version"]
            commands += 1
            events += (t.version - version) * subscribers // 4
            deadline = time.monotonic() + 10.0
            while arrived.get((t.game_id, t.version), 0) < subscribers // 4:
                if time.monotonic() > deadline:
                    late += 1
                    break
                await asyncio.sleep(0.005)
        cpu = _cpu(apis) - before
        profiling.close()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"streams": subscribers, "commands": commands, "deliveries": events,
            "commands_not_delivered_in_10_s": late,
            "cpu_ms_per_command": round(cpu * 1000 / max(commands, 1), 2),
            "cpu_us_per_delivery": round(cpu * 1e6 / max(events, 1), 1)}


def _followed(apis: list[servers.Api], games: int, rate: float, seconds: float
              ) -> dict[str, Any]:
    from live import load

    ctx = multiprocessing.get_context("fork")
    mine, theirs = ctx.Pipe()
    worker = ctx.Process(target=load.run, args=(theirs, [a.port for a in apis], 0, games),
                         daemon=True)
    worker.start()

    def step(*message: Any) -> Any:
        mine.send(message)
        return mine.recv()

    try:
        made = step("make")
        opened = step("open")
        time.sleep(2.0)  # the openings' own work settles
        before, began = _cpu(apis), time.monotonic()
        time.sleep(IDLE_S)
        idle = (_cpu(apis) - before) / (time.monotonic() - began)
        before = _cpu(apis)
        with _profiled(apis, "followed", seconds):
            played = step("play", rate, seconds)
        cpu = _cpu(apis) - before
        report = step("judge", 3.0)
    finally:
        mine.send(("stop",))
        worker.join(30)
    commands = report["commands"] + report["refused"]
    return {"games": made["games"], "streams": opened["streams"], "commands": commands,
            "commands_per_s": round(commands / played["s"], 1),
            "server_cores": round(cpu / played["s"], 2),
            "cpu_ms_per_command": round(cpu * 1000 / max(commands, 1), 3),
            "idle_server_cores": round(idle, 3),
            "cpu_ms_per_command_less_idle": round(
                (cpu - idle * played["s"]) * 1000 / max(commands, 1), 3),
            "missed_events": report["missed_events"],
            "out_of_order_streams": report["out_of_order_streams"],
            "undelivered_commands": report["undelivered_commands"]}


def _migrate_with(python: str, root: Path) -> Any:
    """The migration of the checkout the servers run from (its schema, not this one's)."""
    def upgrade(url: str) -> None:
        subprocess.run([python, "-c", "import sys; from service.events.migrate import upgrade;"
                        " upgrade(sys.argv[1])", url], cwd=root, check=True)
    return upgrade


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200,
                        help="games followed by both seats in (b) (default 200)")
    parser.add_argument("--rate", type=float, default=40.0,
                        help="commands a second in (b) and `paced` (default 40)")
    parser.add_argument("--seconds", type=float, default=15.0,
                        help="length of each measured phase (default 15)")
    parser.add_argument("--server-python", default=sys.executable,
                        help="the servers' interpreter (default this one)")
    parser.add_argument("--server-root", type=Path, default=None,
                        help="the checkout the servers run from (default this one)")
    parser.add_argument("--crowd", type=int, default=1000,
                        help="streams on four games in (c) (default 1000)")
    parser.add_argument("--profile", action="store_true",
                        help="sample the servers with py-spy (on the PATH) in each phase; "
                             "the folded stacks go beside the servers' logs")
    args = parser.parse_args()
    servers.raise_open_files()
    folder = Path(tempfile.mkdtemp(prefix="cya-cpu-"))
    global PROFILE
    PROFILE = folder if args.profile else None
    print(f"servers' logs in {folder}", file=sys.stderr, flush=True)
    migrate = (None if args.server_root is None
               else _migrate_with(args.server_python, args.server_root.resolve()))
    with servers.production(2, folder, 15, args.games, python=args.server_python,
                            root=args.server_root, migrate=migrate) as apis:
        unfollowed = asyncio.run(_unfollowed([a.url for a in apis], apis, args.seconds,
                                             args.rate, args.crowd))
        print(f"unfollowed {unfollowed}", file=sys.stderr, flush=True)
        followed = _followed(apis, args.games, args.rate, args.seconds)
        print(f"followed {followed}", file=sys.stderr, flush=True)
    ok = (followed["cpu_ms_per_command"] <= TARGET_FOLLOWED_MS
          and followed["missed_events"] == 0 and followed["out_of_order_streams"] == 0)
    print(json.dumps({"benchmark": "cpu_per_command", "server_root": str(
                          args.server_root or Path(__file__).resolve().parents[1]),
                      **unfollowed, "followed": followed,
                      "targets": {"followed_cpu_ms_per_command": TARGET_FOLLOWED_MS,
                                  "missed_events": 0},
                      "ok": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
