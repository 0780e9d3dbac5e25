"""The Redis URL names a server or, with `redis+sentinel://`, the master that Sentinel names:
every Redis client of the service is made from it (`service/redis_clients/`). The failover
itself is tested against real Sentinels in tests/failover/."""

from __future__ import annotations

import asyncio
import socket as sockets
from types import SimpleNamespace

import pytest
import redis
from redis.asyncio.sentinel import SentinelConnectionPool as AsyncSentinelPool
from redis.sentinel import SentinelConnectionPool

from service.redis_clients import SentinelTarget, async_client, sentinel_target, sync_client
from service.redis_clients.masters import SentinelConnection


def test_given_a_plain_redis_url_then_it_names_no_sentinels():
    assert sentinel_target("redis://127.0.0.1:6379/0") is None


@pytest.mark.parametrize(("url", "target"), [
    ("redis+sentinel://10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379/cya",
     SentinelTarget((("10.0.0.1", 26379), ("10.0.0.2", 26379), ("10.0.0.3", 26379)), "cya")),
    ("redis+sentinel://:s%40cret@sentinel:26379/cya/2",
     SentinelTarget((("sentinel", 26379),), "cya", 2, "s@cret")),
    ("redis+sentinel://[::1]:26379/cya/", SentinelTarget((("::1", 26379),), "cya")),
])
def test_given_a_sentinel_url_then_it_names_the_sentinels_the_master_and_the_db(url, target):
    assert sentinel_target(url) == target


@pytest.mark.parametrize("url", [
    "redis+sentinel://127.0.0.1:26379",  # no master's name
    "redis+sentinel:///cya",  # no Sentinel
    "redis+sentinel://127.0.0.1/cya",  # no port
    "redis+sentinel://127.0.0.1:26379/cya/zero",
    "redis+sentinel://127.0.0.1:26379/cya/0/more",
])
def test_given_an_unusable_sentinel_url_then_it_is_refused(url):
    with pytest.raises(ValueError, match="Sentinel"):
        sentinel_target(url)


def test_given_a_sentinel_url_then_the_clients_ask_the_sentinels_for_their_master():
    url = "redis+sentinel://127.0.0.1:1,127.0.0.1:2/cya/3"

    sync = sync_client(url, socket_timeout=1)
    aio = async_client(url, socket_connect_timeout=1)

    assert isinstance(sync.connection_pool, SentinelConnectionPool)
    assert isinstance(aio.connection_pool, AsyncSentinelPool)
    assert sync.connection_pool.service_name == aio.connection_pool.service_name == "cya"
    assert sync.connection_pool.connection_kwargs["db"] == 3
    # No Sentinel answers on those ports: the client says so, as it would for a lost server.
    with pytest.raises(redis.ConnectionError):
        sync.ping()
    sync.close()
    asyncio.run(aio.aclose())


def test_given_a_plain_url_then_the_clients_are_redis_py_s_own():
    client = sync_client("redis://127.0.0.1:6379/0", socket_timeout=1)
    assert client.ping()
    client.close()


def test_given_any_url_then_a_lost_host_is_found_by_keepalive_probes():
    # A host that vanishes sends no reset: a worker's blocking pop would wait minutes on it.
    for url in ("redis://127.0.0.1:6379/0", "redis+sentinel://127.0.0.1:1/cya"):
        client = sync_client(url)
        kwargs = client.connection_pool.connection_kwargs
        assert kwargs["socket_keepalive"] is True and kwargs["socket_keepalive_options"]
        client.close()
    client = async_client("redis://127.0.0.1:6379/0")
    assert client.connection_pool.connection_kwargs["socket_keepalive"] is True
    assert asyncio.run(_ping_and_close(client))


async def _ping_and_close(client) -> bool:
    try:
        return bool(await client.ping())
    finally:
        await client.aclose()


def test_given_a_read_cut_short_on_the_sentinel_master_then_the_connection_is_dropped():
    # redis-py's own Sentinel connection kept it before 8.2 (redis/redis-py#4292): the unread
    # reply went to the next command, and a stopping worker waited on it. redis-py 8.2 drops it
    # too; `SentinelConnection` stays while `pyproject.toml` admits the versions before.
    with sockets.socket() as silent:  # accepts, reads, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        pool = SimpleNamespace(is_master=True, check_connection=False)
        conn = SentinelConnection(connection_pool=pool, socket_timeout=0.2, driver_info=None,
                                  protocol=2)
        conn.connect_to(silent.getsockname())
        conn.send_command("PING")
        with pytest.raises(redis.TimeoutError):
            conn.read_response()
        assert conn._sock is None
        conn.disconnect()

    client = sync_client("redis+sentinel://127.0.0.1:1/cya")
    assert client.connection_pool.connection_class is SentinelConnection
    client.close()
