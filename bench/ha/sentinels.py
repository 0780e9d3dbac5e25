"""Redis that survives the loss of its master, on this machine: a master, its replica and three
Sentinels (quorum 2), each on a free port with its files in a temporary folder; the shared
Redis (6379) is never touched. The service reaches it by `redis+sentinel://` (its URL names
the Sentinels, which name the master).

Like the soak's Redis, neither server keeps a disk: what the master had not yet sent its
replica when it died is lost, and the service's sweepers must find that work again.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError

from bench.soaking.cluster import Process
from bench.soaking.servers import free_port

from .waits import wait_for

MASTER = "cya"
DOWN_AFTER_MS = 1000  # how long a master may not answer before a Sentinel calls it down

SENTINEL_CONF = """port {port}
bind 127.0.0.1
dir {folder}
sentinel monitor {master} 127.0.0.1 {master_port} 2
sentinel down-after-milliseconds {master} {down_after}
sentinel failover-timeout {master} 10000
sentinel parallel-syncs {master} 1
"""


class SentinelRedis:
    def __init__(self, folder: Path) -> None:
        self.folder = folder / "redis"
        self.ports = [free_port(), free_port()]  # the first starts as the master
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.servers: dict[int, Process] = {}
        self.sentinels: list[Process] = []

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{MASTER}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True)
        env = dict(os.environ)
        for n, port in enumerate(self.ports):
            replica_of = ["--replicaof", "127.0.0.1", str(self.ports[0])] if n else []
            self.servers[port] = Process(
                f"redis-{port}", ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                  "--save", "", "--appendonly", "no", "--dir", str(self.folder),
                                  *replica_of],
                env, self.folder / f"redis-{port}.log")
            self.servers[port].start()
        for port in self.sentinel_ports:
            config = self.folder / f"sentinel-{port}.conf"  # Sentinel rewrites it as it learns
            config.write_text(SENTINEL_CONF.format(
                port=port, folder=self.folder, master=MASTER, master_port=self.ports[0],
                down_after=DOWN_AFTER_MS))
            process = Process(f"sentinel-{port}", ["redis-sentinel", str(config)], env,
                              self.folder / f"sentinel-{port}.log")
            process.start()
            self.sentinels.append(process)
        wait_for(self._settled, 30, "the Sentinels to know the replica and each other")

    @staticmethod
    def _client(port: int) -> Redis:
        return Redis(port=port, socket_timeout=1, socket_connect_timeout=1)

    def _settled(self) -> bool:
        try:
            for port in self.sentinel_ports:
                with self._client(port) as sentinel:
                    master = sentinel.sentinel_master(MASTER)
                if master["num-slaves"] < 1 or master["num-other-sentinels"] < 2:
                    return False
            with self._client(self.ports[1]) as replica:
                return bool(replica.execute_command("ROLE")[3] == b"connected")
        except (RedisError, KeyError, IndexError):
            return False

    def master_port(self) -> int | None:
        """The master's port, as the Sentinels name it (a majority of those that answer)."""
        named = []
        for port in self.sentinel_ports:
            try:
                with self._client(port) as sentinel:
                    address = sentinel.sentinel_get_master_addr_by_name(MASTER)
            except RedisError:
                continue
            if address:
                named.append(int(address[1]))
        return max(set(named), key=named.count) if named else None

    def kill_master(self) -> tuple[int, float]:
        """kill -9 of the master, as a lost host would."""
        port = self.master_port()
        if port is None:
            raise SystemExit("the Sentinels name no master")
        self.servers[port].kill()
        return port, time.time()

    def stop(self) -> None:
        for process in [*self.sentinels, *self.servers.values()]:
            process.stop()
