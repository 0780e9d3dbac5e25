"""The clients of a master that Sentinel names, owning their Sentinels' connections: a client
made for one probe or one sweep closes them with itself instead of leaving three open."""

from __future__ import annotations

import redis
import redis.asyncio


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
