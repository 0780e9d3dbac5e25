"""PostgreSQL that survives the loss of its primary, on this machine: etcd, two nodes under
Patroni (a primary and a synchronous standby, `synchronous_mode: true`) and HAProxy, which
sends each new connection to the node whose Patroni answers 200 on `/primary` and cuts the
connections to a node that stops answering so. Every port is free and every file lives in a
temporary folder: the shared PostgreSQL (5432) is never touched.

PostgreSQL refuses to run as root: then Patroni (and the PostgreSQL it starts) runs as the
`postgres` user, and its folders belong to it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from bench.soaking.cluster import Process
from bench.soaking.servers import _postgres_bin, free_port

from .waits import wait_for

SCOPE = "cya"
# Patroni's smallest TTL is 20 s; the loop runs every second. A crashed primary is not restarted
# in place (`primary_start_timeout: 0`): its Patroni hands the leader key to the synchronous
# standby at once, which holds every acknowledged commit.
DCS = {"ttl": 20, "loop_wait": 1, "retry_timeout": 5, "maximum_lag_on_failover": 1048576,
       "synchronous_mode": True, "primary_start_timeout": 0}
PARAMETERS = {"max_connections": 200, "shared_buffers": "64MB", "wal_keep_size": "256MB",
              # A kill -9 of PostgreSQL is not the loss of the machine's page cache: flushing
              # to disk is skipped for speed. Commits still wait for the standby's flush.
              "fsync": "off", "synchronous_commit": "on"}


class Node:
    """One PostgreSQL under its Patroni."""

    def __init__(self, folder: Path, name: str, etcd: str) -> None:
        self.name, self.home = name, folder / name
        self.pg_port, self.api_port = free_port(), free_port()
        self.data = self.home / "data"
        self.config = self.home / "patroni.yml"
        self.etcd = etcd
        self.process: Process | None = None

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    def write_config(self, bin_dir: Path) -> None:
        self.home.mkdir(parents=True)
        config = {
            "scope": SCOPE, "name": self.name,
            "restapi": {"listen": f"127.0.0.1:{self.api_port}",
                        "connect_address": f"127.0.0.1:{self.api_port}"},
            "etcd3": {"hosts": self.etcd},
            "bootstrap": {
                "dcs": {**DCS, "postgresql": {"use_pg_rewind": True, "use_slots": True,
                                              "parameters": PARAMETERS}},
                "initdb": [{"encoding": "UTF8"}, {"auth": "trust"}],
                "pg_hba": ["local all all trust", "host all all 127.0.0.1/32 trust",
                           "host replication all 127.0.0.1/32 trust"],
            },
            "postgresql": {
                "listen": f"127.0.0.1:{self.pg_port}",
                "connect_address": f"127.0.0.1:{self.pg_port}",
                "data_dir": str(self.data), "bin_dir": str(bin_dir),
                "pgpass": str(self.home / "pgpass"),
                "authentication": {"superuser": {"username": "postgres"},
                                   "replication": {"username": "postgres"},
                                   "rewind": {"username": "postgres"}},
                "parameters": {"unix_socket_directories": str(self.home)},
            },
            "tags": {"nofailover": False, "noloadbalance": False},
        }
        self.config.write_text(json.dumps(config, indent=2))  # YAML holds JSON

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None


class PatroniPair:
    def __init__(self, folder: Path) -> None:
        self.folder = folder / "patroni"
        self.bin = _postgres_bin()
        self.etcd_port, self.etcd_peer_port = free_port(), free_port()
        etcd = f"127.0.0.1:{self.etcd_port}"
        self.nodes = [Node(self.folder, f"pg{n}", etcd) for n in range(2)]
        self.port = free_port()  # HAProxy's: the service's one address for the primary
        self.stats_port = free_port()
        self.etcd: Process | None = None
        self.haproxy: Process | None = None
        self._as: list[str] = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        self.last_error = ""

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        self.folder.mkdir(parents=True)
        env = dict(os.environ)
        peer = f"http://127.0.0.1:{self.etcd_peer_port}"
        self.etcd = Process("etcd", [
            "etcd", "--name", "etcd0", "--data-dir", str(self.folder / "etcd"),
            "--listen-client-urls", f"http://127.0.0.1:{self.etcd_port}",
            "--advertise-client-urls", f"http://127.0.0.1:{self.etcd_port}",
            "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", f"etcd0={peer}"], env, self.folder / "etcd.log")
        self.etcd.start()
        for node in self.nodes:
            node.write_config(self.bin)
        if self._as:
            os.chmod(self.folder.parent, 0o755)
            for path in [self.folder, *(n.home for n in self.nodes)]:
                shutil.chown(path, "postgres", "postgres")
            for node in self.nodes:
                shutil.chown(node.config, "postgres", "postgres")
        for node in self.nodes:
            node.process = Process(node.name, [*self._as, "patroni", str(node.config)], env,
                                   self.folder / f"{node.name}.log")
            node.process.start()
            if node is self.nodes[0]:  # the first bootstraps the cluster; the second copies it
                wait_for(lambda: self._alive() and self.leader() == "pg0", 90,
                              "pg0 to lead")
        wait_for(lambda: self._alive() and self.sync_standby() is not None, 90,
                      "a synchronous standby")
        self._start_haproxy(env)
        # HAProxy counts every server up until its checks say otherwise.
        wait_for(lambda: self.haproxy_sends_to() == ["pg0"], 30,
                 "HAProxy to send to the primary alone")
        wait_for(self.writable, 30, "a write through HAProxy")

    def _start_haproxy(self, env: dict[str, str]) -> None:
        servers = "\n".join(
            f"    server {n.name} 127.0.0.1:{n.pg_port} maxconn 200 check port {n.api_port}"
            for n in self.nodes)
        config = self.folder / "haproxy.cfg"
        config.write_text(HAPROXY.format(port=self.port, stats=self.stats_port,
                                         servers=servers))
        self.haproxy = Process("haproxy", ["haproxy", "-db", "-f", str(config)], env,
                               self.folder / "haproxy.log")
        self.haproxy.start()

    def _alive(self) -> bool:
        for node in self.nodes:
            if node.process is not None and not node.process.alive:
                raise SystemExit(f"Patroni {node.name} exited: see {node.process.log}")
        return True

    def haproxy_sends_to(self) -> list[str]:
        """The nodes HAProxy counts as up (its stats, as CSV)."""
        try:
            rows = httpx.get(f"http://127.0.0.1:{self.stats_port}/;csv", timeout=1).text
        except httpx.HTTPError:
            return []
        # "UP 1/2" is a server going down after one failed check: still sent to.
        return sorted(row.split(",")[1] for row in rows.splitlines()
                      if row.startswith("primary,") and row.split(",")[17].startswith("UP")
                      and row.split(",")[1] in {n.name for n in self.nodes})

    def cluster(self) -> list[dict[str, Any]]:
        """Patroni's members (name, role, state, lag), asked of any node that answers."""
        for node in self.nodes:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                members: list[dict[str, Any]] = httpx.get(
                    f"{node.api}/cluster", timeout=1).json()["members"]
                return members
        return []

    def leader(self) -> str | None:
        return next((m["name"] for m in self.cluster()
                     if m["role"] == "leader" and m["state"] == "running"), None)

    def sync_standby(self) -> str | None:
        return next((m["name"] for m in self.cluster()
                     if m["role"] == "sync_standby" and m["state"] in ("running", "streaming")),
                    None)

    def node(self, name: str) -> Node:
        return next(n for n in self.nodes if n.name == name)

    def writable(self) -> bool:
        """A write through HAProxy commits (and so reached the standby too)."""
        return self.psql("CREATE TABLE IF NOT EXISTS ha_probe (at timestamptz);"
                         "INSERT INTO ha_probe VALUES (now())", timeout_s=3) == 0

    def psql(self, sql: str, *, database: str = "postgres", timeout_s: float = 10) -> int:
        """psql's exit status for `sql` run through HAProxy (-1: it timed out)."""
        try:
            done = subprocess.run(
                [str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                 "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql],
                capture_output=True, timeout=timeout_s, cwd="/")
        except subprocess.TimeoutExpired:
            return -1
        self.last_error = done.stderr.decode()
        return done.returncode

    def create_database(self, name: str) -> None:
        if self.psql(f'CREATE DATABASE "{name}"') != 0:
            raise SystemExit(f"could not create database {name} through HAProxy: "
                             f"{self.last_error}")

    def kill_primary(self) -> tuple[str, float]:
        """kill -9 of the primary's postmaster, as a crash would; its Patroni lives on."""
        leader = self.leader()
        if leader is None:
            raise SystemExit("no running leader to kill")
        pid = self.node(leader).postmaster_pid()
        if pid is None:
            raise SystemExit(f"{leader} has no postmaster.pid")
        os.kill(pid, signal.SIGKILL)
        return leader, time.time()

    def switchover(self, candidate: str) -> None:
        """A planned switchover (fail back), as `patronictl switchover` asks for it."""
        leader = self.leader()
        if leader is None or leader == candidate:
            return
        answer = httpx.post(f"{self.node(leader).api}/switchover",
                            json={"leader": leader, "candidate": candidate}, timeout=60)
        if answer.status_code != 200:
            raise SystemExit(f"switchover to {candidate} refused: {answer.text}")

    def stop(self) -> None:
        with ThreadPoolExecutor() as pool:  # each Patroni stops its PostgreSQL: side by side
            list(pool.map(Process.stop, [p for p in [self.haproxy, *(n.process for n in self.nodes)]
                                         if p is not None]))
        for node in self.nodes:  # a postmaster its Patroni left behind
            if (node.data / "postmaster.pid").exists():
                subprocess.run([*self._as, str(self.bin / "pg_ctl"), "-D", str(node.data),
                                "stop", "-m", "immediate"], capture_output=True, cwd="/")
        if self.etcd is not None:
            self.etcd.stop()


# Patroni's own example (its docs' haproxy.cfg), checked every 500 ms: `/primary` answers 200
# only on the node holding the leader key, so a node that lost it gets no new connection, and
# `on-marked-down shutdown-sessions` cuts the ones it had.
HAPROXY = """global
    maxconn 400

defaults
    mode tcp
    retries 2
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s

listen stats
    mode http
    bind 127.0.0.1:{stats}
    stats enable
    stats uri /

listen primary
    bind 127.0.0.1:{port}
    option httpchk OPTIONS /primary
    http-check expect status 200
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
{servers}
"""
