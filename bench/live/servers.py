"""The production shape on this box: a database of the run's own on the local PostgreSQL, the
local Redis, and two API processes (uvicorn), each with its open-file limit raised to the
hard limit, its memory and CPU read from /proc, its loop lag from `/v1/metrics`."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import asyncpg

PG = os.environ.get("CYA_BENCH_PG", "postgres@127.0.0.1:5432")
REDIS = os.environ.get("CYA_BENCH_REDIS", "redis://127.0.0.1:6379/0")
# The scheduler: in-process. Every seat is a human the bench drives and no game has a clock,
# so no due work arises; RQ would add worker processes that idle on the two shared cores.
SCHEDULER = "in_process"
STATE_CACHE_SIZE = 1024  # the service's default (CYA_STATE_CACHE_SIZE)
STALL_LOG_MS = 100  # the loop-lag probe logs the loop's stack when it is this late


def raise_open_files() -> None:
    """RLIMIT_NOFILE's soft limit to its hard one: a process holding 10,000 streams needs
    more than the usual 1,024 (or this box's 20,000) descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _pg(pg: str, sql: str) -> None:
    conn = await asyncpg.connect(f"postgresql://{pg}/postgres")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Api:
    """One API process: its URL, pid, resident memory and CPU seconds."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.proc, self.port, self.log = proc, port, log
        self.url = f"http://127.0.0.1:{port}"

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def metrics(self) -> str:
        with urllib.request.urlopen(self.url + "/v1/metrics", timeout=30) as r:
            return str(r.read().decode())

    def wait_up(self) -> None:
        for _ in range(600):
            if self.proc.poll() is not None:
                raise SystemExit(f"an API process exited during start-up (see {self.log})")
            try:
                urllib.request.urlopen(self.url + "/v1/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("an API process did not start")


def machine_cpu() -> tuple[int, int]:
    """The whole machine's CPU ticks so far: (busy, all), from /proc/stat."""
    ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return sum(ticks) - idle, sum(ticks)


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    """How busy the machine's cores were between two readings (0-1): what the run had of
    them is its processes' CPU over this (the machine is shared)."""
    return round((after[0] - before[0]) / max(after[1] - before[1], 1), 2)


@contextmanager
def control_loop(folder: Path) -> Iterator[dict[str, Any]]:
    """A bare event loop in a process of its own, napping as the servers' probe does
    (bench/soaking/control.py), for as long as the block runs: how late the machine alone
    wakes a loop (other processes on its cores), beside the servers' stalls. Its figures fill
    the dict once the block ends."""
    out = folder / "control.json"
    proc = subprocess.Popen([sys.executable, str(Path(__file__).parents[1] / "soaking" /
                                                 "control.py"), str(out)])
    figures: dict[str, Any] = {}
    try:
        yield figures
    finally:
        time.sleep(1.2)  # it writes once a second
        proc.terminate()
        proc.wait(10)
        if out.exists():
            figures.update(json.loads(out.read_text()))


@contextmanager
def production(count: int, folder: Path, heartbeat_s: int, games: int,
               own_postgres: bool = False, python: str = sys.executable,
               root: Path | None = None, migrate: Callable[[str], None] | None = None
               ) -> Iterator[list[Api]]:
    """A fresh database, migrated, and `count` API processes on it and the local Redis, each
    caching up to `games` folded games: every process meets every game (a seat's stream and
    commands on each), and a game missing from the cache is folded from its whole log at
    each command (the default 1,024 made a command at 10,000 games a full log read through
    SQLAlchemy: a third of a process's CPU). deploy/README.md says to size it so.

    `own_postgres`: a PostgreSQL cluster of the run's own on a free port (bench/soaking's),
    durable as the shared one is (fsync, synchronous commits), for a machine whose shared
    server has no connection left to give.

    `python`, `root` and `migrate`: the servers' interpreter, the checkout they run from (its
    folder as their working directory), and its migration, for an A/B against another
    revision (bench/cpu_per_command.py)."""
    from service.events.migrate import upgrade

    run_migration = migrate or upgrade

    own = None
    pg = PG
    if own_postgres:
        from soaking.servers import OwnPostgres

        own = OwnPostgres(folder)
        own.start()
        with open(own.data / "postgresql.conf", "a") as conf:  # the last setting wins
            conf.write("fsync = on\nsynchronous_commit = on\nfull_page_writes = on\n")
        own.restart()
        pg = f"postgres@127.0.0.1:{own.port}"
    name = f"cya_bench_live_{os.getpid()}_{int(time.time())}"
    asyncio.run(_pg(pg, f'CREATE DATABASE "{name}"'))
    env = {**os.environ, "CYA_DATABASE_URL": f"postgresql+asyncpg://{pg}/{name}",
           "CYA_REDIS_URL": REDIS, "CYA_SCHEDULER": SCHEDULER,
           "CYA_RATE_LIMIT_PER_MINUTE": "0", "CYA_STALL_LOG_MS": str(STALL_LOG_MS),
           "CYA_SSE_HEARTBEAT_SECONDS": str(heartbeat_s),
           "CYA_STATE_CACHE_SIZE": str(max(STATE_CACHE_SIZE, games + STATE_CACHE_SIZE))}
    apis: list[Api] = []
    try:
        run_migration(env["CYA_DATABASE_URL"])
        for i in range(count):
            port, log = free_port(), folder / f"api-{i}.log"
            with open(log, "wb") as out:
                proc = subprocess.Popen(
                    [python, "-m", "uvicorn", "--factory",
                     "service.http.app:app_from_env", "--host", "127.0.0.1", "--port",
                     str(port), "--no-access-log", "--log-level", "warning",
                     "--backlog", "4096", "--timeout-keep-alive", "60"],
                    env=env, stdout=out, stderr=subprocess.STDOUT, cwd=root,
                    preexec_fn=raise_open_files)
            apis.append(Api(proc, port, log))
        for api in apis:
            api.wait_up()
        yield apis
    finally:
        for api in apis:
            api.proc.terminate()
        for api in apis:
            try:
                api.proc.wait(30)
            except subprocess.TimeoutExpired:
                api.proc.kill()
        if own is not None:
            own.stop()
            shutil.rmtree(own.home, ignore_errors=True)
        else:
            asyncio.run(_pg(pg, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
