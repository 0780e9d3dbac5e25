"""`cya worker` at start: it refuses a database the migrations have not reached."""

from __future__ import annotations

import subprocess
import time
from dataclasses import replace

from rq import Queue

from service.events.migrate import head_revision
from service.redis_clients import sync_client
from service.wiring.settings import Settings
from workers.main import DueWorker

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



def test_given_the_channel_thread_heard_its_unsubscription_then_stopping_it_takes_seconds(
        settings):
    """RQ's channel thread slept a minute between wakes, and since redis-py 8.2 a worker's exit
    (a SIGTERM, the end of `--burst`) waits for it: one burst in four took 60 s. Here the thread
    is let hear the unsubscription first, as it did then, before the worker stops it."""
    redis = sync_client(settings.redis_url)
    worker = DueWorker([Queue(settings.rq_queue, connection=redis)], connection=redis)
    worker.subscribe()
    time.sleep(0.3)
    worker.pubsub.unsubscribe()
    time.sleep(0.3)  # the thread reads the confirmation and waits for a subscription again

    start = time.monotonic()
    worker.unsubscribe()

    assert time.monotonic() - start < 5
