"""Real HTTP servers on loopback for the webhook tests: the service itself (embedded default:
an SQLite file, deliveries in-process) and the receivers it POSTs to (bots, client apps)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn

from tests.processes import free_port

Answer = tuple[int, bytes]
Behaviour = Callable[[dict[str, str], bytes], Awaitable[Answer]]


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    at: float
    status: int


@dataclass
class Receiver:
    """An ASGI app that answers every POST by `behaviour` and keeps what it received."""

    behaviour: Behaviour
    received: list[Received] = field(default_factory=list)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the sender gave up mid-request: nothing arrived (it sends again)
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        try:
            status, out = await self.behaviour(headers, body)
        except asyncio.CancelledError:
            raise
        self.received.append(Received(headers, body, time.monotonic(), status))
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": out})


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """`app` served by uvicorn on a free loopback port, in a thread, until the block ends."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@dataclass
class Client:
    """The service's API, as one player."""

    http: httpx.Client
    key: str
    player_id: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, headers=self.auth, **kw)

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body, headers=self.auth)

    def delete(self, path: str) -> httpx.Response:
        return self.http.delete(path, headers=self.auth)


def player(http: httpx.Client, name: str) -> Client:
    r = http.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    return Client(http, r.json()["api_key"], r.json()["player_id"])


def wait_for(check: Callable[[], Any], timeout: float = 60.0, every: float = 0.05) -> Any:
    """`check()`'s first truthy answer, or fail after `timeout` seconds."""
    until = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < until, "timed out waiting"
        time.sleep(every)
