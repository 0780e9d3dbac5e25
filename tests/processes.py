"""Helpers for tests that run the API as a process of its own, as deployed."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ApiProcess:
    proc: subprocess.Popen[bytes]
    url: str


@contextmanager
def running_apis(env: dict[str, str], log_dir: Path, count: int = 1
                 ) -> Iterator[list[ApiProcess]]:
    """`count` uvicorn processes serving the app from `env` (as `serve.sh` and the deploy
    files do), each on a free port with its output in `log_dir`, healthy when yielded and
    stopped after."""
    apis: list[ApiProcess] = []
    try:
        for n in range(count):
            port = free_port()
            with open(log_dir / f"api-{n}.log", "wb") as out:  # the child keeps its own copy
                apis.append(ApiProcess(subprocess.Popen(
                    [sys.executable, "-m", "uvicorn", "--factory",
                     "service.http.app:app_from_env", "--host", "127.0.0.1", "--port",
                     str(port), "--log-level", "warning"],
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT),
                    f"http://127.0.0.1:{port}"))
        for api in apis:
            wait_healthy(api.url)
        yield apis
    finally:
        for api in apis:
            api.proc.terminate()
        for api in apis:
            try:
                api.proc.wait(10)
            except subprocess.TimeoutExpired:
                api.proc.kill()  # a stuck shutdown must not outlive the test
                api.proc.wait()


def wait_healthy(url: str, timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/v1/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} never became healthy")
