"""Every Redis client of the service, sync (RQ, the workers) and asyncio (pub/sub, rate limits,
probes), made from the one URL the settings hold.

`redis://host:port/db` is one server, as `redis.from_url` reads it.
`redis+sentinel://[:password@]host:port,host:port,.../master-name[/db]` is the master that the
listed Sentinels name: redis-py's Sentinel pool asks them for the master's address at every new
connection, and drops a connection whose server turned replica (a `READONLY` answer), so after
a failover each client reconnects to the promoted master by itself. The failover is Sentinel's;
nothing here decides one. The password, when given, is the master's (and its replicas'); the
Sentinels are asked without one.

redis is imported on first use: an embedded service, without Redis, never loads it.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

if TYPE_CHECKING:
    import redis
    import redis.asyncio

SENTINEL_SCHEME = "redis+sentinel://"
# How long a question to one Sentinel may take before the next is asked, when the caller
# gives no socket timeout of its own (a subscription's client waits as long as it likes for
# messages, never for a Sentinel).
SENTINEL_TIMEOUT_S = 1.0


# A lost host sends no reset: without keepalive probes a connection waiting on it (a worker's
# blocking pop, which RQ lets wait 6 minutes; a subscription's reads) would wait for nothing.
# Probed after 5 s idle, every second, dropped after 3 unanswered: gone within about 8 s.
KEEPALIVE = {option: value for name, value in
             (("TCP_KEEPIDLE", 5), ("TCP_KEEPINTVL", 1), ("TCP_KEEPCNT", 3))
             if (option := getattr(socket, name, None)) is not None}


@dataclass(frozen=True)
class SentinelTarget:
    sentinels: tuple[tuple[str, int], ...]
    master: str
    db: int = 0
    password: str | None = None


def sentinel_target(url: str) -> SentinelTarget | None:
    """The Sentinels and master a `redis+sentinel://` URL names; None for any other URL.
    ValueError, naming what is wrong, for one that cannot be used."""
    if not url.startswith(SENTINEL_SCHEME):
        return None
    rest = url[len(SENTINEL_SCHEME):].split("?", 1)[0]
    userinfo, _, rest = rest.rpartition("@")
    hosts, _, path = rest.partition("/")
    parts = [p for p in path.split("/") if p]
    if not hosts or not parts or len(parts) > 2:
        raise ValueError(f"a Sentinel URL is {SENTINEL_SCHEME}host:port,.../master-name[/db], "
                         f"not {url!r}")
    sentinels = []
    for address in hosts.split(","):
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"each Sentinel is host:port, not {address!r} (in {url!r})")
        sentinels.append((host.strip("[]"), int(port)))
    if len(parts) == 2 and not parts[1].isdigit():
        raise ValueError(f"in a Sentinel URL the database after the master's name is a "
                         f"number, not {parts[1]!r}")
    password = unquote(userinfo.partition(":")[2]) if userinfo else None
    return SentinelTarget(tuple(sentinels), unquote(parts[0]),
                          int(parts[1]) if len(parts) == 2 else 0, password or None)


def _with_keepalive(options: dict[str, Any]) -> dict[str, Any]:
    return {"socket_keepalive": True, "socket_keepalive_options": KEEPALIVE, **options}


def _sentinel_options(options: dict[str, Any]) -> dict[str, Any]:
    timeout = options.get("socket_timeout") or SENTINEL_TIMEOUT_S
    connect = options.get("socket_connect_timeout") or SENTINEL_TIMEOUT_S
    return {"socket_timeout": timeout, "socket_connect_timeout": connect}


def sync_client(url: str, **options: Any) -> redis.Redis:
    """A blocking client (RQ's connection, the due timer's, a worker's)."""
    from redis import Redis
    from redis.sentinel import Sentinel

    from service.redis_clients.masters import SentinelConnection, SentinelMaster

    options = _with_keepalive(options)
    target = sentinel_target(url)
    if target is None:
        return Redis.from_url(url, **options)
    sentinel = Sentinel(  # type: ignore[no-untyped-call,unused-ignore]
        target.sentinels, sentinel_kwargs=_sentinel_options(options))
    client: Redis = sentinel.master_for(  # type: ignore[no-untyped-call,unused-ignore]
        target.master, redis_class=SentinelMaster, connection_class=SentinelConnection,
        db=target.db, password=target.password, **options)
    return client


def async_client(url: str, **options: Any) -> redis.asyncio.Redis:
    """An asyncio client (publishes and subscriptions, rate-limit windows, probes)."""
    from redis.asyncio import Redis
    from redis.asyncio.sentinel import Sentinel

    from service.redis_clients.masters import AsyncSentinelMaster

    options = _with_keepalive(options)
    target = sentinel_target(url)
    if target is None:
        return Redis.from_url(url, **options)
    sentinel = Sentinel(  # type: ignore[no-untyped-call,unused-ignore]
        target.sentinels, sentinel_kwargs=_sentinel_options(options))
    client: Redis = sentinel.master_for(
        target.master, redis_class=AsyncSentinelMaster, db=target.db, password=target.password,
        **options)
    return client
