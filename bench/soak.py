"""The soak: many real clients of every kind for a long time, against the service as deployed,
with what each client read judged against each finished game's log.

Shapes (`--backend`): `production` (two API processes, no balancer: the clients spread over
both; two `cya worker`s; PostgreSQL and Redis of the soak's own, on free ports, never the
shared ones) and `embedded` (the default: one API process, SQLite, jobs in-process); `both`
runs one after the other. Clients, all at once, at `--tables` tables of four kinds in turn
(bench/soaking/tables.py): `cya-bot` runners playing from their news, the SDK's `turn()` /
`send()` loop, plain SSE followers of every seat (public and private games, the creator's
and the invited player's) cut now and then and resumed with `Last-Event-ID`, event pages,
view long polls, watchers without a key of games with a spectator delay (stream, pages, long
polls, the game's summary and its line in the lobby), a webhook bot and event subscribers
whose every signature is verified with `standardwebhooks`, and people in Chromium
(`--pages`) playing through the web client.

Checked: every read is complete, in order and leak-free against the game's `/history`
(redacted for its caller by the store's own `redacted_for`, views by the domain's); every
game finishes and `/verify` passes; every webhook message the service owed was delivered;
no event loop stalls (each API process's `cya_event_loop_lag_seconds`, read every 5 s: at
most 100 ms, or, on a machine that delays even a bare event loop beside the service more
than that, the histogram's bucket that holds the bare loop's worst); no 5xx; p50/p99 per
route as the clients saw them. `--faults` kills (kill -9) a worker and an API process, which
are started again, and restarts Redis and PostgreSQL, one fault a minute at most, in turn;
5xx answers and loop lag while a fault is open (and 10 s after it) are counted apart.

The clients run niced below the service (bench/soaking/priority.py): on one machine the load
generator would otherwise take the CPU of the service it measures. Each run's logs (every
process's, and the clients') stay in a temporary folder that the output names.

Prints progress, then the figures and targets as one JSON object on its last line; exits 1
on a miss.

    .venv/bin/python bench/soak.py --seconds 600 --faults --backend both
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The parts are imported as `bench.soaking` from the repository's root (which also holds
# `tests.web.steps`, the browser tests' steps and leak check), not from bench/ itself: a
# module there must never stand in for the standard library's of the same name.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench.soaking.priority import yield_to_service  # noqa: E402
from bench.soaking.report import TARGETS, met  # noqa: E402
from bench.soaking.run import soak_backend  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600,
                        help="how long new games keep starting (default 600)")
    parser.add_argument("--faults", action="store_true",
                        help="kill and restart a worker and an API process, restart Redis and "
                             "PostgreSQL, during the run")
    parser.add_argument("--fault", action="append", choices=(
        "worker killed", "api killed", "redis restarted", "postgres restarted"),
        help="inject only this fault (repeatable; implies --faults)")
    parser.add_argument("--backend", choices=("embedded", "production", "both"),
                        default="both")
    parser.add_argument("--tables", type=int, default=6,
                        help="games in play at once (default 6)")
    parser.add_argument("--pages", type=int, default=2,
                        help="people in Chromium at once, at most (default 2; 0: none)")
    parser.add_argument("--think-ms", type=float, default=150,
                        help="the longest a playing client thinks before a move (default 150)")
    args = parser.parse_args()
    yield_to_service()
    backends = ["production", "embedded"] if args.backend == "both" else [args.backend]
    found = {backend: asyncio.run(soak_backend(backend, args)) for backend in backends}
    checks = {f"{backend}.{name}": ok for backend, figures in found.items()
              for name, ok in met(figures).items()}
    print(json.dumps({"benchmark": "soak", "seconds": args.seconds, "faults": args.faults,
                      "backends": found, "targets": TARGETS, "met": checks,
                      "ok": all(checks.values())}))
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
