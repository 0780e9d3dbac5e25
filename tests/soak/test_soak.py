"""The soak (`bench/soak.py`), briefly: the production shape (two API processes, two workers,
PostgreSQL and Redis of its own) with every kind of client at once for about 40 s while a
worker and an API process are killed and Redis and PostgreSQL restart; every correctness
target met (loop lag is reported here and judged by the benchmark).
`bench/soak.py` itself runs for 10 minutes or more (README, Benchmarks)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import ROOT

CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.soak
def test_soak_the_production_shape_with_faults_meets_every_target() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "soak.py"), "--seconds", "40", "--faults",
         "--backend", "production", "--tables", "4",
         "--pages", "1" if CHROMIUM.exists() else "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)

    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-3000:]
    report = json.loads(lines[-1])
    figures = report["backends"]["production"]
    # Loop lag is a timing figure: bench/soak.py holds it to its target on a quiet machine. In
    # the suite, beside everything else the machine runs, one scheduler stall would fail CI,
    # so here it is reported, not judged; every correctness target is.
    missed = [name.split(".", 1)[1] for name, ok in report["met"].items()
              if not ok and not name.endswith("loop_lag_max_ms")]
    assert not missed, "\n".join(
        [f"{name}: {figures[name]} (target {report['targets'][name]})" for name in missed]
        + [f"loop lag: bound {figures['loop_lag_bound_ms']} ms, bare loop "
           f"{figures['bare_loop_lag_max_ms']} ms, stalls {figures['loop_lag_episodes']}",
           *figures["problems"], *lines[-30:-1]])
    assert done.returncode in (0, 1), done.stderr[-3000:]  # 1: a missed target, as judged
    assert figures["games"]["verified"] >= 4 and figures["reads"] >= 40
    assert [f["fault"] for f in figures["faults"]] == [
        "worker killed", "api killed", "redis restarted", "postgres restarted"]
    assert figures["webhook_messages"] > 0 and figures["webhook_bot_decisions"] > 0
