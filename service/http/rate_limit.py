"""Rate limits: Litestar's fixed window per key, kept as a count: in Redis when it is configured
(every API process counts against one limit), else in this process's memory.

Litestar's `RateLimitMiddleware` keeps a timestamp for every request of the current window,
JSON-decodes and re-encodes the whole list through its store on every request (though only the
list's length is ever read), and its memory store takes a lock and builds expiry datetimes:
31 µs a request with 10 requests in the window, 76 µs with 1,000 (the default limit allows
1,200 a minute). This keeps each key's (count, reset) in a dict, for 2.4 µs; the window, the
limit and the headers are the library's own.

With Redis, a request costs one round trip (INCR, EXPIRE NX, TTL in one pipeline). If Redis
cannot answer, the process counts in its memory for a few seconds before asking again: a limit
per process while Redis is away, never a request refused or held for it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from time import time
from typing import TYPE_CHECKING, Any, cast

from litestar import Request
from litestar.middleware.rate_limit import (
    DURATION_VALUES,
    CacheObject,
    RateLimitConfig,
    RateLimitMiddleware,
)

from service.redis_clients import async_client

if TYPE_CHECKING:
    from litestar.stores.base import Store


def _history(count: int) -> list[int]:
    # The library's headers read only len(history): a range has the length, not the list.
    return cast(list[int], range(count))


class Windows(dict[str, tuple[int, int]]):
    """Each key's (count, reset); forgets the keys whose window has passed as it grows."""

    sweep_at = 1024

    def put(self, key: str, count: int, reset: int) -> None:
        self[key] = (count, reset)
        if len(self) >= self.sweep_at:
            now = int(time())
            for passed in [k for k, (_, at) in self.items() if at <= now]:
                del self[passed]
            self.sweep_at = max(1024, 2 * len(self))


log = logging.getLogger("cya.http.rate_limit")
PAUSE_AFTER_FAILURE_S = 5.0


class SharedCount(CacheObject):
    """A window counted in Redis, this request included."""


class RedisWindows:
    """Each key's count in its window, in Redis: every API process counts the same requests."""

    def __init__(self, url: str) -> None:
        self._redis: Any = async_client(url, socket_connect_timeout=1, socket_timeout=1)
        self._paused_until = 0.0

    async def count(self, key: str, duration: int) -> SharedCount | None:
        """The window's requests before this one and its reset, this one counted; None when
        Redis cannot say (count locally then)."""
        if time() < self._paused_until:
            return None
        name = f"cya:rate:{key}"
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.incr(name)
                pipe.expire(name, duration, nx=True)
                pipe.ttl(name)
                count, _, ttl = await pipe.execute()
        except Exception as exc:  # Redis away: limits per process for a while
            self._paused_until = time() + PAUSE_AFTER_FAILURE_S
            log.warning("rate limits counted per process for %.0f s: Redis failed (%s: %s)",
                        PAUSE_AFTER_FAILURE_S, type(exc).__name__, exc)
            return None
        return SharedCount(_history(int(count) - 1), int(time()) + max(int(ttl), 1))

    async def close(self) -> None:
        await self._redis.aclose()


class CountingRateLimit(RateLimitMiddleware):
    config: CountingRateLimitConfig

    async def retrieve_cached_history(self, key: str, store: Store) -> CacheObject:
        if self.config.shared is not None:
            shared = await self.config.shared.count(key, DURATION_VALUES[self.unit])
            if shared is not None:
                return shared
        now = int(time())
        count, reset = self.config.windows.get(key, (0, 0))
        if reset > now:
            return CacheObject(_history(count), reset)
        return CacheObject(_history(0), now + DURATION_VALUES[self.unit])

    async def set_cached_history(self, key: str, cache_object: CacheObject,
                                 store: Store) -> None:
        count = len(cache_object.history) + 1
        cache_object.history = _history(count)
        if not isinstance(cache_object, SharedCount):  # Redis counted it already
            self.config.windows.put(key, count, cache_object.reset)


@dataclass
class CountingRateLimitConfig(RateLimitConfig):
    """The windows live in the config, one per app: Litestar makes a middleware for each
    route, and a key's window counts its requests to every route."""

    middleware_class: type[RateLimitMiddleware] = CountingRateLimit
    windows: Windows = field(default_factory=Windows, repr=False)
    shared: RedisWindows | None = field(default=None, repr=False)  # with Redis


async def counts_against_limit(request: Request[Any, Any, Any]) -> bool:
    """Whether a request spends its caller's quota: a call that waits (a long poll, an event
    stream; its route's `waits` option says when) does not, so a bot's waiting for its turn
    costs nothing."""
    waits = request.route_handler.opt.get("waits")
    return waits is None or not waits(request)
