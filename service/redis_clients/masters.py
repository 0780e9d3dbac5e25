"""The clients of a master that Sentinel names, owning their Sentinels' connections: a client
made for one probe or one sweep closes them with itself instead of leaving three open. And the
sync connection to that master, mended where redis-py's drops a reply."""

from __future__ import annotations

from typing import Any

import redis
import redis.asyncio
from redis.sentinel import SentinelManagedConnection
from redis.utils import SENTINEL


class SentinelConnection(SentinelManagedConnection):
    """redis-py's connection to the master Sentinel names, but one whose read was cut short
    (a signal's exception in the middle of it: RQ stopping a worker blocked in its pop) is
    dropped, as redis-py's plain connection is, instead of going back to the pool with the
    reply unread for the next command to take as its own. redis-py's Sentinel connection alone
    defaults `disconnect_on_error` to False (redis/redis-py#4292): a worker's stop waited 15 s
    for its last registration's answer, then was killed."""

    def read_response(self, disable_decoding: Any = False, *, timeout: float | object = SENTINEL,
                      disconnect_on_error: bool | None = True,
                      push_request: bool | None = False) -> Any:
        return super().read_response(disable_decoding, timeout=timeout,
                                     disconnect_on_error=disconnect_on_error,
                                     push_request=push_request)


class SentinelMaster(redis.Redis):
    def close(self) -> None:
        super().close()
        # RQ's scheduler rebuilds its connection in its own process on a plain pool of the
        # same connections: that pool has no Sentinels of its own to close.
        sentinels = getattr(self.connection_pool, "sentinel_manager", None)
        if sentinels is not None:
            sentinels.close()


class AsyncSentinelMaster(redis.asyncio.Redis):
    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await super().aclose(close_connection_pool)
        sentinels = getattr(self.connection_pool, "sentinel_manager", None)
        if sentinels is not None:
            await sentinels.aclose()
