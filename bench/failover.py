"""Losing a host loses nothing: the production shape on PostgreSQL under Patroni (a primary and a
synchronous standby, etcd, HAProxy on Patroni's `/primary` check) and Redis with a replica and
three Sentinels, all of its own on free ports (never the shared 5432 and 6379), with API
processes and `cya worker`s on both, under a few clients playing against bots through the API.

- postgres: kill -9 of the primary's postmaster under load, then the fail back (the killed
  node rejoins as the standby; a switchover makes it the primary again). Targets: writes back
  within 30 s of the kill, and no wait over 30 s between acknowledged writes through the
  switchover; every acknowledged (2xx) command's events in the final log; no answer but 503
  `database_unavailable` with `Retry-After` meanwhile; every game finishes and verifies.
- redis: kill -9 of the Redis master under load. Targets: due work (bots' moves) commits again
  within 15 s of the kill; nothing lost (every game finishes and verifies).

Needs Debian's `patroni`, `etcd-server`, `haproxy` and `redis-sentinel` (and PostgreSQL's
binaries). Prints progress, then the figures and targets as one JSON object on its last line;
exits 1 on a miss. The processes' logs stay in a temporary folder (named in the output) when a
target is missed, or with `--keep`.

    .venv/bin/python bench/failover.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The parts are imported as `bench.ha` from the repository's root, never from bench/ itself
# (a module there must not stand in for the standard library's): as bench/soak.py does.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench.ha.programs import missing  # noqa: E402
from bench.ha.scenarios import TARGETS, met, postgres_failover, redis_failover  # noqa: E402
from bench.ha.shape import HaShape  # noqa: E402
from bench.soaking.priority import yield_to_service  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=("postgres", "redis", "both"), default="both")
    parser.add_argument("--clients", type=int, default=4, help="clients playing (default 4)")
    parser.add_argument("--apis", type=int, default=2, help="API processes (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="cya workers (default 2)")
    parser.add_argument("--warmup-s", type=float, default=5.0,
                        help="load before each kill (default 5)")
    parser.add_argument("--hold-s", type=float, default=5.0,
                        help="load after each failover before no new game starts (default 5)")
    parser.add_argument("--keep", action="store_true", help="keep the logs and data folder")
    args = parser.parse_args()
    if absent := missing():
        print(json.dumps({"skipped": f"not installed: {', '.join(absent)}"}))
        return 2
    yield_to_service()
    folder = Path(tempfile.mkdtemp(prefix="cya-failover-"))
    print(f"logs and data: {folder}", flush=True)
    shape = HaShape(folder, api_count=args.apis, worker_count=args.workers)
    report: dict[str, dict[str, object]] = {}
    failure = None
    started = time.monotonic()
    try:
        shape.start()
        print(f"started in {time.monotonic() - started:.1f} s", flush=True)
        if args.scenario in ("postgres", "both"):
            report["postgres"] = asyncio.run(
                postgres_failover(shape, args.clients, args.warmup_s, args.hold_s))
        if args.scenario in ("redis", "both"):
            report["redis"] = asyncio.run(
                redis_failover(shape, args.clients, args.warmup_s, args.hold_s))
    except SystemExit as exc:  # a cluster that never reached the state waited for
        failure = str(exc)
    finally:
        stopping = time.monotonic()
        shape.stop()
        print(f"stopped in {time.monotonic() - stopping:.1f} s", flush=True)
    judged = met(report)
    ok = all(judged.values()) and failure is None
    kept = args.keep or not ok
    if not kept:
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps({**report, "seconds": round(time.monotonic() - started, 1),
                      "setup": {"clients": args.clients, "apis": args.apis,
                                "workers": args.workers},
                      "targets": {k: v for k, v in TARGETS.items() if k in judged},
                      "met": judged, "failure": failure,
                      "logs": str(folder) if kept else None}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
