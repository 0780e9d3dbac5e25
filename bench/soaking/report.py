"""A run's figures, and whether they meet the soak's targets."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from .calls import Calls
from .context import Soak
from .lag import LoopLag

TARGETS = {
    # At most 100 ms; on a machine busy enough to delay a bare event loop (control.py) more,
    # at most the histogram's bucket that holds the bare loop's worst (`loop_lag_bound_ms`).
    "loop_lag_max_ms": 100.0,
    "incomplete_reads": 0,
    "out_of_order_reads": 0,
    "leaked_reads": 0,
    "server_errors_outside_faults": 0,
    "games_not_verified": 0,  # every game started finished, and /verify passed
    "webhook_messages_undelivered": 0,
    "webhook_bad_signatures": 0,
}


def figures(backend: str, soak: Soak, lag: LoopLag, calls: Calls,
            faults: list[dict[str, Any]], elapsed: float, dead: list[str]) -> dict[str, Any]:
    by_path: dict[str, Counter[str]] = defaultdict(Counter)
    notes: dict[str, Counter[str]] = defaultdict(Counter)
    for v in soak.verdicts:
        c = by_path[v.read.path]
        c["reads"] += 1
        c["skipped"] += v.skipped is not None
        c["incomplete"] += bool(v.incomplete)
        c["out_of_order"] += bool(v.out_of_order)
        c["leaked"] += bool(v.leaked)
        notes[v.read.path].update(v.read.notes)
    total = sum(by_path.values(), Counter())
    unexpected = calls.unexpected_5xx()
    games = soak.games
    return {
        "backend": backend,
        "seconds": round(elapsed, 1),
        "games": dict(games),
        "games_not_verified": games["started"] - games["verified"],
        "reads": total["reads"],
        "incomplete_reads": total["incomplete"],
        "out_of_order_reads": total["out_of_order"],
        "leaked_reads": total["leaked"],
        "reads_by_path": {path: dict(c) for path, c in sorted(by_path.items())},
        "read_notes": {path: dict(c) for path, c in sorted(notes.items()) if c},
        "loop_lag_max_ms": lag.max_ms,  # outside the faults' windows
        "loop_lag_over_100ms": lag.stalls,
        "loop_lag_bound_ms": lag.bound_ms,
        "loop_lag_during_faults_max_ms": round(lag.during_faults.worst_s * 1000, 1),
        "loop_lag_during_faults_over_100ms": int(lag.during_faults.over_100ms),
        "loop_lag_by_process_ms": {url.rsplit(":", 1)[1]: round(x.worst_s * 1000, 1)
                                   for url, x in lag.outside.items()},
        "loop_lag_samples": int(lag.samples),
        "bare_loop_lag_max_ms": lag.control.get("max_ms"),
        "bare_loop_lag_over_100ms": lag.control.get("over_100ms"),
        "server_errors_outside_faults": len(unexpected),
        "server_errors_during_faults": len(calls.server_errors) - len(unexpected),
        "server_errors_seen": sorted({f"{status} {route}" for _, route, status in unexpected}),
        "transport_errors": calls.transport_errors,
        "webhook_messages": soak.hooks.counts["messages"],
        "webhook_repeats": soak.hooks.counts["repeats"],
        "webhook_bot_decisions": soak.hooks.counts["bot decisions"],
        "webhook_bad_signatures": soak.hooks.counts["bad signatures"],
        "webhook_messages_owed": games["messages owed"],
        "webhook_messages_undelivered": games["messages undelivered"],
        "faults": faults,
        "processes_down_at_the_end": dead,
        "routes": calls.percentiles(),
        "problems": soak.problems[:40],
    }


def met(found: dict[str, Any]) -> dict[str, bool]:
    bounds = {**TARGETS, "loop_lag_max_ms": found["loop_lag_bound_ms"]}
    return {name: found[name] <= bound for name, bound in bounds.items()}
