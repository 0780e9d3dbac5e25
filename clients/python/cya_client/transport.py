"""The one session each client talks through: authentication, idempotency keys, safe retries
and decoding. Routes are described once as `Call`s (in the area modules); `Session` runs them
with httpx's sync client and `AsyncSession` with its async one.

Retries (`RetryPolicy`): a 429 or 503 is retried after its `Retry-After` (or a backoff); a
network error is retried when resending is safe: a read (GET), a write that carries an
`Idempotency-Key` (every command and lobby write gets one, the same for all its attempts), or
any request that never reached the server (the connection was refused).
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

import httpx
import msgspec

from cya_client.errors import ProblemError, problem_of, retry_after_of
from cya_client.models import CommandResult, EventPage, HistoryPage, Turn
from cya_client.receipts import ReceiptBox

T = TypeVar("T")
USER_AGENT = "cya-client/0.1"
RETRYABLE_STATUS = frozenset({429, 503})
_encoder = msgspec.json.Encoder()
# The answers that carry a receipt (stream items too: `streams.StreamEvent`).
RECEIPTED = (CommandResult, EventPage, HistoryPage, Turn)
_decoders: dict[Any, msgspec.json.Decoder[Any]] = {}


def decoder(into: Any) -> msgspec.json.Decoder[Any]:
    found = _decoders.get(into)
    if found is None:
        found = _decoders[into] = msgspec.json.Decoder(into)
    return found


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. `attempts` counts the first try."""

    attempts: int = 6
    backoff: float = 0.25  # the first wait after a network error; doubles each time
    max_backoff: float = 8.0
    max_retry_after: float = 60.0  # the longest `Retry-After` honoured by waiting

    def wait(self, attempt: int, response: httpx.Response | None = None) -> float:
        """Seconds to wait before attempt `attempt + 1` (attempts count from 1)."""
        told = retry_after_of(response) if response is not None else None
        if told is not None:
            return min(told, self.max_retry_after)
        base = min(self.backoff * 2.0 ** (attempt - 1), self.max_backoff)
        return base * (0.5 + random.random() / 2)  # jitter: retrying clients spread out


NO_RETRIES = RetryPolicy(attempts=1)
DEFAULT_RETRY = RetryPolicy()


@dataclass(frozen=True)
class Call(Generic[T]):
    """One route, as a request and the type of its answer."""

    method: str
    path: str
    into: type[T]
    params: Mapping[str, Any] | None = None
    body: Any = None  # a msgspec struct or plain JSON data
    headers: Mapping[str, str] = field(default_factory=dict)
    idempotent: bool = False  # give it an `Idempotency-Key`, the same for every attempt
    waits: float = 0.0  # the server may hold the answer this long (a long poll)
    ok: frozenset[int] = frozenset({200, 201})
    retry: bool = True

    def keyed(self, key: str | None) -> Call[T]:
        if not self.idempotent:
            return self
        return replace(self, headers={**self.headers,
                                      "Idempotency-Key": key or uuid.uuid4().hex})

    @property
    def safe_to_resend(self) -> bool:
        return self.method in ("GET", "HEAD") or "Idempotency-Key" in self.headers


def _content(call: Call[Any]) -> bytes | None:
    if call.body is None:
        return None
    return call.body if isinstance(call.body, bytes) else _encoder.encode(call.body)


def _decode(call: Call[T], response: httpx.Response) -> T:
    if call.into is bytes:
        return response.content  # type: ignore[return-value]
    if call.into is str:
        return response.text  # type: ignore[return-value]
    result: T = decoder(call.into).decode(response.content)
    return result


def _retryable(call: Call[Any], error: httpx.TransportError) -> bool:
    never_sent = isinstance(error, httpx.ConnectError | httpx.ConnectTimeout)
    return call.retry and (never_sent or call.safe_to_resend)


