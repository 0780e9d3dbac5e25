"""Young garbage collections on the event loop's clock (`service.wiring.paced_gc`)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from service.wiring.paced_gc import PacedCollections


async def test_given_started_then_it_collects_the_youngest_each_tick_and_the_middle_in_turn():
    asked: list[int] = []
    collections = PacedCollections(young_s=0.01, middle_every=3, collect=asked.append)
    collections.start()
    try:
        for _ in range(200):
            if len(asked) >= 6:
                break
            await asyncio.sleep(0.01)
    finally:
        await collections.close()
    assert asked[:6] == [0, 0, 1, 0, 0, 1]


async def test_given_closed_then_it_collects_no_more():
    asked: list[int] = []
    collections = PacedCollections(young_s=0.01, collect=asked.append)
    collections.start()
    await asyncio.sleep(0.05)
    await collections.close()
    after_close = len(asked)
    await asyncio.sleep(0.05)
    assert after_close > 0 and len(asked) == after_close


# In a process of its own: the suite's other threads (the web tests' servers) collect too.
_CYCLES_FREED = """
import asyncio, gc, weakref
from service.wiring.paced_gc import PacedCollections

class Node:
    def __init__(self):
        self.me = self  # a reference cycle: only a collection frees it

async def main():
    gc.set_threshold(10**9, 10**9, 10**9)  # CPython's count never triggers here
    young, middle = Node(), Node()
    gc.collect(0)  # `middle` outlives a young collection: the middle generation holds it
    gone = weakref.ref(young), weakref.ref(middle)
    young = middle = None
    await asyncio.sleep(0.05)
    assert all(ref() is not None for ref in gone), "nothing collected them yet"
    collections = PacedCollections(young_s=0.01, middle_every=3)
    collections.start()
    for _ in range(100):
        if all(ref() is None for ref in gone):
            break
        await asyncio.sleep(0.01)
    await collections.close()
    assert all(ref() is None for ref in gone), "the clock freed them"

asyncio.run(main())
"""


def test_given_the_count_never_reached_then_the_clock_frees_young_and_middle_cycles():
    # An API process with 10,000 streams frees about as many objects as it makes, so the
    # count's trigger came seldom and each young collection walked 100,000+ objects.
    done = subprocess.run([sys.executable, "-c", _CYCLES_FREED], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
