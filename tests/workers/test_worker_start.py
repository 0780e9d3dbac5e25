"""`cya worker` at start: it refuses a database the migrations have not reached."""

from __future__ import annotations

import subprocess
from dataclasses import replace

from service.events.migrate import head_revision
from service.wiring.settings import Settings

from .conftest import CYA, ROOT, worker_env


def _burst(settings: Settings) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CYA, "worker", "--burst"], cwd=ROOT, env=worker_env(settings),
                          capture_output=True, text=True, timeout=60)


def test_given_an_unmigrated_database_then_the_worker_refuses_to_start_and_says_why(
        settings, tmp_path):
    unmigrated = replace(settings, database_url=f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")

    refused = _burst(unmigrated)
    served = _burst(settings)  # the same worker on the migrated database

    assert refused.returncode == 1
    assert refused.stderr.strip().endswith(
        "cya worker: the database is not ready for this code: schema at revision none, "
        f"this code needs {head_revision()}: run `cya db upgrade`")
    assert served.returncode == 0, served.stderr
