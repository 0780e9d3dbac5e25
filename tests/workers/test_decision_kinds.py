"""Every kind of pending decision can expire and be taken for the seat: a turn's action, a
challenge reply, a draft-challenge window (RULES §14.3), a Move's direction (§14.6)."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from cya_rules import legal_commands, player_view
from cya_rules.bots import random_policy
from cya_rules.table.seats import TimeoutPolicy
from cya_rules.table.timeouts import ClockRestarted, DecisionTimedOut, SeatHandedToBot
from service.events.migrate import upgrade
from service.events.tables import due_work
from service.scheduling.decision_job import take_due_decision
from service.table.clock import DEADLINE, deadline
from service.table.game import Game
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings
from tests.store.scenarios import clock_runs_out

from .games import bots, humans, start_game

KINDS = {"action", "challenge", "draft_window", "move_directions"}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'kinds.sqlite3'}"
    upgrade(url)
    return url


@pytest.fixture
async def services(sqlite_url: str) -> AsyncIterator[Services]:
    s = build(Settings(database_url=sqlite_url, scheduler="none"))
    try:
        yield s
    finally:
        await s.close()


async def test_given_each_kind_of_pending_decision_when_its_clock_expires_then_a_bot_takes_it(
    services: Services,
) -> None:
    pipeline, rng, expired = services.pipeline, random.Random(5), set[str]()
    # Seeded deals: whether a Move card comes up, and when, is the deal's; a fresh secret
    # seed a game made the test fail about once in many runs.
    deals = itertools.count()
    pipeline.master_seeds = lambda: hashlib.sha256(b"kinds %d" % next(deals)).digest()
    for _ in range(30):
        game_id = await start_game(services, humans("a", "b", "c"), rules="advanced_all",
                                   turn_clock=60, policy=TimeoutPolicy("random", None))
        while (game := await pipeline.load(game_id)).status == "playing" and expired != KINDS:
            assert game.state is not None
            seat, kind = game.state.pending_seats()[0], game.state.pending.__struct_config__.tag
            if kind not in expired:
                # When the clock runs out on this decision:
                assert await take_due_decision(pipeline, game_id, game.version, DEADLINE,
                                               seat, now=clock_runs_out(game)) == "acted"
                expired.add(str(kind))
                continue
            command = random_policy(player_view(game.state, seat),
                                    legal_commands(game.state, seat), rng)
            await pipeline.play(game_id, seat, command)
        if expired == KINDS:
            break

    assert expired == KINDS
    timed_out = [s.event for s in await services.store.read_events(game_id)
                 if isinstance(s.event, DecisionTimedOut)]
    assert timed_out and all(e.reason and e.bot_level == "random" for e in timed_out)


async def _expire(services: Services, game_id: str) -> None:
    game = await services.pipeline.load(game_id)
    assert game.state is not None
    seat = game.state.pending_seats()[0]
    assert await take_due_decision(services.pipeline, game_id, game.version, DEADLINE,
                                   seat, now=clock_runs_out(game)) == "acted"


async def _act_as_human(services: Services, game_id: str, rng: random.Random) -> None:
    game = await services.pipeline.load(game_id)
    assert game.state is not None and game.lobby is not None
    seat = game.state.pending_seats()[0]
    command = random_policy(player_view(game.state, seat), legal_commands(game.state, seat), rng)
    player = game.lobby.seats[seat]
    await services.pipeline.play(game_id, seat, command,
                                 actor=f"player:{player.player_id}")  # type: ignore[union-attr]


async def test_given_hand_over_after_2_when_the_player_acts_between_timeouts_then_it_counts_anew(
    services: Services,
) -> None:
    game_id = await start_game(services, humans("solo") + bots(1), turn_clock=60,
                               policy=TimeoutPolicy("greedy", hand_over_after=2),
                               first_player=0)
    rng = random.Random(3)

    await _expire(services, game_id)  # 1st in a row
    while not await _pending_is(services, game_id, 0):
        await _act_as_bot(services, game_id, rng)
    await _act_as_human(services, game_id, rng)  # the player is back: the count restarts
    while not await _pending_is(services, game_id, 0):
        await _act_as_bot(services, game_id, rng)
    await _expire(services, game_id)  # 1st in a row again
    while not await _pending_is(services, game_id, 0):
        await _act_as_bot(services, game_id, rng)
    await _expire(services, game_id)  # 2nd in a row: the seat goes to the bot

    events = [s.event for s in await services.store.read_events(game_id)]
    counts = [e.consecutive for e in events if isinstance(e, DecisionTimedOut)]
    handed = [e for e in events if isinstance(e, SeatHandedToBot)]
    assert counts == [1, 1, 2]
    assert len(handed) == 1 and handed[0].seat == 0 and handed[0].level == "greedy"
    assert "2 consecutive timeouts" in handed[0].reason
    game = await services.pipeline.load(game_id)
    assert game.is_bot(0)


async def _pending_is(services: Services, game_id: str, seat: int) -> bool:
    game = await services.pipeline.load(game_id)
    assert game.state is not None and game.status == "playing"
    return game.state.pending_seats()[0] == seat


async def _act_as_bot(services: Services, game_id: str, rng: random.Random) -> None:
    game = await services.pipeline.load(game_id)
    assert game.state is not None
    seat = game.state.pending_seats()[0]
    command = random_policy(player_view(game.state, seat), legal_commands(game.state, seat), rng)
    await services.pipeline.play(game_id, seat, command, actor="bot:random")


async def test_given_a_deadline_job_started_early_then_it_waits_for_the_deadline_or_leaves_it(
    services: Services,
) -> None:
    # However the job came to start early (RQ's whole-second scheduler, another machine's
    # clock), the player keeps every second the view promised.
    soon = await start_game(services, humans("ann") + bots(1), turn_clock=1, first_player=0)
    later = await start_game(services, humans("bob") + bots(1), turn_clock=60, first_player=0)
    games = {g: await services.pipeline.load(g) for g in (soon, later)}

    results = {g: await take_due_decision(services.pipeline, g, game.version, DEADLINE, 0)
               for g, game in games.items()}

    assert results == {soon: "acted", later: "early"}
    timed_out = next(s for s in await services.store.read_events(soon)
                     if isinstance(s.event, DecisionTimedOut))
    shown = deadline(games[soon])
    assert shown is not None and timed_out.recorded_at >= shown
    assert (await services.pipeline.load(later, fresh=True)).version == games[later].version


async def _ann_on_a_30s_clock(services: Services) -> Game:
    game_id = await start_game(services, humans("ann") + bots(1), turn_clock=30,
                               first_player=0)
    return await services.pipeline.load(game_id)


async def _expiry_taken_late(services: Services, game: Game, late_s: float) -> str:
    """The job for `game`'s clock, run `late_s` seconds past its deadline (grace: 2 s)."""
    at = deadline(game)
    assert at is not None
    return await take_due_decision(services.pipeline, game.game_id, game.version, DEADLINE, 0,
                                   now=at + timedelta(seconds=late_s), outage_grace_s=2.0)


