"""Losing a host loses nothing (`bench/failover.py`), briefly: one run of the production shape
on PostgreSQL under Patroni with a synchronous standby behind HAProxy, and Redis with a
replica and three Sentinels, under a few clients playing against bots; the primary's
postmaster is killed (-9) and failed back, then the Redis master is killed. Every target of
the benchmark is held here: these are correctness figures, and the time limits (30 s, 15 s)
are far above what a busy machine adds.

Skipped only when the packages are not installed (`.ci/run` installs them)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from bench.ha.programs import missing
from tests.processes import ROOT

pytestmark = [pytest.mark.failover,
              pytest.mark.skipif(bool(missing()), reason=f"not installed: {missing()}")]


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "failover.py"), "--scenario", "both",
         "--clients", "3", "--apis", "1", "--workers", "1", "--warmup-s", "3",
         "--hold-s", "2"], cwd=ROOT, capture_output=True, text=True, timeout=400)
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-3000:]
    found: dict[str, Any] = json.loads(lines[-1])
    assert found["failure"] is None, (found["failure"], done.stdout[-3000:])
    return found


def _missed(report: dict[str, Any], scenario: str) -> list[str]:
    figures = report[scenario]
    return [f"{name}: {figures[name.split('.', 1)[1]]} (target {report['targets'][name]})"
            for name, ok in report["met"].items() if name.startswith(scenario) and not ok]


def test_given_the_primary_killed_under_load_then_no_acknowledged_command_is_lost(report):
    figures = report["postgres"]

    assert not _missed(report, "postgres"), (_missed(report, "postgres"),
                                             figures["problem_samples"])
    assert figures["promoted"] != figures["killed"] == figures["failed_back_to"]
    assert figures["commands_acknowledged"] > 0 and figures["games_finished"] >= 3
    assert figures["games_verified"] == figures["games_started"]


def test_given_the_redis_master_killed_under_load_then_due_work_resumes_and_nothing_is_lost(
        report):
    figures = report["redis"]

    assert not _missed(report, "redis"), (_missed(report, "redis"), figures["problem_samples"])
    assert figures["bot_moves_after_promotion"] > 0
    assert figures["games_verified"] == figures["games_started"] >= 3
