"""A duplicate tournament of built-in bots runs to its end on two RQ workers (real processes,
real PostgreSQL and Redis): every deal's tables were dealt the same cards, its verify passes,
and its standings are what a recount from the games' own logs gives."""

from __future__ import annotations

import asyncio
import time

import msgspec
import sqlalchemy as sa

from cya_rules import EndMode, RuleSet
from cya_rules.events import RoundStarted
from service.events.tables import tournaments
from service.tournaments.entrants import BotEntrant
from service.tournaments.runner.log import load, rebuild
from service.tournaments.runner.runner import result_of
from service.tournaments.runner.verify import verify
from service.tournaments.standings import Standing, standings
from service.wiring.bootstrap import Services

from .conftest import Workers

_standings = msgspec.json.Decoder(list[Standing])


async def _wait_finished(api: Services, tournament_id: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        async with api.store.read() as conn:
            status = await conn.scalar(sa.select(tournaments.c.status).where(
                tournaments.c.tournament_id == tournament_id))
        if status == "finished":
            return
        await asyncio.sleep(0.5)
    raise AssertionError(f"tournament {tournament_id} did not finish in {timeout_s} s")


async def test_given_16_bots_in_a_duplicate_tournament_when_two_workers_run_it_then_it_ends_fair(
    api: Services, workers: Workers
) -> None:
    workers.start()
    workers.start()
    entrants = tuple(BotEntrant("greedy" if i % 2 else "random") for i in range(16))
    created = await api.tournaments.runner.create(
        "cup", "organiser", "duplicate", RuleSet(4, end_mode=EndMode.QUICK), entrants, deals=2)

    await _wait_finished(api, created.tournament_id, timeout_s=300)

    t, _ = await load(api.store, created.tournament_id)
    assert len(t.tables) == 2 * 16 and len(t.results) == 32
    # Every table of a deal was dealt the same cards: the first round's deal, in full.
    for deal in range(2):
        dealt = set()
        for table in (x for x in t.tables if x.deal == deal):
            first = next(s.event for s in await api.store.read_events(t.games[table.table])
                     if isinstance(s.event, RoundStarted))
            dealt.add(msgspec.json.encode(first))
        assert len(dealt) == 1, f"deal {deal} was dealt {len(dealt)} ways"
    report = await verify(api.store, t.tournament_id)
    assert report.ok, report.reason
    assert (report.seeds_verified, report.games_verified, report.deals_identical) == (2, 32, 2)
    # The standings are a recount from the games themselves.
    recounted = msgspec.structs.replace(t, results={
        table: result_of(await api.pipeline.load(game_id, fresh=True))
        for table, game_id in t.games.items()})
    async with api.store.read() as conn:
        stored = await conn.scalar(sa.select(tournaments.c.standings).where(
            tournaments.c.tournament_id == t.tournament_id))
    assert _standings.decode(stored) == standings(recounted)
    assert {r.games for r in standings(recounted)} == {8}  # 2 deals x 4 seats each
    # The read model is a projection: rebuilt from the log, it is the same, byte for byte.
    before = await _summary(api, t.tournament_id)
    assert await rebuild(api.store) == 1
    assert await _summary(api, t.tournament_id) == before


async def _summary(api: Services, tournament_id: str) -> tuple[str, str]:
    async with api.store.read() as conn:
        row = (await conn.execute(sa.select(tournaments.c.summary, tournaments.c.standings)
                                  .where(tournaments.c.tournament_id == tournament_id))).one()
    return row.summary, row.standings
