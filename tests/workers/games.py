"""Setting up games and reading their logs, for the worker tests and the benchmark."""

from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass

import sqlalchemy as sa

from cya_rules import EndMode, preset
from cya_rules.table.seats import BotSeat, HumanSeat, SeatHolder, TimeoutPolicy
from service.events.tables import commands, events
from service.table.lobby_commands import CreateGame, Start
from service.wiring.bootstrap import Services

CREATOR = "host"


async def start_game(
    api: Services,
    seats: tuple[SeatHolder, ...],
    *,
    end_mode: str = "quick",
    rules: str = "classic",
    turn_clock: int | None = None,
    policy: TimeoutPolicy | None = None,
    first_player: int | None = None,
) -> str:
    extra = {} if first_player is None else {"first_player": first_player}
    ruleset = preset(rules, len(seats), end_mode=EndMode(end_mode), **extra)
    created = await api.pipeline.create_game(
        CreateGame(ruleset, seats=seats, turn_clock=turn_clock,
                   timeout_policy=policy or TimeoutPolicy()), CREATOR
    )
    await api.pipeline.lobby(created.game_id, Start(), CREATOR)
    return created.game_id


def bots(n: int, level: str = "random") -> tuple[SeatHolder, ...]:
    return tuple(BotSeat(level) for _ in range(n))  # type: ignore[arg-type]


def humans(*names: str) -> tuple[SeatHolder, ...]:
    return tuple(HumanSeat(n) for n in names)


async def wait_until_finished(api: Services, game_id: str, timeout_s: float) -> int:
    """Polls the log until the game is over; returns its final version."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        game = await api.pipeline.load(game_id, fresh=True)
        if game.status == "finished":
            return game.version
        await asyncio.sleep(0.1)
    game = await api.pipeline.load(game_id, fresh=True)
    raise AssertionError(f"game {game_id} not finished after {timeout_s} s (at v{game.version})")


@dataclass(frozen=True)
class CommandRow:
    command_id: str
    first_version: int
    last_version: int
    actor: str | None


async def command_log(api: Services, game_id: str) -> list[CommandRow]:
    """Every recorded command of the game, in log order, with the actor of its first event."""
    async with api.store.read() as conn:
        rows = (await conn.execute(
            sa.select(commands.c.command_id, commands.c.first_version, commands.c.last_version,
                      events.c.actor)
            .join(events, sa.and_(events.c.game_id == commands.c.game_id,
                                  events.c.version == commands.c.first_version))
            .where(commands.c.game_id == game_id).order_by(commands.c.first_version)
        )).all()
    return [CommandRow(*r) for r in rows]


async def event_types(api: Services, game_id: str) -> list[str]:
    return [s.type for s in await api.store.read_events(game_id)]


def assert_each_due_decision_taken_once(log: list[CommandRow]) -> None:
    """A due command is named for the version it was scheduled at; it must be the very next
    command after that version, and no version may be decided twice."""
    due = [c for c in log if c.command_id.startswith("due:")]
    assert due, "no bot or timeout decision was recorded"
    for c in due:
        _, version, _kind = c.command_id.split(":")
        assert c.first_version == int(version) + 1, c
    starts = [c.first_version for c in log]
    assert len(starts) == len(set(starts))
    ids = [c.command_id for c in log]
    assert len(ids) == len(set(ids))


async def assert_no_clock_expired_early(api: Services, game_id: str, turn_clock: int) -> int:
    """Each timeout is recorded no sooner than `turn_clock` seconds after the event before it,
    the deadline the player was shown; returns how many timeouts there were."""
    log = await api.store.read_events(game_id)
    timeouts = 0
    for before, event in itertools.pairwise(log):
        if event.type == "decision_timed_out":
            timeouts += 1
            waited = (event.recorded_at - before.recorded_at).total_seconds()
            assert waited >= turn_clock, f"v{event.version} timed out after {waited:.3f} s"
    return timeouts

