"""The embedded default: no Redis, no worker; the API process runs the same job body itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cya_rules.table.seats import TimeoutPolicy
from service.events.migrate import upgrade
from service.scheduling.in_process import InProcessScheduler
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings

from .games import (
    assert_each_due_decision_taken_once,
    bots,
    command_log,
    event_types,
    humans,
    start_game,
    wait_until_finished,
)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    upgrade(url)
    return url


@pytest.fixture
async def embedded(sqlite_url: str) -> AsyncIterator[Services]:
    url = sqlite_url
    services = build(Settings(database_url=url, scheduler="in_process", sweep_interval_s=0.5,
                              sweep_grace_s=1.0))
    try:
        yield services
    finally:
        await services.close()


def test_given_no_settings_then_due_work_runs_in_process_and_with_redis_through_rq(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CYA_REDIS_URL", raising=False)
    monkeypatch.delenv("CYA_SCHEDULER", raising=False)
    monkeypatch.delenv("CYA_DUE_WORK", raising=False)
    assert Settings.from_env().scheduler == "in_process"

    monkeypatch.setenv("CYA_REDIS_URL", "redis://127.0.0.1:6379/0")
    assert Settings.from_env().scheduler == "rq"


def test_given_redis_then_api_processes_catch_up_first_unless_told_not_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CYA_REDIS_URL", raising=False)
    monkeypatch.delenv("CYA_CATCH_UP_FIRST", raising=False)
    assert not Settings.from_env().catches_up_first  # one process writes: its cache is current

    monkeypatch.setenv("CYA_REDIS_URL", "redis://127.0.0.1:6379/0")
    assert Settings.from_env().catches_up_first
    monkeypatch.setenv("CYA_CATCH_UP_FIRST", "0")  # one API process, or a game-affine balancer
    assert not Settings.from_env().catches_up_first


async def test_given_the_embedded_default_when_bots_and_a_silent_human_play_then_it_finishes(
    embedded: Services,
) -> None:
    bot_game = await start_game(embedded, bots(4))
    clock_game = await start_game(embedded, humans("ann") + bots(2), turn_clock=1,
                                  policy=TimeoutPolicy("greedy", hand_over_after=1))

    for game_id in (bot_game, clock_game):
        await wait_until_finished(embedded, game_id, timeout_s=60)
        assert_each_due_decision_taken_once(await command_log(embedded, game_id))
    assert "seat_handed_to_bot" in await event_types(embedded, clock_game)


async def test_given_a_restarted_process_when_it_sweeps_then_owed_moves_resume(
    embedded: Services,
) -> None:
    scheduler = embedded.pipeline.scheduler
    assert isinstance(scheduler, InProcessScheduler)
    game_id = await start_game(embedded, bots(3))
    await scheduler.close()  # the process "restarts": every task is forgotten
    scheduler.start()  # what the app does at startup

    await wait_until_finished(embedded, game_id, timeout_s=30)


async def test_given_a_sweep_interval_of_0_then_no_sweeping_as_in_a_worker(
    embedded: Services,
) -> None:
    # Swept every 0 seconds, an idle embedded server queried the database in a busy loop.
    scheduler = InProcessScheduler(embedded.pipeline, sweep_interval_s=0)
    scheduler.start()

    assert scheduler._sweeper is None
    await scheduler.close()


async def test_given_expert_and_ismcts_seats_and_an_ismcts_timeout_bot_then_games_finish(
    embedded: Services,
) -> None:
    seats = (*bots(1, "ismcts"), *bots(1, "expert"), *bots(1, "greedy"))
    bot_game = await start_game(embedded, seats, rules="advanced_all")
    clock_game = await start_game(embedded, humans("ann") + bots(1, "ismcts"), turn_clock=1,
                                  policy=TimeoutPolicy("ismcts", hand_over_after=1))

    for game_id in (bot_game, clock_game):
        await wait_until_finished(embedded, game_id, timeout_s=120)
        assert_each_due_decision_taken_once(await command_log(embedded, game_id))
    assert "seat_handed_to_bot" in await event_types(embedded, clock_game)
