"""Young garbage collections on a clock, for the API processes' event loop.

CPython starts a young collection when the tracked objects allocated less those freed pass a
threshold. An API process holding 10,000 event streams frees about as many objects as it
makes: each stream's waiting state (its coroutines, a future, a timer) is made anew at every
event of its game and the old one freed. The count then grew slowly while the young
generation filled with new waiting states: with 10,000 games at once (bench/live_games.py) a
young collection found 75,000-240,000 live young objects and stopped the loop for 35-180 ms
(the threshold at 20,000 or 2,000 alike), and a middle-generation one, 650,000-870,000
objects and 380-770 ms.

Collected on a clock instead, a collection walks what the last tick made and still holds:
the youngest every `YOUNG_S`, the middle one every `MIDDLE_EVERY` ticks (what survived the
youngest once). The count's own trigger stays as a backstop for a burst between ticks.

The oldest generation is collected rarely (`tune_gc`: a full collection walks every stream
and game, for seconds): what survives the middle collection is freed by its reference count,
as nearly everything is, and a reference cycle among it waits for the next full collection.
Prometheus's `python_gc_objects_collected_total` shows what each generation frees.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Callable

YOUNG_S = 0.25
MIDDLE_EVERY = 4  # ticks: the middle generation once a second


class PacedCollections:
    def __init__(self, young_s: float = YOUNG_S, middle_every: int = MIDDLE_EVERY,
                 collect: Callable[[int], object] = gc.collect) -> None:
        self.young_s, self.middle_every, self.collect = young_s, middle_every, collect
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="paced-collections")

    async def _run(self) -> None:
        tick = 0
        while True:
            await asyncio.sleep(self.young_s)
            tick += 1
            self.collect(1 if tick % self.middle_every == 0 else 0)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
