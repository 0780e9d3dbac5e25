"""Pairs the waiting seekers every `interval` seconds: their ranges widen as they wait, so a
pair that no new seek brings about comes about with time. Every API process runs one; the
pairing transaction keeps them from matching a seeker twice."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from service.matchmaking.runner.matchmaker import Matchmaker

log = logging.getLogger(__name__)


class PairingTicker:
    def __init__(self, matchmaker: Matchmaker, interval: float) -> None:
        self.matchmaker, self.interval = matchmaker, interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.matchmaker.tick()
            except Exception:  # the database away: the next tick tries again
                log.warning("pairing tick failed", exc_info=True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
