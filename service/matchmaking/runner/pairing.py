"""When pairing runs: at most one pass per kind at a time in this process, coalesced, and a
tick for the ranges that widen as seekers wait.

Every seek asks for a pass and waits for one that began after it asked: a thousand seeks in a
burst make a few passes, not a thousand transactions queued on the kind's lock (each holding a
pooled connection while it waited). Across processes the pairing transaction's lock keeps
passes apart (`rows.lock_waiting`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from service.matchmaking.seeks import Kind

log = logging.getLogger(__name__)


@dataclass
class _Passes:
    kind: Kind
    waiting: list[asyncio.Future[None]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


class CoalescedPairing:
    def __init__(self, run_pass: Callable[[Kind], Awaitable[int]]) -> None:
        self._run_pass = run_pass
        self._kinds: dict[Kind, _Passes] = {}

    async def pair(self, kind: Kind) -> None:
        """Returns once a pass over `kind` that began after this call has ended (its error,
        if it failed)."""
        passes = self._kinds.setdefault(kind, _Passes(kind))
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        passes.waiting.append(done)
        if passes.task is None or passes.task.done():
            passes.task = asyncio.get_running_loop().create_task(self._drain(passes))
        await asyncio.shield(done)

    async def _drain(self, passes: _Passes) -> None:
        while passes.waiting:
            batch, passes.waiting = passes.waiting, []
            try:
                await self._run_pass(passes.kind)
            except Exception as exc:  # each waiter hears it; the next pass may succeed
                for f in batch:
                    if not f.done():
                        f.set_exception(exc)
                continue
            for f in batch:
                if not f.done():
                    f.set_result(None)


class PairingTicker:
    """Runs `tick` every `interval` seconds: ranges widen as seekers wait, so a pair that no
    new seek brings about comes about with time. Every API process runs one."""

    def __init__(self, tick: Callable[[], Awaitable[int]], interval: float) -> None:
        self.tick, self.interval = tick, interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.tick()
            except Exception:  # the database away: the next tick tries again
                log.warning("pairing tick failed", exc_info=True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
