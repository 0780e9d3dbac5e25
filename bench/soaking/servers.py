"""PostgreSQL and Redis of the soak's own, on free ports in a temporary folder: `--faults`
restarts them, which the shared servers (5432, 6379) other runs use must never be."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import httpx

from .priority import as_service


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda p: int(p.parent.parent.name))
    if not found:
        raise SystemExit("no PostgreSQL binaries under /usr/lib/postgresql/*/bin")
    return found[-1].parent


class OwnPostgres:
    """`initdb` + `pg_ctl` in `folder`. PostgreSQL refuses to run as root: then its files
    belong to, and it runs as, the `postgres` user."""

    def __init__(self, folder: Path) -> None:
        self.bin = _postgres_bin()
        self.home = folder / "postgres"
        self.data = self.home / "data"
        self.port = free_port()
        self.log = self.home / "server.log"
        self._as: list[str] = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        self.home.mkdir(parents=True)
        if self._as:
            os.chmod(self.home.parent, 0o755)
            shutil.chown(self.home, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A",
                  "trust", "--no-sync", "-E", "UTF8")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{self.home}'\nfsync = off\n"
                       "synchronous_commit = off\nfull_page_writes = off\n"
                       "max_connections = 200\nshared_buffers = 64MB\n")
        self._ctl("start")

    def restart(self) -> None:
        """As an operator's restart: the clients' connections are cut, then it answers again."""
        self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        if self.data.exists():
            self._ctl("stop", "-m", "immediate", check=False)

    def create_database(self, name: str) -> None:
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                  "postgres", name)

    def _ctl(self, *args: str, check: bool = True) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w",
                  "-t", "60", *args, check=check)

    def _run(self, *command: str, check: bool = True) -> None:
        done = subprocess.run([*self._as, *command], capture_output=True, cwd="/",
                              preexec_fn=as_service)
        if check and done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()[-2000:]}")


class OwnRedis:
    """`redis-server` without persistence: a restart loses every queued job, as a Redis
    without a disk would (the service's sweeps must find the work again)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.log = folder / "redis.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no"], stdout=out, stderr=subprocess.STDOUT,
                preexec_fn=as_service)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None

    def restart(self, down_s: float) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{url}: the process exited during start-up")
        try:
            if httpx.get(f"{url}/v1/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{url} never became healthy")
