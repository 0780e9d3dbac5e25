"""The service as deployed, in either shape, and the faults `--faults` injects into it.

- production: two API processes (uvicorn, the app from the environment; no balancer: the
  clients spread over both), two `cya worker`s, PostgreSQL and Redis of the soak's own;
- embedded: the default, one API process on an SQLite file with its jobs in-process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .priority import as_service
from .servers import OwnPostgres, OwnRedis, free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
CYA = str(Path(sys.executable).parent / "cya")
COMMON_ENV = {
    # One address sends every client's requests: a per-address limit would be the soak's.
    "CYA_RATE_LIMIT_PER_MINUTE": "0",
    "CYA_STALL_LOG_MS": "100",  # what stalls a loop past the target, named in its log
    "CYA_WEBHOOKS_ALLOW_PRIVATE": "1",  # the soak's receiver listens on loopback
    "CYA_SWEEP_INTERVAL_S": "1",
    "CYA_SWEEP_GRACE_S": "2",
    "CYA_WEBHOOKS_SWEEP_INTERVAL_S": "1",
    "CYA_BOT_DELAY_MS": "30",
}


@dataclass
class Process:
    """One process of the service, started again after a kill with the same command."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    url: str | None = None  # an API process's address
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True,
                                         preexec_fn=as_service)
        self.starts += 1
        if self.url is not None:
            wait_healthy(self.url, self.proc)

    def kill(self) -> None:
        """kill -9 of the process and its group (a worker's RQ scheduler child with it), as
        the kernel's OOM killer or a lost machine would."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()
        except ProcessLookupError:
            pass
        self.proc = None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@dataclass
class Fault:
    name: str
    act: Callable[[], None]  # blocks until the service is whole again


@dataclass
class Cluster:
    backend: str  # "production" or "embedded"
    folder: Path
    apis: list[Process] = field(default_factory=list)
    workers: list[Process] = field(default_factory=list)
    postgres: OwnPostgres | None = None
    redis: OwnRedis | None = None

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CYA_")} | COMMON_ENV
        if self.backend == "production":
            self.postgres, self.redis = OwnPostgres(self.folder), OwnRedis(self.folder)
            self.postgres.start()
            self.postgres.create_database("cya")
            self.redis.start()
            env |= {"CYA_DATABASE_URL": self.postgres.url("cya"),
                    "CYA_REDIS_URL": self.redis.url, "CYA_SCHEDULER": "rq"}
        else:
            env |= {"CYA_DATABASE_URL": f"sqlite+aiosqlite:///{self.folder / 'cya.sqlite3'}"}
        subprocess.run([CYA, "db", "upgrade"], env=env, check=True, capture_output=True)
        api_count, worker_count = (2, 2) if self.backend == "production" else (1, 0)
        for n in range(worker_count):
            # Named by `cya worker` itself, uniquely: RQ refuses a name a killed worker
            # held until its key expires.
            self.workers.append(Process(f"worker-{n}", [CYA, "worker"], env,
                                        self.folder / f"worker-{n}.log"))
        for n in range(api_count):
            port = free_port()
            self.apis.append(Process(
                f"api-{n}", [sys.executable, "-m", "uvicorn", "--factory",
                             "service.http.app:app_from_env", "--host", "127.0.0.1", "--port",
                             str(port), "--no-access-log", "--log-level", "warning"],
                env, self.folder / f"api-{n}.log", url=f"http://127.0.0.1:{port}"))
        for process in self.workers + self.apis:
            process.start()

    @property
    def urls(self) -> list[str]:
        return [api.url for api in self.apis if api.url is not None]

    def faults(self) -> list[Fault]:
        """The faults of `--faults`, in the order they are injected."""
        found = []
        if self.workers:
            found.append(Fault("worker killed", lambda: self._kill_and_start(self.workers[0])))
        found.append(Fault("api killed", lambda: self._kill_and_start(self.apis[-1])))
        if self.redis is not None:
            redis = self.redis
            found.append(Fault("redis restarted", lambda: redis.restart(down_s=2.0)))
        if self.postgres is not None:
            found.append(Fault("postgres restarted", self.postgres.restart))
        return found

    @staticmethod
    def _kill_and_start(process: Process) -> None:
        process.kill()
        time.sleep(1.0)
        process.start()

    def dead(self) -> list[str]:
        """Processes that exited by themselves (not killed by a fault)."""
        return [p.name for p in self.apis + self.workers if not p.alive]

    def stop(self) -> None:
        for process in self.apis + self.workers:
            process.stop()
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()
