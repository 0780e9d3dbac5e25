"""How late each turn clock's expiry was taken past its deadline: a Prometheus histogram,
`cya_clock_lateness_seconds`, in every API process's `/v1/metrics`.

Expiries are taken where due work runs. On the embedded default that is the API process
itself, which counts them in memory (`InProcessLateness`). Under RQ it is the workers, which
serve no metrics of their own: each worker adds what it observes to one Redis hash per queue
(`RedisLateness`: a bucket's count, and the sum, one round trip), and every API process
exports that hash. So under RQ every API process shows the same figures, those of all the
workers together: read one instance (or `max` across them), never their sum. Redis keeps
nothing on disk here, so a Redis restart starts the counts again from zero, as a process
restart does for any counter (`rate()` and `increase()` take that in their stride).
"""

from __future__ import annotations

import logging
import math
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Protocol

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import HistogramMetricFamily
from redis import Redis
from redis.exceptions import RedisError

from service.redis_clients import async_client, sync_client

log = logging.getLogger(__name__)

NAME = "cya_clock_lateness_seconds"
HELP = ("How late each turn clock's expiry was taken (committed) past its deadline. Under RQ, "
        "the workers' expiries through Redis: every API process exports the same figures.")
# The deploy guide's bound is 100 ms: `le="0.1"` over the count is the share that met it.
BUCKETS: tuple[float, ...] = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                              math.inf)
READ_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class Counts:
    """Observations per bucket (not cumulative; the last is +Inf's own) and their sum."""

    buckets: tuple[int, ...]
    total_s: float

    def family(self) -> HistogramMetricFamily:
        cumulative, running = [], 0
        for bound, n in zip(BUCKETS, self.buckets, strict=True):
            running += n
            cumulative.append(("+Inf" if math.isinf(bound) else repr(bound), running))
        return HistogramMetricFamily(NAME, HELP, buckets=cumulative, sum_value=self.total_s)


def bucket_of(late_s: float) -> int:
    """The index of the first bucket whose bound holds `late_s` (bounds are inclusive)."""
    return bisect_left(BUCKETS, late_s)


class ClockLateness(Protocol):
    def observe(self, late_s: float) -> None:
        """One expiry, taken `late_s` seconds after its deadline. Never raises."""
        ...

    async def counts(self) -> Counts | None:
        """What to export, or None when it cannot be read now."""
        ...

    def close(self) -> None: ...


@dataclass
class InProcessLateness:
    """The expiries this process took itself (the embedded default's due work)."""

    buckets: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))
    total_s: float = 0.0

    def observe(self, late_s: float) -> None:
        late_s = max(late_s, 0.0)  # another machine's clock a little ahead: on time
        self.buckets[bucket_of(late_s)] += 1
        self.total_s += late_s

    async def counts(self) -> Counts | None:
        return Counts(tuple(self.buckets), self.total_s)

    def close(self) -> None:
        pass


class RedisLateness:
    """The workers' expiries, added up in a Redis hash that API processes read."""

    def __init__(self, redis_url: str, queue_name: str) -> None:
        self.redis_url = redis_url
        self.key = f"cya:clock-lateness:{queue_name}"
        self._redis: Redis | None = None

    def observe(self, late_s: float) -> None:
        """A blocking round trip (as RQ's enqueue is), in a worker between jobs' commits."""
        late_s = max(late_s, 0.0)
        if self._redis is None:
            self._redis = sync_client(self.redis_url, socket_connect_timeout=1,
                                         socket_timeout=1)
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                pipe.hincrby(self.key, f"b{bucket_of(late_s)}", 1)
                pipe.hincrbyfloat(self.key, "sum", late_s)
                pipe.execute()
        except RedisError:  # a metric is never worth failing the expiry that was taken
            log.warning("clock lateness not recorded: Redis away", exc_info=True)

    async def counts(self) -> Counts | None:
        client = async_client(self.redis_url, socket_connect_timeout=READ_TIMEOUT_S,
                                   socket_timeout=READ_TIMEOUT_S, decode_responses=True)
        try:
            raw = await client.hgetall(self.key)
        except RedisError:
            return None
        finally:
            await client.aclose()
        found = {str(k): str(v) for k, v in raw.items()}
        return Counts(tuple(int(found.get(f"b{i}", 0)) for i in range(len(BUCKETS))),
                      float(found.get("sum", 0.0)))

    def close(self) -> None:
        if self._redis is not None:
            self._redis.close()


def exposition(counts: Counts | None) -> bytes:
    """The histogram in Prometheus's text format (nothing when it could not be read)."""
    if counts is None:
        return b""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Fixed(counts.family()))
    return generate_latest(registry)


@dataclass(frozen=True, eq=False)  # a registry keys its collectors by identity
class _Fixed:
    """A collector of one family made beforehand (the counts were read asynchronously)."""

    family: HistogramMetricFamily

    def collect(self) -> list[HistogramMetricFamily]:
        return [self.family]
