"""Bots as pure policies: each sees only its seat's view and its legal commands, never the state."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .commands import SeatCommand, StartGame
from .decide import execute
from .events import Event
from .legal import legal_commands
from .ruleset import RuleSet
from .state import GameState, new_game
from .views import GameView, player_view

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
