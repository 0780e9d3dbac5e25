"""Positions from real games for the bot tests: a game played by random bots, stopped at a
seeded point, with the seat whose decision it waits for."""

from __future__ import annotations

import random

from cya_rules import (
    GameState,
    RuleSet,
    StartGame,
    execute,
    legal_commands,
    new_game,
    player_view,
)
from cya_rules.bots import random_policy


def position(ruleset: RuleSet, seed: int, steps: int) -> tuple[GameState, int]:
    """The state after up to `steps` commands of random play from deal `seed`, and the seat
    whose decision it waits for (the last playing position if the game ends sooner)."""
    rng = random.Random(seed)
    _, state = execute(new_game(ruleset), StartGame(seed.to_bytes(32, "big")), None)
    for _ in range(steps):
        seat = state.pending_seats()[0]
        command = random_policy(player_view(state, seat), legal_commands(state, seat), rng)
        _, after = execute(state, command, seat)
        if after.status == "finished":
            break
        state = after
    return state, state.pending_seats()[0]
