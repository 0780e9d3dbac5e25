"""Each API process's event-loop lag, read from its `/v1/metrics` (the service's probe,
`cya_event_loop_lag_seconds`) every `EVERY_S`, so a process killed by a fault has told
most of what it saw. A histogram has no maximum: the worst lag is bounded by the lowest
bucket that holds every observation. What a scrape adds to the last is laid against the
faults' windows: lag while a fault is open (a Redis restart holds the calls that wait on
Redis) is counted apart, as 5xx answers are."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

import httpx

from service.http.metrics import LAG_BUCKETS

from .calls import Calls

EVERY_S = 5.0
_BUCKET = re.compile(r'^cya_event_loop_lag_seconds_bucket\{le="([^"]+)"\} (\S+)$', re.M)
INF = float("inf")


def buckets(metrics: str) -> dict[float, float]:
    return {float(le): float(n) for le, n in _BUCKET.findall(metrics)}


def worst(counts: dict[float, float]) -> float:
    """The bound (seconds) every observation is under: the lowest bucket holding all."""
    total = counts.get(INF, 0.0)
    return min((le for le, n in counts.items() if n >= total), default=0.0)


@dataclass
class Lags:
    worst_s: float = 0.0
    over_100ms: float = 0.0

    def add(self, added: dict[float, float]) -> None:
        self.worst_s = max(self.worst_s, worst(added))
        self.over_100ms += added.get(INF, 0.0) - added.get(0.1, 0.0)


@dataclass
class LoopLag:
    urls: list[str]
    calls: Calls
    outside: dict[str, Lags] = field(default_factory=dict)  # by process, over its lives
    during_faults: Lags = field(default_factory=Lags)
    samples: float = 0.0
    # When stalls over 100 ms came outside the faults: (seconds into the run, process, the
    # scrape's worst bucket in ms, how many).
    episodes: list[tuple[float, str, float, int]] = field(default_factory=list)
    control: dict[str, float] = field(default_factory=dict)  # a bare loop's (control.py)
    _last: dict[str, tuple[float, dict[float, float]]] = field(default_factory=dict)
    _started: float = field(default_factory=time.time)

    async def watch(self) -> None:
        async with httpx.AsyncClient(timeout=5.0) as http:
            while True:
                for url in self.urls:
                    try:
                        text = (await http.get(f"{url}/v1/metrics")).text
                    except httpx.TransportError:
                        continue  # killed by a fault: its next life reports
                    self._note(url, buckets(text), time.time())
                await asyncio.sleep(EVERY_S)

    def _note(self, url: str, counts: dict[float, float], now: float) -> None:
        if not counts:
            return
        since, before = self._last.get(url, (self._started, {}))
        if counts.get(INF, 0.0) < before.get(INF, 0.0):  # a new life of the process
            before = {}
        added = {le: n - before.get(le, 0.0) for le, n in counts.items()}
        self._last[url] = (now, counts)
        self.samples += added.get(INF, 0.0)
        if self.calls.overlaps(since, now):
            self.during_faults.add(added)
            return
        self.outside.setdefault(url, Lags()).add(added)
        if (over := added.get(INF, 0.0) - added.get(0.1, 0.0)) > 0:
            self.episodes.append((round(now - self._started, 1), url.rsplit(":", 1)[1],
                                  round(worst(added) * 1000, 1), int(over)))

    @property
    def max_ms(self) -> float:
        return round(max((x.worst_s for x in self.outside.values()), default=0.0) * 1000, 1)

    @property
    def stalls(self) -> int:
        return int(sum(x.over_100ms for x in self.outside.values()))

    @property
    def bound_ms(self) -> float:
        """The most the service's worst lag may be: 100 ms, or where the machine delays even
        a bare loop more than that, the bucket that holds the bare loop's worst."""
        control_s = self.control.get("max_ms", 0.0) / 1000
        machine = min((b for b in LAG_BUCKETS if b >= control_s), default=INF)
        return round(max(0.1, machine) * 1000, 1)