class _Base:
    def __init__(self, base_url: str, api_key: str | None, retry: RetryPolicy,
                 timeout: float, receipts: ReceiptBox | None) -> None:
        self.base_url = base_url.rstrip("/").removesuffix("/v1")
        self.api_key = api_key
        self.retry = retry
        self.timeout = timeout
        self.receipts = receipts  # where the receipts answers carry are kept, if anywhere

    def keep_receipt(self, answer: object) -> None:
        if self.receipts is not None and isinstance(answer, RECEIPTED):
            self.receipts.keep(answer.receipt)

    def headers(self, call_headers: Mapping[str, str] | None = None) -> dict[str, str]:
        out = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if self.api_key:
            out["Authorization"] = f"Bearer {self.api_key}"
        if call_headers:
            out.update(call_headers)
        if "Content-Type" not in out:
            out["Content-Type"] = "application/json"
        return out

    def timeout_of(self, waits: float) -> httpx.Timeout:
        return httpx.Timeout(self.timeout + waits, connect=min(self.timeout, 10.0))

    def request_of(self, call: Call[Any]) -> dict[str, Any]:
        params = {k: _param(v) for k, v in (call.params or {}).items() if v is not None}
        return {"method": call.method, "url": call.path, "params": params or None,
                "content": _content(call), "headers": self.headers(call.headers),
                "timeout": self.timeout_of(call.waits)}

    def outcome(self, call: Call[T], response: httpx.Response) -> T:
        if response.status_code in call.ok:
            answer = _decode(call, response)
            self.keep_receipt(answer)
            return answer
        raise problem_of(response)

    def should_retry(self, call: Call[Any], response: httpx.Response, attempt: int) -> bool:
        return (call.retry and response.status_code in RETRYABLE_STATUS
                and response.status_code not in call.ok and attempt < self.retry.attempts)


def _param(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


class Session(_Base):
    """A sync session over one `httpx.Client`."""

    def __init__(self, base_url: str, api_key: str | None = None, *,
                 retry: RetryPolicy = DEFAULT_RETRY, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None,
                 receipts: ReceiptBox | None = None) -> None:
        super().__init__(base_url, api_key, retry, timeout, receipts)
        self.http = httpx.Client(base_url=self.base_url, transport=transport,
                                 timeout=self.timeout_of(0))

    def run(self, call: Call[T], idempotency_key: str | None = None) -> T:
        call = call.keyed(idempotency_key)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self.http.request(**self.request_of(call))
            except httpx.TransportError as error:
                if not _retryable(call, error) or attempt >= self.retry.attempts:
                    raise
                time.sleep(self.retry.wait(attempt))
                continue
            if self.should_retry(call, response, attempt):
                time.sleep(self.retry.wait(attempt, response))
                continue
            return self.outcome(call, response)

    @contextmanager
    def stream(self, call: Call[Any]) -> Iterator[httpx.Response]:
        """An open streaming answer (status checked: a problem raises)."""
        request = self.request_of(call)
        request.pop("content")
        with self.http.stream(**request) as response:
            if response.status_code not in call.ok:
                response.read()
                raise problem_of(response)
            yield response

    def close(self) -> None:
        self.http.close()


class AsyncSession(_Base):
    """An async session over one `httpx.AsyncClient`."""

    def __init__(self, base_url: str, api_key: str | None = None, *,
                 retry: RetryPolicy = DEFAULT_RETRY, timeout: float = 30.0,
                 transport: httpx.AsyncBaseTransport | None = None,
                 receipts: ReceiptBox | None = None) -> None:
        super().__init__(base_url, api_key, retry, timeout, receipts)
        self.http = httpx.AsyncClient(base_url=self.base_url, transport=transport,
                                      timeout=self.timeout_of(0))

    async def run(self, call: Call[T], idempotency_key: str | None = None) -> T:
        call = call.keyed(idempotency_key)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self.http.request(**self.request_of(call))
            except httpx.TransportError as error:
                if not _retryable(call, error) or attempt >= self.retry.attempts:
                    raise
                await asyncio.sleep(self.retry.wait(attempt))
                continue
            if self.should_retry(call, response, attempt):
                await asyncio.sleep(self.retry.wait(attempt, response))
                continue
            return self.outcome(call, response)

    @asynccontextmanager
    async def stream(self, call: Call[Any]) -> AsyncIterator[httpx.Response]:
        request = self.request_of(call)
        request.pop("content")
        async with self.http.stream(**request) as response:
            if response.status_code not in call.ok:
                await response.aread()
                raise problem_of(response)
            yield response

    async def aclose(self) -> None:
        await self.http.aclose()


class CountingTransport(httpx.HTTPTransport):
    """An httpx transport that counts the requests sent and the statuses answered, by
    `METHOD /path-with-ids-as-{id}` (for a bot's request budget: `Client(transport=...)`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.requests: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        with self._lock:
            self.requests[f"{request.method} {route_of(request.url.path)}"] += 1
            self.statuses[response.status_code] += 1
        return response

    @property
    def total(self) -> int:
        return sum(self.requests.values())


def route_of(path: str) -> str:
    parts = path.split("/")
    if len(parts) > 3 and parts[1:3] == ["v1", "games"]:
        parts[3] = "{game_id}"
    return "/".join(parts)


__all__ = ["NO_RETRIES", "AsyncSession", "Call", "CountingTransport", "ProblemError",
           "RetryPolicy", "Session"]