async def test_given_an_expiry_taken_past_the_outage_grace_then_the_clock_restarts_once(
    services: Services,
) -> None:
    # The service could not act when the clock ran out (its database or every worker down):
    # the player, whose commands it may have refused meanwhile, gets the clock again in full;
    # the next expiry of the same decision is final.
    p = services.pipeline
    game = await _ann_on_a_30s_clock(services)
    game_id = game.game_id

    assert await _expiry_taken_late(services, game, 17) == "restarted"

    restarted = await p.load(game_id, fresh=True)
    event = (await services.store.read_events(game_id))[-1]
    assert isinstance(event.event, ClockRestarted)
    assert (event.event.seat, event.event.player_id, event.event.late_s) == (0, "ann", 17.0)
    assert "30-second turn clock ran out 17.0 s before" in event.event.reason
    assert restarted.version == game.version + 1 and restarted.clock_restarted
    assert deadline(restarted) == event.recorded_at + timedelta(seconds=30)
    assert restarted.pending_seat() == game.pending_seat()
    async with services.store.read() as conn:  # the next expiry is due at the new deadline
        due = (await conn.execute(sa.select(due_work.c.version, due_work.c.due_at).where(
            due_work.c.game_id == game_id))).one()
    assert (due.version, due.due_at) == (restarted.version, deadline(restarted))
    assert await p.at_version(game_id, restarted.version) == restarted  # the log folds the same

    assert await _expiry_taken_late(services, restarted, 17) == "acted"
    after = await p.load(game_id, fresh=True)
    assert not after.clock_restarted
    assert [type(s.event) for s in await services.store.read_events(game_id)
            ].count(DecisionTimedOut) == 1


async def test_given_an_expiry_taken_within_the_outage_grace_then_the_clock_is_not_restarted(
    services: Services,
) -> None:
    game = await _ann_on_a_30s_clock(services)

    assert await _expiry_taken_late(services, game, 1.9) == "acted"
    events = [type(s.event) for s in await services.store.read_events(game.game_id)]
    assert DecisionTimedOut in events and ClockRestarted not in events
