"""Young garbage collections on the event loop's clock (`service.wiring.paced_gc`)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from service.wiring.paced_gc import PacedCollections


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only a collection frees it


async def test_given_the_count_never_reached_then_the_clock_still_collects_young_cycles():
    # An API process with 10,000 streams frees about as many objects as it makes, so the
    # count's trigger came seldom and each young collection walked 100,000+ objects.
    before = gc.get_threshold()
    gc.set_threshold(10**9, 10**9, 10**9)  # the count never triggers here
    collections = PacedCollections(young_s=0.01, middle_every=2)
    try:
        node = _Node()
        gone = weakref.ref(node)
        del node
        await asyncio.sleep(0.05)
        assert gone() is not None, "nothing collects it yet"
        collections.start()
        for _ in range(100):
            if gone() is None:
                break
            await asyncio.sleep(0.01)
        assert gone() is None
    finally:
        await collections.close()
        gc.set_threshold(*before)


async def test_given_a_cycle_that_outlived_a_young_collection_then_the_middle_one_frees_it():
    before = gc.get_threshold()
    gc.set_threshold(10**9, 10**9, 10**9)
    collections = PacedCollections(young_s=0.01, middle_every=3)
    try:
        node = _Node()
        gone = weakref.ref(node)
        gc.collect(0)  # it survives a young collection: in the middle generation now
        del node
        collections.start()
        for _ in range(100):
            if gone() is None:
                break
            await asyncio.sleep(0.01)
        assert gone() is None
    finally:
        await collections.close()
        gc.set_threshold(*before)


async def test_given_closed_then_it_collects_no_more():
    collections = PacedCollections(young_s=0.01)
    collections.start()
    await asyncio.sleep(0.03)
    await collections.close()
    node = _Node()
    gone = weakref.ref(node)
    before = gc.get_threshold()
    gc.set_threshold(10**9, 10**9, 10**9)
    try:
        del node
        await asyncio.sleep(0.05)
        assert gone() is not None
    finally:
        gc.set_threshold(*before)
        gc.collect()
