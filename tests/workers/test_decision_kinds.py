"""Every kind of pending decision can expire and be taken for the seat: a turn's action, a
challenge reply, a draft-challenge window (RULES §14.3), a Move's direction (§14.6)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from service.bootstrap import Services, build
from service.config import Settings
from service.domain import legal_commands, player_view
from service.domain.bots import random_policy
from service.due.decisions import take_due_decision
from service.events.migrate import upgrade
from service.lobby import TimeoutPolicy
from service.projections.rows import DEADLINE
from service.timeouts import DecisionTimedOut

from .games import humans, start_game

KINDS = {"action", "challenge", "draft_window", "move_directions"}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'kinds.sqlite3'}"
    upgrade(url)
    return url


@pytest.fixture
async def services(sqlite_url: str) -> AsyncIterator[Services]:
    s = build(Settings(database_url=sqlite_url, due_work="none"))
    try:
        yield s
    finally:
        await s.close()


async def test_given_each_kind_of_pending_decision_when_its_clock_expires_then_a_bot_takes_it(
    services: Services,
) -> None:
    pipeline, rng, expired = services.pipeline, random.Random(5), set[str]()
    for _ in range(30):
        game_id = await start_game(services, humans("a", "b", "c"), rules="advanced_all",
                                   turn_clock=60, policy=TimeoutPolicy("random", None))
        while (game := await pipeline.load(game_id)).status == "playing" and expired != KINDS:
            assert game.state is not None
            seat, kind = game.state.pending_seats()[0], game.state.pending.__struct_config__.tag
            if kind not in expired:
                # When the clock runs out on this decision:
                assert await take_due_decision(pipeline, game_id, game.version, DEADLINE,
                                               seat) == "acted"
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
