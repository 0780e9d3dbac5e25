"""Playing one ladder game: seeds from the deal and the rotation, so every figure reproduces."""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from cya_rules.bots import LEVELS, Ismcts, Policy, play_game

from .plan import RULESETS, Game, Lineup, seats_of

# The ladder's ismcts stops after a fixed number of iterations, not on the clock, so a game
# is the same on any machine: about what the default 100 ms budget allows on one core
# (bench/bots_strength.py: 356). The --quick ladder's fewer keep it within ten minutes.
LADDER_ITERATIONS = 350
QUICK_ITERATIONS = 100


class Result(NamedTuple):
    game: Game
    seats: tuple[str, ...]  # the level in each seat
    winners: tuple[int, ...]
    totals: tuple[int, ...]


def policy_of(level: str, iterations: int = LADDER_ITERATIONS) -> Policy:
    if level == "ismcts":
        return Ismcts(budget_s=None, iterations=iterations)
    return LEVELS[level].policy


def deal_seed(lineup: Lineup, deal: int) -> bytes:
    """The deal's master seed: the same deal for every rotation, every line-up of a rule set."""
    return hashlib.sha256(f"ladder:{lineup.ruleset}:{deal}".encode()).digest()


def play(lineup: Lineup, game: Game, iterations: int = LADDER_ITERATIONS) -> Result:
    seats = seats_of(lineup, game.hero_seat)
    policies = [policy_of(level, iterations) for level in seats]
    rng_seed = int.from_bytes(deal_seed(lineup, game.deal)[:8], "big") + game.hero_seat
    _, final = play_game(RULESETS[lineup.ruleset], deal_seed(lineup, game.deal), policies,
                         rng_seed=rng_seed)
    return Result(game, seats, final.winners, final.totals)
