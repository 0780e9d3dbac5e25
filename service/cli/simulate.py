"""Bot games played through the real pipeline: for `cya simulate`, tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Callable

from cya_rules import RuleSet, legal_commands, player_view
from cya_rules.bots import random_policy
from cya_rules.table.seats import BotSeat
from service.pipeline import Outcome, Pipeline
from service.table.lobby_commands import CreateGame, Start

CREATOR = "simulator"


async def play_bot_game(
    pipeline: Pipeline,
    ruleset: RuleSet,
    rng: random.Random,
    *,
    on_command: Callable[[Outcome], None] | None = None,
    max_commands: int = 100_000,
) -> str:
    """Create a game of random bots, start it, play it to the end; returns its id."""
    seats = tuple(BotSeat("random") for _ in range(ruleset.players))
    created = await pipeline.create_game(CreateGame(ruleset, seats=seats), CREATOR)
    game_id = created.game_id
    await pipeline.lobby(game_id, Start(), CREATOR)
    for n in range(max_commands):
        game = await pipeline.load(game_id)
        if game.status == "finished":
            return game_id
        assert game.state is not None
        seat = game.state.pending_seats()[0]
        command = random_policy(player_view(game.state, seat), legal_commands(game.state, seat),
                                rng)
        outcome = await pipeline.play(game_id, seat, command, command_id=f"bot:{n}",
                                      actor=f"bot:{seat}")
        if on_command is not None:
            on_command(outcome)
    raise RuntimeError(f"game {game_id} did not finish within {max_commands} commands")
