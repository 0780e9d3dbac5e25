"""`cya worker`: an RQ worker with the due timer (expiring clocks, paced bot moves), RQ's
scheduler (for jobs enqueued for later with RQ's own `enqueue_at`) and the sweeper thread.

Why `SimpleWorker`: the default `Worker` forks a work horse per job, which costs several
milliseconds and throws away the job's warm state (event loop, database pool, folded-game
cache) every time; a bot's move is itself a few milliseconds of work. `SimpleWorker` runs jobs
in the worker process. What forking would buy, isolation from a job that crashes or hangs,
matters little here: jobs run our own code, each is idempotent, a hard timeout still applies,
and a dead worker's job is found again by the sweeper. Run several workers for parallelism.
"""

from __future__ import annotations

import asyncio
import faulthandler
import itertools
import logging
import os
import secrets
import signal
import socket
import time

from redis.exceptions import RedisError
from rq import Queue, SimpleWorker

from service.events.engine import create_engine
from service.events.migrate import schema_behind_of
from service.redis_clients import sync_client
from service.wiring.bootstrap import tune_gc
from service.wiring.settings import Settings
from workers import jobs
from workers.sweeper import Sweeper
from workers.timer import DueTimer

log = logging.getLogger(__name__)

MAINTENANCE_INTERVAL_S = 30
RECONNECT_WAIT_S = 1.0
PUBSUB_WAKE_S = 1.0


class DueWorker(SimpleWorker):
    """RQ's `SimpleWorker`, reconnecting to Redis every second for as long as it is away.

    RQ doubles its wait after each failed reconnect, up to a minute, and an idle worker keeps
    the doubled wait across outages: due work resumed 10.5 s after a 20 s outage and 27.5 s
    after a 35 s one. A reconnect is one refused connection a second per worker."""

    max_connection_wait_time = RECONNECT_WAIT_S

    def subscribe(self) -> None:
        """RQ's, but the thread that hears commands on the worker's channel wakes every second,
        not every minute: since redis-py 8.2 stopping it waits for it, and a thread that had
        just unsubscribed slept out its minute, which held the worker's exit (its SIGTERM, and
        one `cya worker --burst` in four) for 60 s."""
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        self.pubsub_thread = self.pubsub.run_in_thread(  # type: ignore[assignment]
            sleep_time=PUBSUB_WAKE_S, daemon=True,
            exception_handler=self._pubsub_exception_handler)


def run(settings: Settings, *, name: str | None = None, burst: bool = False,
        logging_level: str = "WARNING") -> None:
    if not settings.redis_url:
        raise SystemExit("cya worker needs CYA_REDIS_URL")
    logging.basicConfig(level=logging_level)
    behind = asyncio.run(_schema_behind(settings.database_url))
    if behind is not None:
        raise SystemExit(f"cya worker: the database is not ready for this code: {behind}")
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 <pid>`: every thread's stack, to stderr
    # Unique even where a restarted container has the same host name and pid (1): RQ refuses
    # a name whose previous owner's key has not yet expired (7 minutes after a crash).
    name = name or f"cya-{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
    redis = sync_client(settings.redis_url, socket_connect_timeout=RECONNECT_WAIT_S)
    queue = Queue(settings.rq_queue, connection=redis)
    jobs.configure(settings)
    tune_gc()
    sweeper = Sweeper(settings, owner=name)
    if settings.sweep_interval_s > 0:  # 0: no sweeper in this worker (others sweep)
        sweeper.start()
    timer = DueTimer(settings.redis_url, settings.rq_queue)
    timer.start()
    try:
        _work_until_stopped(queue, name, burst=burst, logging_level=logging_level)
    finally:
        timer.stop()
        sweeper.stop()
        jobs.shutdown()


def _work_until_stopped(queue: Queue, name: str, *, burst: bool, logging_level: str) -> None:
    """RQ's work loop, started again whenever Redis went away under it: RQ quits on a Redis
    error outside its wait for a job (one that drops while a job finishes), which ended the
    worker for good. Each round takes a new name: the last one's may still be registered,
    its end unrecorded while Redis was away. A worker is made with Redis away too (at start,
    or between rounds): RQ names its connection as it makes one, so that waits its turn."""
    worker: DueWorker | None = None  # the last one made: its signal handlers are installed
    for round_ in itertools.count(1):
        round_name = name if round_ == 1 else f"{name}.{round_}"
        try:
            # Maintenance (every 10 minutes by default) is when a worker starts RQ's
            # scheduler again after the one holding its lock died; the sweeper hands out
            # overdue jobs meanwhile.
            worker = DueWorker([queue], connection=queue.connection, name=round_name,
                               maintenance_interval=MAINTENANCE_INTERVAL_S)
            worker.work(with_scheduler=True, burst=burst, logging_level=logging_level)
        except RedisError:  # Redis away as the worker was made, or in its teardown
            log.warning("worker %s: Redis away", round_name, exc_info=True)
        if burst or (worker is not None and _stopping(worker)):
            return
        log.warning("worker %s lost Redis; working again in %.0f s", round_name,
                    RECONNECT_WAIT_S)
        time.sleep(RECONNECT_WAIT_S)
        if worker is not None and _stopping(worker):  # SIGTERM meanwhile: RQ's handler is
            return  # still this worker's


def _stopping(worker: DueWorker) -> bool:
    """A stop was asked for (RQ records it so whether or not a job was running)."""
    return worker._stop_requested or worker._shutdown_requested_date is not None


async def _schema_behind(database_url: str) -> str | None:
    """Every job would fail on a database the migrations have not reached: refuse to start.
    One out of reach may come back; its jobs retry, so start anyway."""
    engine = create_engine(database_url)
    try:
        return await asyncio.wait_for(schema_behind_of(engine), 10.0)
    except Exception as exc:  # out of reach: a warning, not a refusal
        logging.getLogger(__name__).warning("database not reachable at start: %r", exc)
        return None
    finally:
        await engine.dispose()
