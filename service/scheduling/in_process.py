"""Due work without Redis: asyncio tasks in the API process run the same job body.

The embedded default (one process, an SQLite file): a human at the table sees the bots move
and the clocks expire with nothing else running. State lives only in this process, so a
restart forgets the tasks; the sweep loop finds their rows in `due_work` again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

from service.pipeline import Pipeline
from service.projections import ratings
from service.projections.due import overdue
from service.scheduling.clock_lateness import ClockLateness
from service.scheduling.decision_job import OUTAGE_GRACE_S, take_due_decision
from service.scheduling.idle_games import end_if_idle, idle_candidates
from service.table.clock import BOT_TURN, DueWork

log = logging.getLogger(__name__)


class InProcessScheduler:
    """Built by the pipeline whose commands its work runs (`Pipeline(hooks=...)`).
    `also_sweep`: more to sweep, from packages above this one (the tournaments' stalled runs).
    `lateness`: told how late each clock's expiry taken here was."""

    def __init__(self, pipeline: Pipeline, *, bot_delay_ms: int = 0,
                 sweep_interval_s: float = 3.0, sweep_grace_s: float = 5.0,
                 outage_grace_s: float = OUTAGE_GRACE_S, lobby_ttl_s: float = 86_400.0,
                 abandon_after_s: float = 7 * 86_400.0, lateness: ClockLateness | None = None,
                 also_sweep: Sequence[Callable[[], Awaitable[object]]] = ()) -> None:
        self.pipeline = pipeline
        self.lobby_ttl_s, self.abandon_after_s = lobby_ttl_s, abandon_after_s
        self.lateness = lateness
        self.bot_delay_ms = bot_delay_ms
        self.sweep_interval_s = sweep_interval_s
        self.sweep_grace_s = sweep_grace_s
        self.outage_grace_s = outage_grace_s
        self.also_sweep = tuple(also_sweep)
        self._tasks: dict[str, tuple[int, asyncio.Task[None]]] = {}  # game -> (version, task)
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin sweeping (unless its interval is 0, as in `cya worker`); called by the first
        schedule, or at startup to resume old rows."""
        if self._sweeper is None and self.sweep_interval_s > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def schedule(self, game_id: str, due: DueWork | None) -> None:
        self.start()
        old = self._tasks.pop(game_id, None)
        # A newer version makes the old task moot; never cancel the task scheduling this one
        # (a bot's move schedules the next move from inside its own task).
        if old is not None and old[1] is not asyncio.current_task():
            old[1].cancel()
        if due is not None:
            task = asyncio.get_running_loop().create_task(self._run(due))
            self._tasks[game_id] = (due.version, task)
            task.add_done_callback(functools.partial(self._forget, game_id))

    def _forget(self, game_id: str, task: asyncio.Task[None]) -> None:
        entry = self._tasks.get(game_id)
        if entry is not None and entry[1] is task:
            del self._tasks[game_id]

    async def _run(self, due: DueWork) -> None:
        wait = (due.due_at - datetime.now(UTC)).total_seconds()
        if due.kind == BOT_TURN:
            wait = max(wait, 0.0) + self.bot_delay_ms / 1000
        if wait > 0:
            await asyncio.sleep(wait)
        try:
            await take_due_decision(self.pipeline, due.game_id, due.version, due.kind, due.seat,
                                    outage_grace_s=self.outage_grace_s,
                                    lateness=None if self.lateness is None
                                    else self.lateness.observe)
        except Exception:
            # The row stays due; the sweep loop tries again.
            log.exception("due work for game %s failed", due.game_id)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval_s)
            with contextlib.suppress(Exception):
                await self.sweep()

    async def sweep(self) -> int:
        started = 0
        for due in await overdue(self.pipeline.store, self.sweep_grace_s):
            live = self._tasks.get(due.game_id)
            if live is not None and live[0] == due.version and not live[1].done():
                continue
            await self.schedule(due.game_id, due)
            started += 1
        await ratings.catch_up(self.pipeline.store)  # a game whose rating hint failed
        for game_id in await idle_candidates(self.pipeline.store, self.lobby_ttl_s,
                                             self.abandon_after_s):
            await end_if_idle(self.pipeline, game_id, self.lobby_ttl_s, self.abandon_after_s)
        for sweep in self.also_sweep:
            await sweep()
        return started

    async def close(self) -> None:
        tasks = [t for _, t in self._tasks.values()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._sweeper = None
