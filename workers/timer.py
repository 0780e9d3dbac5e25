"""The due timer: a thread of every worker that enqueues due work the moment it is due
(`service.scheduling.due_timer`). Every worker runs one, so a dead worker delays nothing."""

from __future__ import annotations

import logging
import threading

from redis.exceptions import RedisError
from rq import Queue

from service.redis_clients import sync_client
from service.scheduling import due_timer
from service.scheduling.rq_scheduler import enqueue_due

log = logging.getLogger(__name__)

RETRY_S = 1.0  # after a Redis error


class DueTimer(threading.Thread):
    def __init__(self, redis_url: str, queue_name: str) -> None:
        super().__init__(name="cya-due-timer", daemon=True)
        self.queue = Queue(queue_name, connection=sync_client(
            redis_url, socket_connect_timeout=RETRY_S, socket_timeout=RETRY_S))
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                self.stopping.wait(self.release_once())
        finally:
            self.queue.connection.close()

    def release_once(self) -> float:
        """Enqueues what is due; returns how long to sleep."""
        try:
            due, wait = due_timer.release(self.queue)
            for work in due:
                enqueue_due(self.queue, work)
            return wait
        except RedisError:
            log.warning("due timer: Redis away; trying again in %.0f s", RETRY_S, exc_info=True)
            return RETRY_S

    def stop(self) -> None:
        self.stopping.set()
