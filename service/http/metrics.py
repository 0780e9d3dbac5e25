"""Request metrics: Litestar's Prometheus families, names and labels, at a fraction of the cost.
And the event loop's lag (`LoopLagProbe`): how late the loop wakes a task that sleeps.

Litestar's `PrometheusMiddleware` builds a `Request`, parses the URL it then ignores (with
`group_path` the label is the route template), merges three label dicts, wraps `send` with
`functools.wraps` and looks every labelled child up again, four times a request: 27 µs a
request, about as much as the rest of a hello world's handling. This subclass keeps the
children per label set and records the same samples in 8 µs.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import threading
import time
import traceback
from collections import deque
from typing import TYPE_CHECKING, Any

from litestar.enums import ScopeType
from litestar.middleware.base import DefineMiddleware
from litestar.plugins.prometheus import PrometheusConfig, PrometheusMiddleware
from prometheus_client import Histogram

if TYPE_CHECKING:
    from litestar.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("cya.http.metrics")


class RequestMetrics(PrometheusMiddleware):
    def __init__(self, app: ASGIApp, config: PrometheusConfig) -> None:
        if config.labels or config.exemplars or not config.group_path:
            raise ValueError("RequestMetrics labels by route template only")
        super().__init__(app, config)
        self._running: dict[tuple[str, str], Any] = {}
        self._finished: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}

    def _labels(self, method: str, path: str, status: int) -> dict[str, str | int | float]:
        # The library's default labels, in its order (the families' label names follow it).
        return {"method": method, "path": path, "status_code": status,
                "app_name": self._config.app_name}

    def _children(self, method: str, path: str, status: int) -> tuple[Any, Any, Any]:
        labels = self._labels(method, path, status)
        values = list(labels.values())
        errors = (self.requests_error_count(labels).labels(*values) if status >= 500
                  else None)
        found = (self.request_count(labels).labels(*values),
                 self.request_time(labels).labels(*values), errors)
        self._finished[(method, path, status)] = found
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope["method"] if scope["type"] == ScopeType.HTTP else scope["type"]
        path = scope["path_template"]
        running = self._running.get((method, path))
        if running is None:
            labels = self._labels(method, path, 200)  # as the library: in progress counts as 200
            running = self.requests_in_progress(labels).labels(*labels.values())
            self._running[(method, path)] = running
        started = time.perf_counter()
        status, duration = 200, 0.0

        async def noting_send(message: Message) -> None:
            nonlocal status, duration
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                duration = time.perf_counter() - started
            await send(message)

        running.inc()
        try:
            await self.app(scope, receive, noting_send)
        finally:
            running.dec()
            count, timer, errors = (self._finished.get((method, path, status))
                                    or self._children(method, path, status))
            if errors is not None:
                errors.inc()
            count.inc()
            timer.observe(duration)


def request_metrics() -> DefineMiddleware:
    return PrometheusConfig(app_name="cya", prefix="cya", group_path=True,
                            exclude=["/v1/metrics"], middleware_class=RequestMetrics).middleware


# Fine around 100 ms, the bound a stall must stay under (bench/soak.py reads the highest
# bucket that holds an observation as the process's worst lag).
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0,
               2.5, 5.0, 10.0, 30.0)
PROBE_INTERVAL_S = 0.05
LOOP_LAG = Histogram(
    "cya_event_loop_lag_seconds",
    f"How much later than asked this process's event loop woke a task that slept "
    f"{PROBE_INTERVAL_S} s: a call that blocks the loop stalls every request of the process, "
    "and shows here.", buckets=LAG_BUCKETS)


class LoopLagProbe:
    """A task that sleeps `interval_s` again and again and records how late it wakes: the
    time the loop spent on something else that did not yield (a handler that blocks, a wait
    loop that never awaits). A loop that keeps up records about 0."""

    def __init__(self, histogram: Histogram = LOOP_LAG,
                 interval_s: float = PROBE_INTERVAL_S, stall_log_s: float = 0.0) -> None:
        self.histogram, self.interval_s = histogram, interval_s
        self.stall_log_s = stall_log_s
        self.woke_at = time.monotonic()
        self._task: asyncio.Task[None] | None = None
        self._stop_tracing = threading.Event()
        self._collecting_since = 0.0
        self._collections: deque[tuple[float, float, int]] = deque(maxlen=64)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._measure(),
                                                                name="loop-lag-probe")
            if self.stall_log_s > 0:
                self.woke_at = time.monotonic()
                self._stop_tracing.clear()
                threading.Thread(target=self._trace_stalls, args=(threading.get_ident(),),
                                 name="loop-stall-tracer", daemon=True).start()
                gc.callbacks.append(self._time_collections)

    async def _measure(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + self.interval_s
            await asyncio.sleep(self.interval_s)
            self.woke_at = time.monotonic()
            self.histogram.observe(max(loop.time() - asked, 0.0))

    def _trace_stalls(self, loop_thread: int) -> None:
        """The operator's way to find what stalls the loop (CYA_STALL_LOG_MS): from a thread
        of its own, the loop thread's stack once it is late by more than the bound, logged
        when the loop wakes again, with how late it was in all. On a starved machine the
        stack is wherever the loop was descheduled: compare several."""
        stalled: tuple[float, str] | None = None  # when the loop last woke, its stack then
        while not self._stop_tracing.wait(self.stall_log_s / 4):
            woke = self.woke_at
            if stalled is not None and woke != stalled[0]:
                late = woke - stalled[0] - self.interval_s
                collected, oldest = self._collected_since(stalled[0], woke)
                log.warning("the event loop was %.0f ms late (garbage collection: %.0f ms, "
                            "up to generation %s), at:\n%s", late * 1000, collected * 1000,
                            oldest, stalled[1])
                stalled = None
            if stalled is None and time.monotonic() - woke - self.interval_s > self.stall_log_s:
                frame = sys._current_frames().get(loop_thread)
                stalled = (woke, "".join(traceback.format_stack(frame)) if frame else "?")

    def _time_collections(self, phase: str, info: dict[str, int]) -> None:
        now = time.monotonic()
        if phase == "start":
            self._collecting_since = now
        elif self._collecting_since:
            self._collections.append((now, now - self._collecting_since, info["generation"]))
            self._collecting_since = 0.0

    def _collected_since(self, since: float, until: float) -> tuple[float, int]:
        """Seconds spent collecting garbage between the two times, and the oldest
        generation collected."""
        done = [(took, generation) for ended, took, generation in list(self._collections)
                if since < ended <= until]
        return sum(t for t, _ in done), max((g for _, g in done), default=0)

    async def close(self) -> None:
        self._stop_tracing.set()
        if self._time_collections in gc.callbacks:
            gc.callbacks.remove(self._time_collections)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
