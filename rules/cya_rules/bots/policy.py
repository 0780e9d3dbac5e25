"""What a bot is: a policy from one seat's view and its legal commands to a command; and a game
played between policies in memory."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from cya_rules import (
    GameState,
    RuleSet,
    StartGame,
    execute,
    legal_commands,
    new_game,
    player_view,
)
from cya_rules.commands import SeatCommand
from cya_rules.events import Event
from cya_rules.views import GameView

Policy = Callable[[GameView, Sequence[SeatCommand], random.Random], SeatCommand]


def random_policy(view: GameView, legal: Sequence[SeatCommand], rng: random.Random) -> SeatCommand:
    """Uniform over the legal commands."""
    return legal[rng.randrange(len(legal))]


def play_game(
    ruleset: RuleSet,
    master_seed: bytes,
    policies: Sequence[Policy],
    rng_seed: int = 0,
    max_commands: int = 100_000,
) -> tuple[list[Event], GameState]:
    """Play a whole game between policies (one per seat); returns its log and final state."""
    rng = random.Random(rng_seed)
    events, state = execute(new_game(ruleset), StartGame(master_seed), None)
    for _ in range(max_commands):
        if state.status == "finished":
            return events, state
        seat = state.pending_seats()[0]
        legal = legal_commands(state, seat)
        command = policies[seat](player_view(state, seat), legal, rng)
        new, state = execute(state, command, seat)
        events.extend(new)
    raise RuntimeError(f"game did not finish within {max_commands} commands")
