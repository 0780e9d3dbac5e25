"""Helpers for tests that run the API as a process of its own, as deployed."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterable
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


def start_api(env: dict[str, str], log: Path) -> ApiProcess:
    """`uvicorn` serving the app from `env` (as `serve.sh` and the deploy files do) on a free
    port, its output in `log`. Not yet ready: see `wait_healthy`."""
    port = free_port()
    with open(log, "wb") as out:  # the child holds its own copy of the descriptor
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "service.http.app:app_from_env",
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    return ApiProcess(proc, f"http://127.0.0.1:{port}")


def stop_apis(apis: Iterable[ApiProcess]) -> None:
    apis = list(apis)
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
