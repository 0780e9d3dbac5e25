"""A slow Redis never holds an API process's event loop (found by bench/soak.py): the due
work a commit schedules (RQ's enqueue, the timers' sorted set) and a webhook job's enqueue
were blocking Redis round trips made on the event loop, "well under a millisecond on a local
Redis"; on a busy machine Redis waits for a core too, and each held every request of the
process for 100–170 ms. Here Redis answers 400 ms late, and the rest of the process must not
wait for it."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from service.wiring.settings import Settings
from tests.processes import ApiProcess, running_apis
from tests.tcp_proxy import TcpProxy

from .conftest import RedisDb, proxied_url, worker_env
from .test_replicas import _player

LATE_S = 0.4


class SlowProxy(TcpProxy):
    """Every answer of the server comes `LATE_S` late."""

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        if src.getpeername()[1] != self.target[1]:  # the client's requests go at once
            super()._pipe(src, dst)
            return
        try:
            while data := src.recv(65536):
                time.sleep(LATE_S)
                dst.sendall(data)
        except OSError:
            pass
        finally:
            super()._pipe(src, dst)  # closes both, forgets them


@pytest.fixture
def api_on_slow_redis(settings: Settings, redis_db: RedisDb, tmp_path: Path
                      ) -> Iterator[ApiProcess]:
    parts = urlsplit(redis_db.url)
    proxy = SlowProxy(parts.hostname or "127.0.0.1", parts.port or 6379)
    proxy.start()
    env = {**worker_env(settings), "CYA_RATE_LIMIT_PER_MINUTE": "0",
           "CYA_REDIS_URL": proxied_url(redis_db, proxy)}
    try:
        with running_apis(env, tmp_path) as apis:
            yield apis[0]
    finally:
        proxy.stop()


async def test_given_a_slow_redis_then_commands_that_schedule_work_hold_no_other_request(
    api_on_slow_redis: ApiProcess,
) -> None:
    async with httpx.AsyncClient(base_url=api_on_slow_redis.url, timeout=30) as client:
        ann, bob = await _player(client, "ann"), await _player(client, "bob")
        created = await client.post("/v1/games", headers=ann, json={
            "ruleset": {"players": 2, "end_mode": "quick"}, "turn_clock": 600})
        assert created.status_code == 201, created.text
        path = f"/v1/games/{created.json()['game_id']}"
        assert (await client.post(f"{path}/seats", headers=bob)).status_code == 200
        seats = {0: ann, 1: bob}
        slowest = 0.0

        async def health_meanwhile() -> None:
            nonlocal slowest
            while True:
                began = time.monotonic()
                assert (await client.get("/v1/healthz")).status_code == 200
                slowest = max(slowest, time.monotonic() - began)
                await asyncio.sleep(0.02)

        # When commands commit, each scheduling its turn clock's expiry through Redis
        watching = asyncio.create_task(health_meanwhile())
        assert (await client.post(f"{path}/start", headers=ann)).status_code == 200
        for _ in range(4):
            turn = (await client.get(f"{path}/turn", headers=ann, params={"timeout": 0})).json()
            mover = seats[turn["awaiting"][0]]
            turn = (await client.get(f"{path}/turn", headers=mover,
                                     params={"timeout": 0})).json()
            sent = await client.post(f"{path}/commands", headers=mover,
                                     json=turn["legal_commands"][0])
            assert sent.status_code == 200, sent.text
        watching.cancel()

        # Then the process answered its health checks meanwhile without waiting for Redis
        assert slowest < LATE_S * 0.75, f"/v1/healthz took {slowest:.2f} s"
