"""The soak's own HTTP calls (everything but the SDK's clients): one httpx client per API
process, timed by `calls.py`, and retried as a careful client would through an outage: a
refused connection, a 503 or a 429 is tried again until `patience_s` has passed."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx

from .calls import AsyncTimedTransport, Calls

RETRY_STATUS = frozenset({429, 502, 503, 504})


class GaveUp(Exception):
    pass


class Endpoint:
    """One API process as the soak's clients reach it."""

    def __init__(self, url: str, calls: Calls) -> None:
        self.url = url
        self.http = httpx.AsyncClient(
            base_url=url, transport=AsyncTimedTransport(calls, retries=0),
            timeout=httpx.Timeout(15.0, read=45.0),
            limits=httpx.Limits(max_connections=400, max_keepalive_connections=100))

    async def request(self, method: str, path: str, key: str | None = None, *,
                      patience_s: float = 90.0, ok: tuple[int, ...] = (200, 201, 202, 204),
                      **kwargs: Any) -> httpx.Response:
        """The answer, retried through outages; raises `GaveUp` past `patience_s`. A write
        carries one Idempotency-Key for all its attempts, so a retry acts once."""
        headers = dict(kwargs.pop("headers", {}))
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        if method == "POST":
            headers.setdefault("Idempotency-Key", uuid.uuid4().hex)
        deadline = time.monotonic() + patience_s
        while True:
            problem: str
            try:
                r = await self.http.request(method, path, headers=headers, **kwargs)
                if r.status_code in ok:
                    return r
                problem = f"{r.status_code} {r.text[:300]}"
                if r.status_code < 500 and r.status_code not in RETRY_STATUS:
                    raise GaveUp(f"{method} {path}: {problem}")
            except httpx.TransportError as e:
                problem = repr(e)
            if time.monotonic() > deadline:
                raise GaveUp(f"{method} {path}: {problem}")
            await asyncio.sleep(0.5)

    async def json(self, method: str, path: str, key: str | None = None,
                   **kwargs: Any) -> Any:
        return (await self.request(method, path, key, **kwargs)).json()

    async def aclose(self) -> None:
        await self.http.aclose()


class Player:
    """A player of the soak: its key, and the API process it talks to."""

    def __init__(self, endpoint: Endpoint, made: dict[str, Any]) -> None:
        self.api = endpoint
        self.id: str = made["player_id"]
        self.key: str = made["api_key"]
        self.name: str = made.get("name") or ""

    @classmethod
    async def create(cls, endpoint: Endpoint, name: str) -> Player:
        made = await endpoint.json("POST", "/v1/players", json={"name": name})
        return cls(endpoint, {**made, "name": name})

    async def get(self, path: str, **kwargs: Any) -> Any:
        return await self.api.json("GET", path, self.key, **kwargs)

    async def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return await self.api.json("POST", path, self.key, json=body, **kwargs)
