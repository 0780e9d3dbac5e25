"""The programs the failover shape runs: Debian's `patroni`, `etcd-server`, `haproxy` and
`redis-sentinel` packages, with PostgreSQL's binaries and `redis-server`."""

from __future__ import annotations

import shutil
from pathlib import Path

NEEDED = ("patroni", "etcd", "haproxy", "redis-sentinel", "redis-server")


def missing() -> list[str]:
    """The programs that are not installed."""
    found = [name for name in NEEDED if shutil.which(name) is None]
    if not list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        found.append("PostgreSQL's binaries (/usr/lib/postgresql/*/bin)")
    return found
