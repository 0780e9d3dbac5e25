"""Who runs a tournament's `advance`, and when: after its creation, after each of its games
ends (the driver listens to the pipeline's commits), and from the sweepers for a tournament
whose log has stood still (a lost wake-up). RQ workers when Redis carries the due work; asyncio
tasks in this process on the embedded default (`service.wiring.execution` chooses).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Protocol

from service.events.records import StoredEvent
from service.pipeline import Pipeline
from service.projections.tournaments import stale_running, tournament_of_game
from service.redis_clients import sync_client
from service.scheduling.job_names import ADVANCE_TOURNAMENT
from service.table.game import Game
from service.tournaments.runner.runner import TournamentRunner

log = logging.getLogger(__name__)

STALE_AFTER_S = 10.0


class TournamentDriver(Protocol):
    runner: TournamentRunner

    async def wake(self, tournament_id: str) -> None: ...

    async def committed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                        ) -> None: ...

    async def sweep(self) -> int: ...

    async def close(self) -> None: ...


class _Driver:
    def __init__(self, pipeline: Pipeline) -> None:
        self.runner = TournamentRunner(pipeline, self.wake)
        self.store = pipeline.store

    async def wake(self, tournament_id: str) -> None:
        raise NotImplementedError

    async def committed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                        ) -> None:
        """A commit listener: a game that ends wakes its tournament, if it has one."""
        if before.status == after.status or not after.over:
            return
        tournament_id = await tournament_of_game(self.store, after.game_id)
        if tournament_id is not None:
            await self.wake(tournament_id)

    async def sweep(self) -> int:
        stale = await stale_running(self.store, STALE_AFTER_S)
        for tournament_id in stale:
            await self.wake(tournament_id)
        return len(stale)

    async def close(self) -> None:
        return None


class InProcessTournaments(_Driver):
    """One `advance` at a time per tournament, in this process's event loop; a wake-up during
    one runs another after it (the game that ended may have been read before it did)."""

    def __init__(self, pipeline: Pipeline) -> None:
        super().__init__(pipeline)
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def wake(self, tournament_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._advance(tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advance(self, tournament_id: str) -> None:
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            try:
                await self.runner.advance(tournament_id)
            except Exception:
                log.exception("tournament %s: advance failed; the sweep tries again",
                              tournament_id)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)


class RQTournaments(_Driver):
    """An RQ job per wake-up (`workers.jobs.advance_tournament`)."""

    def __init__(self, pipeline: Pipeline, redis_url: str, queue_name: str) -> None:
        super().__init__(pipeline)
        from rq import Queue

        self.redis = sync_client(redis_url, socket_connect_timeout=1, socket_timeout=1)
        self.queue = Queue(queue_name, connection=self.redis)

    async def wake(self, tournament_id: str) -> None:
        enqueue_advance(self.queue, tournament_id)

    async def close(self) -> None:
        self.redis.close()


def enqueue_advance(queue: object, tournament_id: str) -> None:
    from rq import Queue, Retry

    assert isinstance(queue, Queue)
    queue.enqueue(ADVANCE_TOURNAMENT, tournament_id, job_id=f"cya-tournament-{tournament_id}-"
                  f"{secrets.token_hex(4)}", job_timeout=300, result_ttl=0, failure_ttl=3600,
                  retry=Retry(max=3, interval=[1, 2, 4]))

