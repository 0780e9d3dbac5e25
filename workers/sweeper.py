"""The sweeper: every few seconds, due rows whose time has passed are enqueued again.

Redis here keeps nothing on disk and a worker may die holding a job, so the database's
`due_work` table is the only record that work is owed. The sweeper runs in a thread of every
worker, with its own event loop and engine; a short Redis lock lets one of them sweep per
interval.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from rq import Queue

from service.events.backends import open_store
from service.events.event_store import EventStore
from service.projections import ratings
from service.projections.due import overdue
from service.projections.tournaments import stale_running
from service.redis_clients import sync_client
from service.scheduling.idle_games import idle_candidates
from service.scheduling.job_names import END_IDLE_GAME
from service.scheduling.rq_scheduler import requeue_lost
from service.tournaments.runner.drivers import STALE_AFTER_S, enqueue_advance
from service.webhooks.dispatch import sweep_lost
from service.webhooks.runners import RQRunner
from service.wiring.settings import Settings

log = logging.getLogger(__name__)


def lock_key(queue_name: str) -> str:
    return f"cya:sweeper:{queue_name}"


def requeued_counter(queue_name: str) -> str:
    """How many decisions sweepers handed out again: a lost job or a Redis restart shows here."""
    return f"cya:sweeper:requeued:{queue_name}"


class Sweeper(threading.Thread):
    def __init__(self, settings: Settings, owner: str) -> None:
        super().__init__(name="cya-sweeper", daemon=True)
        assert settings.redis_url, "the sweeper needs Redis"
        self.settings = settings
        self.owner = owner
        self.stopping = threading.Event()

    def run(self) -> None:
        asyncio.run(self._sweep_forever())

    def stop(self) -> None:
        self.stopping.set()

    async def _sweep_forever(self) -> None:
        s = self.settings
        assert s.redis_url
        store = open_store(s.database_url, pool_size=2, max_overflow=0)
        queue = Queue(s.rq_queue, connection=sync_client(s.redis_url))
        try:
            while not self.stopping.is_set():
                try:
                    await self.sweep_once(store, queue)
                except Exception:
                    log.exception("sweep failed; trying again next interval")
                await asyncio.sleep(s.sweep_interval_s)
        finally:
            await store.close()
            await store.engine.dispose()
            queue.connection.close()

    async def sweep_once(self, store: EventStore, queue: Queue) -> int:
        s = self.settings
        ttl_ms = max(int(s.sweep_interval_s * 900), 100)  # expires before the next interval
        if not queue.connection.set(lock_key(s.rq_queue), self.owner, nx=True, px=ttl_ms):
            return 0
        rows = await overdue(store, s.sweep_grace_s)
        n = requeue_lost(queue, rows, started_grace_s=s.sweep_grace_s)
        if n:
            queue.connection.incrby(requeued_counter(s.rq_queue), n)
            log.warning("sweeper enqueued %d lost or overdue decisions again", n)
        await ratings.catch_up(store)  # a finished rated game whose rating hint failed
        for tournament_id in await stale_running(store, STALE_AFTER_S):  # a lost wake-up
            enqueue_advance(queue, tournament_id)
        for game_id in await idle_candidates(store, s.lobby_ttl_s, s.abandon_after_s):
            queue.enqueue(END_IDLE_GAME, game_id, job_id=f"cya-idle-{game_id}", job_timeout=30,
                          result_ttl=0, failure_ttl=3600)
        await self._sweep_webhooks(store)
        return n

    async def _sweep_webhooks(self, store: EventStore) -> None:
        """Event webhook messages that wait past their time with no job holding them, and bot
        endpoints' decisions left waiting past their deadline."""
        s = self.settings
        assert s.redis_url
        runner = RQRunner(s.redis_url, s.rq_queue)
        try:
            await sweep_lost(store, runner, s.webhooks.decision_deadline_s, s.sweep_grace_s)
        finally:
            await runner.close()
