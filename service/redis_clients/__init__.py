"""Redis clients from the service's one Redis URL (`CYA_REDIS_URL`): a server named by
`redis://`, or the master that Redis Sentinel names, by `redis+sentinel://` (`clients.py`)."""

from service.redis_clients.clients import (
    SentinelTarget,
    async_client,
    sentinel_target,
    sync_client,
)

__all__ = ["SentinelTarget", "async_client", "sentinel_target", "sync_client"]
