"""Every request the soak's clients make, as their HTTP transports saw it: the route, the
status and how long until the answer's headers. From them: p50/p99 per route, and the 5xx
answers outside the windows of injected faults."""

from __future__ import annotations

import re
import statistics
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx

_ID = re.compile(r"/(?:[0-9a-f]{32}|sub_[\w-]+|msg_[\w-]+)(?=/|$)")
# A fault's window stays open this long after the service is whole again: clients that were
# mid-retry when it came back may still meet the last of it.
FAULT_GRACE_S = 10.0


def route_of(method: str, url: httpx.URL, headers: httpx.Headers) -> str:
    """`GET /v1/games/{id}/turn`; waiting calls (long polls and streams, which hold the answer
    by design) are named apart, with `(waits)`."""
    path = _ID.sub("/{id}", url.path)
    params = url.params
    waits = ("text/event-stream" in headers.get("accept", "")
             or path == "/v1/players/me/events"
             or "wait_for_version" in params
             or (path.endswith("/turn") and params.get("timeout") not in ("0", "0.0")))
    return f"{method} {path}{' (waits)' if waits else ''}"


@dataclass
class Calls:
    durations: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    server_errors: list[tuple[float, str, int]] = field(default_factory=list)
    transport_errors: int = 0
    outages: list[list[float]] = field(default_factory=list)  # [start, end] of each fault
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, route: str, status: int, started: float, took: float) -> None:
        with self._lock:
            self.durations[route].append(took)
            if status >= 500:
                self.server_errors.append((started, route, status))

    def failed(self) -> None:
        with self._lock:
            self.transport_errors += 1

    def outage(self) -> list[float]:
        window = [time.time(), float("inf")]
        self.outages.append(window)
        return window

    def in_outage(self, at: float) -> bool:
        return any(start <= at <= end + FAULT_GRACE_S for start, end in self.outages)

    def overlaps(self, start: float, end: float) -> bool:
        """Whether a fault's window (with its grace) meets [start, end]."""
        return any(s <= end and start <= e + FAULT_GRACE_S for s, e in self.outages)

    def unexpected_5xx(self) -> list[tuple[float, str, int]]:
        return [e for e in self.server_errors if not self.in_outage(e[0])]

    def percentiles(self) -> dict[str, dict[str, float]]:
        out = {}
        for route, xs in sorted(self.durations.items()):
            xs = sorted(xs)
            out[route] = {"n": len(xs), "p50_ms": round(statistics.median(xs) * 1000, 1),
                          "p99_ms": round(xs[min(len(xs) - 1, int(0.99 * len(xs)))] * 1000, 1)}
        return out


class TimedTransport(httpx.HTTPTransport):
    """The sync clients' (the SDK's `cya-bot` runner) transport, noting each request."""

    def __init__(self, calls: Calls, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.calls = calls

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        started, t0 = time.time(), time.perf_counter()
        try:
            response = super().handle_request(request)
        except httpx.TransportError:
            self.calls.failed()
            raise
        self.calls.note(route_of(request.method, request.url, request.headers),
                        response.status_code, started, time.perf_counter() - t0)
        return response


class AsyncTimedTransport(httpx.AsyncHTTPTransport):
    """The async clients' transport, noting each request."""

    def __init__(self, calls: Calls, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.calls = calls

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        started, t0 = time.time(), time.perf_counter()
        try:
            response = await super().handle_async_request(request)
        except httpx.TransportError:
            self.calls.failed()
            raise
        self.calls.note(route_of(request.method, request.url, request.headers),
                        response.status_code, started, time.perf_counter() - t0)
        return response
