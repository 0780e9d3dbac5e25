"""Lobbies that never start expire, and games without a clock whose humans stopped playing end
abandoned: by an event with its reason in the game's log, seen in its status, its history and
its verify, and left out of the ratings. Short limits stand in for the defaults (24 h, 7 days).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from cya_rules import RuleViolation, legal_commands
from cya_rules.ruleset import preset
from cya_rules.table.endings import GameAbandoned, LobbyExpired
from cya_rules.table.seats import HumanSeat
from service.audit.verify import verify
from service.events.migrate import upgrade
from service.events.tables import games, rating_changes
from service.projections import ratings
from service.scheduling.in_process import InProcessScheduler
from service.table.lobby_commands import CreateGame, Start, TakeSeat
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings

from .conftest import RedisDb, Workers
from .games import CREATOR, humans, start_game


@pytest.fixture
def settings(database_url: str, redis_db: RedisDb) -> Settings:
    """For the test on RQ workers (tests/workers/conftest.py's, with short limits)."""
    return Settings(database_url=database_url, redis_url=redis_db.url, scheduler="rq",
                    sweep_interval_s=0.5, sweep_grace_s=1.0, lobby_ttl_s=1.0,
                    abandon_after_s=1.0)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    upgrade(url)
    return url


@pytest.fixture
async def embedded(sqlite_url: str) -> AsyncIterator[Services]:
    url = sqlite_url
    services = build(Settings(database_url=url, scheduler="in_process", sweep_interval_s=0,
                              lobby_ttl_s=1.0, abandon_after_s=1.0))
    try:
        yield services
    finally:
        await services.close()


async def _sweep(api: Services) -> None:
    scheduler = api.pipeline.scheduler
    assert isinstance(scheduler, InProcessScheduler)
    await scheduler.sweep()


async def _row(api: Services, game_id: str) -> sa.Row[tuple[str, str | None]]:
    async with api.store.read() as conn:
        row = (await conn.execute(sa.select(games.c.status, games.c.end_reason)
                                  .where(games.c.game_id == game_id))).one()
    return row


async def test_given_a_lobby_nobody_starts_when_its_time_is_up_then_it_expires(
        embedded: Services) -> None:
    api = embedded
    created = await api.pipeline.create_game(
        CreateGame(preset("classic", 2), (HumanSeat("ann"),)), "ann")
    await _sweep(api)
    assert (await _row(api, created.game_id)).status == "lobby"  # not yet

    await asyncio.sleep(1.1)
    await _sweep(api)

    row = await _row(api, created.game_id)
    assert row.status == "expired" and row.end_reason is not None
    assert "not started within 1 seconds" in row.end_reason
    log = await api.store.read_events(created.game_id)
    assert isinstance(log[-1].event, LobbyExpired)
    with pytest.raises(RuleViolation) as refused:
        await api.pipeline.lobby(created.game_id, TakeSeat(), "bob")
    assert refused.value.code == "game_over"
    report = await verify(api.store, created.game_id)
    assert report.ok and report.ended is not None and report.ended.startswith("expired: ")


async def test_given_a_rated_game_without_a_clock_whose_human_stops_then_it_is_abandoned(
        embedded: Services) -> None:
    api = embedded
    ruleset = preset("classic", 2)
    created = await api.pipeline.create_game(
        CreateGame(ruleset, humans("ann", "bob"), rated=True), CREATOR)
    await api.pipeline.lobby(created.game_id, Start(), CREATOR)
    clocked = await start_game(api, humans("cy", "dee"), turn_clock=3600)

    await asyncio.sleep(1.1)
    await _sweep(api)

    row = await _row(api, created.game_id)
    assert row.status == "abandoned"
    assert row.end_reason is not None and row.end_reason.startswith("no human acted for 1 ")
    assert (await _row(api, clocked)).status == "playing"  # its clock keeps it moving
    ended = (await api.store.read_events(created.game_id))[-1].event
    assert isinstance(ended, GameAbandoned) and ended.player_id in ("ann", "bob")
    game = await api.pipeline.load(created.game_id, fresh=True)
    assert game.state is not None
    with pytest.raises(RuleViolation) as refused:
        await api.pipeline.play(created.game_id, ended.seat,
                                legal_commands(game.state, ended.seat)[0])
    assert refused.value.code == "game_over"
    report = await verify(api.store, created.game_id)
    assert report.ok and report.ended is not None and report.ended.startswith("abandoned: ")
    # Ratings count finished games only: an abandoned one changes nobody's rating.
    await ratings.catch_up(api.store)
    async with api.store.read() as conn:
        counted = await conn.scalar(sa.select(sa.func.count()).select_from(rating_changes)
                                    .where(rating_changes.c.game_id == created.game_id))
    assert counted == 0


async def test_given_a_human_who_just_acted_then_the_game_is_not_abandoned(
        embedded: Services) -> None:
    api = embedded
    game_id = await start_game(api, humans("ann", "bob"))
    await asyncio.sleep(1.1)
    game = await api.pipeline.load(game_id, fresh=True)
    pending = game.pending_seat()
    assert pending is not None and game.state is not None
    await api.pipeline.play(game_id, pending[0], legal_commands(game.state, pending[0])[0])

    await _sweep(api)

    assert (await _row(api, game_id)).status == "playing"


async def test_given_rq_workers_then_their_sweeper_expires_a_lobby_through_a_job(
        api: Services, workers: Workers) -> None:
    created = await api.pipeline.create_game(
        CreateGame(preset("classic", 2), (HumanSeat("ann"),)), "ann")
    workers.start()
    for _ in range(100):
        if (await _row(api, created.game_id)).status == "expired":
            break
        await asyncio.sleep(0.2)
    assert (await _row(api, created.game_id)).status == "expired"
