"""Due work on time under RQ (issue 31, faults 3 and 4): clocks expire within 100 ms of their
deadline, and paced bot moves keep their pace when a worker dies, whichever it was (RQ's
scheduler ran in one worker, under a lock that outlived it by a minute)."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings

from .conftest import Workers
from .games import bots, humans, start_game

TURN_CLOCK_S = 1
CLOCK_BOUND_S = 0.1
BOT_DELAY_MS = 300


async def command_times(api: Services, game_id: str) -> list[float]:
    """When each command of the game was recorded (its events share the time), in order."""
    times: list[float] = []
    for s in await api.store.read_events(game_id):
        t = s.recorded_at.timestamp()
        if not times or t != times[-1]:
            times.append(t)
    return times


async def until_bots_move(api: Services, timeout_s: float = 30) -> None:
    game_id = await start_game(api, bots(2))
    deadline = time.monotonic() + timeout_s
    while len(await command_times(api, game_id)) < 5:
        assert time.monotonic() < deadline, "no worker took the bots' moves"
        await asyncio.sleep(0.1)


async def test_given_a_turn_clock_under_rq_then_it_expires_within_100_ms_of_its_deadline(
    api: Services, workers: Workers,
) -> None:
    workers.start()
    await until_bots_move(api)  # the worker is up: its start is not the clock's lateness
    game_id = await start_game(api, humans("ann") + bots(1), turn_clock=TURN_CLOCK_S,
                               first_player=0)
    late: list[float] = []
    deadline = time.monotonic() + 40
    while len(late) < 3:  # a player who lets 3 clocks run out in a row is replaced
        assert time.monotonic() < deadline, f"only {len(late)} clocks expired"
        await asyncio.sleep(0.5)
        log = await api.store.read_events(game_id)
        late = [(event.recorded_at - before.recorded_at).total_seconds() - TURN_CLOCK_S
                for before, event in itertools.pairwise(log)
                if event.type == "decision_timed_out"]
    print(f"clocks expired {min(late) * 1000:.0f}–{max(late) * 1000:.0f} ms after their "
          f"deadlines ({len(late)} clocks)")
    assert min(late) >= 0, "a clock expired before its deadline"
    assert max(late) <= CLOCK_BOUND_S, late


@pytest.fixture
async def paced_api(settings: Settings) -> AsyncIterator[Services]:
    s = build(replace(settings, bot_delay_ms=BOT_DELAY_MS))
    try:
        yield s
    finally:
        await s.close()


async def test_given_paced_bots_when_a_worker_dies_then_they_keep_their_pace(
    paced_api: Services, settings: Settings, tmp_path: Path,
) -> None:
    paced = Workers(replace(settings, bot_delay_ms=BOT_DELAY_MS), tmp_path)
    try:
        first = paced.start()
        paced.start()
        game_id = await start_game(paced_api, bots(3), end_mode="to_million")
        deadline = time.monotonic() + 30
        while len(await command_times(paced_api, game_id)) < 10:  # both workers are up
            assert time.monotonic() < deadline, "the bots never moved"
            await asyncio.sleep(0.2)

        # When the first worker (the one whose RQ scheduler took the lock) dies with it
        paced.kill_hard(first, with_scheduler=True)
        killed_at = time.time()
        await asyncio.sleep(15)

        # Then the moves keep their pace throughout
        after = [t for t in await command_times(paced_api, game_id) if t > killed_at]
        gaps = [b - a for a, b in itertools.pairwise([killed_at, *after])]
        print(f"{len(after)} paced moves in 15 s after the kill; longest gap "
              f"{max(gaps):.2f} s (pace {BOT_DELAY_MS} ms)")
        assert max(gaps) < BOT_DELAY_MS / 1000 + 0.7, gaps
    finally:
        paced.stop_all()
