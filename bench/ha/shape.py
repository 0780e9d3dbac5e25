"""The service as deployed for high availability: API processes (uvicorn, the app from the
environment) and `cya worker`s, with `CYA_DATABASE_URL` naming HAProxy (which sends to
Patroni's primary) and `CYA_REDIS_URL` naming the Sentinels (`redis+sentinel://`)."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench.soaking.cluster import COMMON_ENV, CYA, Process
from bench.soaking.servers import free_port

from .patroni import PatroniPair
from .sentinels import SentinelRedis


@dataclass
class HaShape:
    folder: Path
    api_count: int = 2
    worker_count: int = 2
    postgres: PatroniPair = field(init=False)
    redis: SentinelRedis = field(init=False)
    apis: list[Process] = field(default_factory=list)
    workers: list[Process] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.postgres, self.redis = PatroniPair(self.folder), SentinelRedis(self.folder)

    @property
    def urls(self) -> list[str]:
        return [api.url for api in self.apis if api.url is not None]

    def start(self) -> None:
        with ThreadPoolExecutor() as pool:  # the two clusters start side by side
            for started in [pool.submit(self._start_postgres), pool.submit(self.redis.start)]:
                started.result()
        env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")} | COMMON_ENV
        env |= {"CYA_DATABASE_URL": self.postgres.url("cya"), "CYA_REDIS_URL": self.redis.url,
                "CYA_SCHEDULER": "rq"}
        done = subprocess.run([CYA, "db", "upgrade"], env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"cya db upgrade failed: {done.stderr[-2000:]}")
        for n in range(self.worker_count):
            self.workers.append(Process(f"worker-{n}", [CYA, "worker"], env,
                                        self.folder / f"worker-{n}.log"))
        for n in range(self.api_count):
            port = free_port()
            self.apis.append(Process(
                f"api-{n}", [sys.executable, "-m", "uvicorn", "--factory",
                             "service.http.app:app_from_env", "--host", "127.0.0.1", "--port",
                             str(port), "--no-access-log", "--log-level", "warning"],
                env, self.folder / f"api-{n}.log", url=f"http://127.0.0.1:{port}"))
        for process in self.workers + self.apis:
            process.start()

    def _start_postgres(self) -> None:
        self.postgres.start()
        self.postgres.create_database("cya")

    def dead(self) -> list[str]:
        """The service's processes that exited by themselves (none is killed here)."""
        return [p.name for p in self.apis + self.workers if not p.alive]

    def stop(self) -> None:
        with ThreadPoolExecutor() as pool:
            list(pool.map(Process.stop, self.apis + self.workers))
            list(pool.map(lambda cluster: cluster.stop(), [self.redis, self.postgres]))
