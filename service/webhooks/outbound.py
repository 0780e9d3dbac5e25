"""Every request the service sends out, through one guarded client: no redirects followed, a
size limit on answers, a connect and a total timeout, and no connection to a private,
loopback or link-local address, nor to one that reaches such an address through a translator
(`destinations.py`), unless the settings allow it.

The address check happens when the connection is made, on the address connected to (the
client's network backend resolves the name itself and connects to the address it checked), so
a name that resolves to a public address at registration and to a private one later is
refused too; and every URL's form is checked again before it is sent, so a URL stored under
an older policy is refused (a recorded attempt) instead of failing the job.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Literal

import httpcore
import httpx

from service.webhooks.destinations import UrlRefused, check_url_form, resolve_allowed
from service.webhooks.settings import WebhookSettings

AnswerKind = Literal["ok", "http_error", "network_error", "timeout", "too_large", "refused"]


class _GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's own backend, connecting only to addresses `resolve_allowed` lets through."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend, allow_private: bool) -> None:
        self.inner, self.allow_private = inner, allow_private

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None, socket_options: Any = None,
                          ) -> httpcore.AsyncNetworkStream:
        address = await resolve_allowed(host, port, self.allow_private)
        # TLS still names the URL's host (httpcore passes it as the server name).
        return await self.inner.connect_tcp(address, port, timeout, local_address,
                                            socket_options)

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        raise UrlRefused("Unix sockets are not a webhook destination.")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


@dataclass(frozen=True)
class Answer:
    kind: AnswerKind
    status: int | None
    body: bytes
    latency_ms: float
    error: str | None

    @property
    def ok(self) -> bool:
        return self.kind == "ok"


class Outbound:
    """The guarded client; one per process and event loop. It is made with the `Outbound`,
    not at the first delivery: loading its TLS roots takes 50-160 ms, which in an API
    process that runs deliveries itself stalled every request."""

    def __init__(self, settings: WebhookSettings) -> None:
        self.settings = settings
        self._client: httpx.AsyncClient | None = None
        self.client()

    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            s = self.settings
            transport = httpx.AsyncHTTPTransport(retries=0)
            # httpx offers no public hook for the network backend; its pool's is replaced.
            pool = transport._pool
            pool._network_backend = _GuardedBackend(pool._network_backend, s.allow_private)
            self._client = httpx.AsyncClient(
                transport=transport, follow_redirects=False, trust_env=False,
                timeout=httpx.Timeout(s.total_timeout_s, connect=s.connect_timeout_s),
                limits=httpx.Limits(max_connections=200, max_keepalive_connections=50))
        return self._client

    async def post(self, url: str, body: bytes, headers: dict[str, str],
                   total_s: float | None = None) -> Answer:
        """POST `body`; never raises for what the far end does. `total_s`: the whole
        request's limit (the settings' total timeout by default)."""
        limit = self.settings.max_answer_bytes
        total = self.settings.total_timeout_s if total_s is None else total_s
        start = time.perf_counter()

        def answer(kind: AnswerKind, status: int | None, data: bytes, error: str | None
                   ) -> Answer:
            return Answer(kind, status, data, (time.perf_counter() - start) * 1000, error)

        if total <= 0:
            return answer("timeout", None, b"", "no time left before the deadline")
        try:
            parsed = check_url_form(url)
        except UrlRefused as exc:
            return answer("refused", None, b"", f"The URL is refused: {exc}")
        try:
            async with asyncio.timeout(total):
                async with self.client().stream("POST", parsed, content=body,
                                                headers=headers) as r:
                    data = bytearray()
                    async for chunk in r.aiter_bytes():
                        data += chunk
                        if len(data) > limit:
                            return answer("too_large", r.status_code, b"",
                                          f"the answer is longer than {limit} bytes")
        except TimeoutError:
            return answer("timeout", None, b"", f"no answer within {total:.3g} s")
        except UrlRefused as exc:
            return answer("refused", None, b"", str(exc))
        except httpx.TimeoutException:
            return answer("timeout", None, b"", "timed out connecting")
        except httpx.HTTPError as exc:
            return answer("network_error", None, b"", f"{type(exc).__name__}: {exc}")
        if 300 <= r.status_code < 400:
            return answer("http_error", r.status_code, bytes(data),
                          "a redirect: redirects are not followed")
        if r.status_code >= 300 or r.status_code < 200:
            return answer("http_error", r.status_code, bytes(data),
                          f"answered HTTP {r.status_code}")
        return answer("ok", r.status_code, bytes(data), None)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
