"""Who runs a delivery job: RQ workers in production, asyncio tasks on the embedded default.

A job is named (`service.scheduling.job_names.WEBHOOK_JOBS`) and takes plain arguments, so
the RQ runner enqueues it through `workers.jobs.webhook_job`, by its dotted path, without
importing the workers, and both runners run the same body (`dispatch.Webhooks.run_job`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, Protocol

from rq import Queue, Retry

from service.redis_clients import sync_client
from service.scheduling.job_names import WEBHOOK_JOB

log = logging.getLogger(__name__)

JOB_TIMEOUT_S = 120
RETRY = Retry(max=3, interval=[1, 2, 4])  # infrastructure trouble only: the job never raises
# for what an endpoint does


class Runner(Protocol):
    async def run(self, job: str, args: tuple[Any, ...], *, delay_s: float = 0.0,
                  key: str | None = None) -> None:
        """Run `job(*args)` after `delay_s`; `key` names the job so that a copy already
        waiting to run is not queued twice."""
        ...

    async def close(self) -> None: ...


class InProcessRunner:
    def __init__(self, body: Callable[[str, tuple[Any, ...]], Awaitable[object]]) -> None:
        self.body = body
        self._tasks: set[asyncio.Task[None]] = set()
        self._waiting: set[str] = set()

    async def run(self, job: str, args: tuple[Any, ...], *, delay_s: float = 0.0,
                  key: str | None = None) -> None:
        if key is not None and key in self._waiting:
            return
        if key is not None:
            self._waiting.add(key)
        task = asyncio.get_running_loop().create_task(self._run(job, args, delay_s, key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, job: str, args: tuple[Any, ...], delay_s: float, key: str | None
                   ) -> None:
        try:
            if delay_s > 0:
                await asyncio.sleep(delay_s)
        finally:
            if key is not None:
                self._waiting.discard(key)
        try:
            await self.body(job, args)
        except Exception:
            log.exception("webhook job %s%r failed; the sweep hands its work out again", job,
                          args)

    async def close(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _rq_id(job: str, key: str) -> str:
    return "cya-wh-" + "".join(c if c.isalnum() or c in "-_" else "_" for c in f"{job}-{key}")


class RQRunner:
    """Enqueues `workers.jobs.webhook_job(name, *args)`: a blocking Redis round trip, made on
    a thread as the bot moves' jobs are (`RQScheduler`)."""

    def __init__(self, redis_url: str, queue_name: str) -> None:
        self.redis = sync_client(redis_url, socket_connect_timeout=1, socket_timeout=1)
        self.queue = Queue(queue_name, connection=self.redis)

    async def run(self, job: str, args: tuple[Any, ...], *, delay_s: float = 0.0,
                  key: str | None = None) -> None:
        options: dict[str, Any] = {"job_timeout": JOB_TIMEOUT_S, "result_ttl": 0,
                                   "failure_ttl": 3600, "retry": RETRY}
        if key is not None:
            options["job_id"] = _rq_id(job, key)
        if delay_s > 0:
            await asyncio.to_thread(self.queue.enqueue_in, timedelta(seconds=delay_s),
                                    WEBHOOK_JOB, job, *args, **options)
        else:
            await asyncio.to_thread(self.queue.enqueue, WEBHOOK_JOB, job, *args, **options)

    async def close(self) -> None:
        self.redis.close()
