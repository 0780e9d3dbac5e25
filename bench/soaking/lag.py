"""Each API process's event-loop lag, read from its `/v1/metrics` (the service's probe,
`cya_event_loop_lag_seconds`) every `EVERY_S`, so a process killed by a fault has told
most of what it saw. A histogram has no maximum: the worst lag is bounded by the lowest
bucket that holds every observation."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

import httpx

from service.http.metrics import LAG_BUCKETS

EVERY_S = 2.0
_BUCKET = re.compile(r'^cya_event_loop_lag_seconds_bucket\{le="([^"]+)"\} (\S+)$', re.M)


def buckets(metrics: str) -> dict[float, float]:
    return {float(le): float(n) for le, n in _BUCKET.findall(metrics)}


def worst(counts: dict[float, float]) -> float:
    """The bound (seconds) every observation is under: the lowest bucket holding all."""
    total = counts.get(float("inf"), 0.0)
    return min((le for le, n in counts.items() if n >= total), default=0.0)


@dataclass
class LoopLag:
    urls: list[str]
    worst_s: dict[str, float] = field(default_factory=dict)  # by process, over its lives
    over_100ms: dict[str, float] = field(default_factory=dict)
    samples: dict[str, float] = field(default_factory=dict)
    scrapes: int = 0
    control: dict[str, float] = field(default_factory=dict)  # a bare loop's (control.py)
    _last: dict[str, dict[float, float]] = field(default_factory=dict)
    _base: dict[str, float] = field(default_factory=dict)  # over-100-ms counts of past lives

    async def watch(self) -> None:
        async with httpx.AsyncClient(timeout=5.0) as http:
            while True:
                for url in self.urls:
                    try:
                        text = (await http.get(f"{url}/v1/metrics")).text
                    except httpx.TransportError:
                        continue  # killed by a fault: its next life reports
                    self._note(url, buckets(text))
                self.scrapes += 1
                await asyncio.sleep(EVERY_S)

    def _note(self, url: str, counts: dict[float, float]) -> None:
        if not counts:
            return
        inf = counts.get(float("inf"), 0.0)
        last = self._last.get(url)
        if last is not None and inf < last.get(float("inf"), 0.0):  # a new process
            self._base[url] = self._base.get(url, 0.0) + _over(last)
        self._last[url] = counts
        self.worst_s[url] = max(self.worst_s.get(url, 0.0), worst(counts))
        self.over_100ms[url] = self._base.get(url, 0.0) + _over(counts)
        self.samples[url] = inf

    @property
    def max_ms(self) -> float:
        return round(max(self.worst_s.values(), default=0.0) * 1000, 1)

    @property
    def bound_ms(self) -> float:
        """The most the service's worst lag may be: 100 ms, or where the machine delays even
        a bare loop more than that, the bucket that holds the bare loop's worst."""
        control_s = self.control.get("max_ms", 0.0) / 1000
        machine = min((b for b in LAG_BUCKETS if b >= control_s), default=float("inf"))
        return round(max(0.1, machine) * 1000, 1)

    @property
    def stalls(self) -> int:
        return int(sum(self.over_100ms.values()))


def _over(counts: dict[float, float]) -> float:
    return counts.get(float("inf"), 0.0) - counts.get(0.1, 0.0)
