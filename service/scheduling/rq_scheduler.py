"""Due work carried by RQ: enqueue a bot move now, an expiring clock at its deadline (through
the workers' timers, `due_timer.py`), and sweep the rows whose job was lost (a dead worker,
a Redis that forgot everything).

The job is named by its dotted path (`job_names.py`), so API processes enqueue without
importing `workers/`.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from service.redis_clients import sync_client
from service.scheduling import due_timer
from service.scheduling.job_names import TAKE_DUE_DECISION
from service.table.clock import BOT_TURN, DueWork

JOB_TIMEOUT_S = 30
# A job fails only on infrastructure trouble (the database away); retry soon, then leave the
# row to the sweeper, which keeps trying for as long as the row is due.
RETRY = Retry(max=3, interval=[1, 2, 4])
WAITING_IN_QUEUE = {JobStatus.QUEUED, JobStatus.DEFERRED}


def job_id(due: DueWork) -> str:
    """One id per (game, version, kind): RQ ids allow only [A-Za-z0-9_-]."""
    return f"cya-{due.kind}-{due.game_id}-{due.version}"


def _utc(t: datetime) -> datetime:
    """A time of RQ's (a job's start), aware whichever RQ wrote it."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def enqueue_due(queue: Queue, due: DueWork, *, bot_delay_ms: int = 0) -> Job | None:
    """Enqueues `due` now, or hands it to the timers when it is for later (None)."""
    at = due.due_at
    now = datetime.now(UTC)
    if due.kind == BOT_TURN and bot_delay_ms:
        at = max(at, now) + timedelta(milliseconds=bot_delay_ms)
    if at > now:  # the workers' timers release it then (`due_timer`), to the millisecond
        lead = timedelta(seconds=due_timer.CLOCK_LEAD_S if due.kind != BOT_TURN else 0)
        due_timer.add(queue, due, at - lead)
        return None
    args = (due.game_id, due.version, due.kind, due.seat)
    with queue.connection.pipeline() as pipe:  # one round trip instead of two
        job: Job = queue.enqueue(TAKE_DUE_DECISION, *args, job_id=job_id(due),
                                 job_timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=3600,
                                 retry=RETRY, pipeline=pipe)
        pipe.execute()
    return job


class RQScheduler:
    """The pipeline's after-commit hook when Redis is configured.

    The enqueue is a blocking Redis round trip (RQ has no asyncio client), made on a thread:
    well under a millisecond on an idle local Redis, but on a busy machine Redis waits for a
    core too, and on the event loop each held every request of the process for 100–170 ms
    (bench/soak.py).
    """

    def __init__(self, redis_url: str, queue_name: str, *, bot_delay_ms: int = 0) -> None:
        # A Redis that stops answering must not hold a command for long (redis-py 8's
        # default is 5 seconds).
        self.redis = sync_client(redis_url, socket_connect_timeout=1, socket_timeout=1)
        self.queue = Queue(queue_name, connection=self.redis)
        self.bot_delay_ms = bot_delay_ms

    def start(self) -> None:
        """Nothing to start: the workers run the jobs, their sweeper finds the lost ones."""

    async def schedule(self, game_id: str, due: DueWork | None) -> None:
        if due is not None:  # a Redis error reaches the pipeline, which leaves it to the sweeper
            await asyncio.to_thread(enqueue_due, self.queue, due,
                                    bot_delay_ms=self.bot_delay_ms)

    async def close(self) -> None:
        self.redis.close()


def _taken_and_dropped(queue: Queue, job: Job, status: JobStatus) -> bool:
    """Queued, yet in no queue: a worker took it (RQ moves a taken job to an intermediate
    list) and died before starting it. RQ gives such a job up only after a minute or more,
    and then marks it failed."""
    if status != JobStatus.QUEUED or job.origin != queue.name:
        return False
    return queue.get_job_position(job.id) is None


def requeue_lost(queue: Queue, rows: list[DueWork], *, started_grace_s: float) -> int:
    """Enqueue again, to run now, every overdue row whose job is not queued or freshly
    running; returns how many. A stale copy is deleted first so the id names one live job.

    A job still scheduled though overdue is lost too: only RQ's scheduler moves it to the
    queue, and that scheduler (a child of one worker) dies with its worker or a Redis restart,
    and comes back only at the workers' next maintenance. So is one queued in no queue
    (`_taken_and_dropped`)."""
    now = datetime.now(UTC)
    requeued = 0
    for due in rows:
        try:
            job = Job.fetch(job_id(due), connection=queue.connection)
        except NoSuchJobError:
            job = None
        if job is not None:
            status = job.get_status(refresh=False)
            if status in WAITING_IN_QUEUE and not _taken_and_dropped(queue, job, status):
                continue
            started = job.started_at
            if status == JobStatus.STARTED and started is not None and (
                    now - _utc(started)).total_seconds() < started_grace_s:
                continue
            job.delete()
            queue.intermediate_queue.remove(job.id)  # else RQ would later fail the new copy
        enqueue_due(queue, due)  # overdue already: no pacing delay, no scheduler
        requeued += 1
    return requeued
