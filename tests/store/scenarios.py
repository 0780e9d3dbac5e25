"""Games in known positions, built through the pipeline, for the store tests."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from cya_rules import EndMode, legal_commands, player_view, preset
from cya_rules.bots import random_policy
from cya_rules.table.seats import BotSeat, HumanSeat
from service.pipeline import Outcome, Pipeline
from service.table.clock import deadline
from service.table.game import Game
from service.table.lobby_commands import CreateGame, Start

QUICK4 = preset("classic", 4, end_mode=EndMode.QUICK)


def clock_runs_out(game: Game) -> datetime:
    """The `now` of a job that takes the pending decision's expiry on time (a job later than
    the outage grace would restart the clock instead)."""
    at = deadline(game)
    assert at is not None, "the pending decision has no clock"
    return at + timedelta(milliseconds=100)


async def started_game(pipeline: Pipeline, ruleset=QUICK4, *, clock: int | None = None,
                       humans: int = 0) -> str:
    """Seats 0..humans-1 are players "p0", "p1", …; the rest are bots."""
    seats = tuple(HumanSeat(f"p{i}") if i < humans else BotSeat("random")
                  for i in range(ruleset.players))
    created = await pipeline.create_game(CreateGame(ruleset, seats=seats, turn_clock=clock),
                                         "p0")
    await pipeline.lobby(created.game_id, Start(), "p0")
    return created.game_id


async def play(pipeline: Pipeline, game_id: str, commands: int, seed: int = 0) -> Outcome | None:
    """Up to `commands` random legal commands (fewer if the game ends)."""
    rng = random.Random(seed)
    outcome = None
    for _ in range(commands):
        game = await pipeline.load(game_id)
        if game.status == "finished":
            break
        seat = game.state.pending_seats()[0]
        command = random_policy(player_view(game.state, seat), legal_commands(game.state, seat),
                                rng)
        outcome = await pipeline.play(game_id, seat, command)
    return outcome


async def next_move(pipeline: Pipeline, game_id: str, seed: int = 0):
    """(seat, a legal command) for the seat the game waits for."""
    game = await pipeline.load(game_id, fresh=True)
    seat = game.state.pending_seats()[0]
    legal = legal_commands(game.state, seat)
    return game.version, seat, legal[random.Random(seed).randrange(len(legal))]
