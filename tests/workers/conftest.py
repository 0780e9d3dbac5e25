"""Real PostgreSQL, real Redis, real worker processes; nothing shared with a parallel run.

PostgreSQL: a migrated template database named for this run, cloned per test and dropped.
Redis: each test claims a database index of its own (1–15) with `SET … NX` on a claim key and
FLUSHDBs only that index, never the server: other runs may use the others.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from redis import Redis

from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings
from tests.postgres import database, url_of
from tests.processes import ROOT
from tests.tcp_proxy import TcpProxy, tcp_proxy

REDIS_HOST = os.environ.get("CYA_TEST_REDIS", "redis://127.0.0.1:6379")
CLAIM_KEY = "cya:test:claimed-by"
CYA = str(Path(sys.executable).parent / "cya")  # the installed `cya` entry point


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    with database("cya_wtest") as name:
        yield name


@pytest.fixture
def database_url(pg_template: str) -> Iterator[str]:
    with database("cya_wtest", template=pg_template) as name:
        yield url_of(name)


@dataclass
class RedisDb:
    url: str
    client: Redis
    token: str

    def flush(self) -> None:
        """FLUSHDB of this test's own index, then re-claim it."""
        self.client.flushdb()
        self.client.set(CLAIM_KEY, self.token, ex=900)


@pytest.fixture
def redis_db() -> Iterator[RedisDb]:
    token = uuid.uuid4().hex
    for index in range(1, 16):
        client = Redis.from_url(f"{REDIS_HOST}/{index}")
        if client.dbsize() == 0 and client.set(CLAIM_KEY, token, nx=True, ex=900):
            break
        client.close()
    else:
        pytest.fail("no free Redis database index (1–15): other runs hold them all")
    db = RedisDb(f"{REDIS_HOST}/{index}", client, token)
    try:
        yield db
    finally:
        if client.get(CLAIM_KEY) == token.encode():
            client.flushdb()
        client.close()


@pytest.fixture
def redis_proxy(redis_db: RedisDb) -> Iterator[TcpProxy]:
    """A proxy to this test's Redis that the test can cut, as if Redis went down, without
    touching the server other runs share; `proxied_url` is its URL for this test's index."""
    parts = urlsplit(redis_db.url)
    with tcp_proxy(parts.hostname or "127.0.0.1", parts.port or 6379) as proxy:
        yield proxy


def proxied_url(redis_db: RedisDb, proxy: TcpProxy) -> str:
    return proxy.url("redis", urlsplit(redis_db.url).path)


@pytest.fixture
def settings(database_url: str, redis_db: RedisDb) -> Settings:
    return Settings(database_url=database_url, redis_url=redis_db.url, scheduler="rq",
                    sweep_interval_s=0.5, sweep_grace_s=1.0)


def worker_env(settings: Settings) -> dict[str, str]:
    assert settings.redis_url
    return {
        **os.environ,
        "CYA_DATABASE_URL": settings.database_url,
        "CYA_REDIS_URL": settings.redis_url,
        "CYA_SCHEDULER": "rq",
        "CYA_RQ_QUEUE": settings.rq_queue,
        "CYA_BOT_DELAY_MS": str(settings.bot_delay_ms),
        "CYA_SWEEP_INTERVAL_S": str(settings.sweep_interval_s),
        "CYA_SWEEP_GRACE_S": str(settings.sweep_grace_s),
        "CYA_LOBBY_TTL_S": str(settings.lobby_ttl_s),
        "CYA_ABANDON_AFTER_S": str(settings.abandon_after_s),
    }


@dataclass
class Workers:
    """`cya worker` processes, started as a deployment would start them."""

    settings: Settings
    log_dir: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self) -> subprocess.Popen[bytes]:
        n = len(self.procs)
        log = open(self.log_dir / f"worker-{n}.log", "wb")  # noqa: SIM115 (lives with the proc)
        proc = subprocess.Popen(
            [CYA, "worker", "--name", f"test-{n}-{uuid.uuid4().hex[:6]}"],
            cwd=ROOT, env=worker_env(self.settings), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: teardown ends its children too
        )
        self.procs.append(proc)
        return proc

    def kill_hard(self, proc: subprocess.Popen[bytes], *, with_scheduler: bool = False) -> None:
        """SIGKILL to the worker; `with_scheduler`: to its RQ scheduler child too, as an OOM
        kill of its container would."""
        if with_scheduler:
            self._signal_group(proc, signal.SIGKILL)
        else:
            proc.send_signal(signal.SIGKILL)
        proc.wait(5)

    def stop_all(self) -> None:
        """SIGTERM to each worker's group, then SIGKILL to whatever is left: a worker killed
        hard leaves its RQ scheduler child behind, in the same group."""
        for p in self.procs:
            self._signal_group(p, signal.SIGTERM)
        deadline = time.monotonic() + 5
        for p in self.procs:
            try:
                p.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        time.sleep(0.2)
        for p in self.procs:
            self._signal_group(p, signal.SIGKILL)

    @staticmethod
    def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)


@pytest.fixture
def workers(settings: Settings, tmp_path: Path) -> Iterator[Workers]:
    w = Workers(settings, tmp_path)
    try:
        yield w
    finally:
        w.stop_all()


@pytest.fixture
async def api(settings: Settings) -> AsyncIterator[Services]:
    """This test process as one API process: commits schedule their due work through RQ."""
    s = build(settings)
    try:
        yield s
    finally:
        await s.close()


ApiFactory = Callable[[], Services]
