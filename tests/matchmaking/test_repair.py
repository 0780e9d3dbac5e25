"""A match whose game did not open (its process stopped between the commit that matched the
seekers and the game) is opened by a later tick, on both backends; the ticks between repairs
look only for waiting seekers."""

from __future__ import annotations

import threading
from datetime import timedelta
from types import SimpleNamespace

import pytest

from service.matchmaking.runner import matchmaker as matchmaker_module
from service.matchmaking.seeks import Kind, SeekStatus
from tests.store.conftest import (  # noqa: F401  (fixtures)
    database_url,
    postgres_template,
    services,
    settings,
    sqlite_template,
)


async def test_a_match_left_without_its_game_is_opened_by_a_later_tick(
        services, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    mm = services.matchmaker
    real_open = mm._open_match_game

    async def stopped(match_id, group):  # the process stops before the game exists
        raise ConnectionError("stopped")

    monkeypatch.setattr(mm, "_open_match_game", stopped)
    kind = Kind(2, "classic_2011", False)
    first = await mm.seek("ann", kind, 1000, None)
    second = await mm.seek("bob", kind, 1000, None)
    assert second.status == SeekStatus.MATCHED and second.game_id is None
    monkeypatch.setattr(mm, "_open_match_game", real_open)
    monkeypatch.setattr(matchmaker_module, "REPAIR_AFTER", timedelta(0))

    assert await mm.tick() == 1
    game_ids = {(await mm.get_seek(s.seek_id)).game_id for s in (first, second)}
    assert len(game_ids) == 1 and None not in game_ids
    assert await mm.tick() == 0  # nothing left, and too soon to look again anyway


async def test_ticks_between_repairs_do_not_look_for_stalled_games(
        services, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    mm = services.matchmaker
    looked: list[int] = []
    real = matchmaker_module.rows.unopened_matches

    test_thread = threading.current_thread()

    async def counting(conn, before):
        # Only this test's: a web test's server, left running in a thread of the suite's
        # process, ticks its own matchmaker through the same module.
        if threading.current_thread() is test_thread:
            looked.append(1)
        return await real(conn, before)

    monkeypatch.setattr(matchmaker_module.rows, "unopened_matches", counting)
    now = [1000.0]  # the matchmaker's clock, stopped: a slow machine's ticks take no time
    monkeypatch.setattr(matchmaker_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    for _ in range(5):
        await mm.tick()
    assert len(looked) == 1
    now[0] += matchmaker_module.REPAIR_EVERY_S
    await mm.tick()
    assert len(looked) == 2
