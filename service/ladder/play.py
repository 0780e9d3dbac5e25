"""Playing one ladder game: seeds from the deal and the rotation, so every figure reproduces.

Each level plays as the service runs it: its policy is the one of `cya_rules.bots.LEVELS`, the
same settings object the service plays (ismcts: its default iterations a decision and its time
cap). The count of searches the cap stopped short goes with each result: none, on a machine
fast enough for the level (bench/bots_strength.py), and the games then reproduce anywhere.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import NamedTuple

from cya_rules.bots import LEVELS, Ismcts, Policy, play_game
from cya_rules.commands import SeatCommand
from cya_rules.views import GameView

from .plan import RULESETS, Game, Lineup, seats_of


class Result(NamedTuple):
    game: Game
    seats: tuple[str, ...]  # the level in each seat
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    searches: int = 0  # ismcts decisions with a choice
    capped: int = 0  # of those, searches its time cap stopped before its iterations


class _Counted:
    """A searching level's policy, counting its searches and those its time cap stopped."""

    def __init__(self, search: Ismcts) -> None:
        self.search = search
        self.searches = self.capped = 0

    def __call__(self, view: GameView, legal: Sequence[SeatCommand],
                 rng: random.Random) -> SeatCommand:
        result = self.search.search(view, legal, rng)
        if len(legal) > 1:
            self.searches += 1
            self.capped += result.capped
        return result.command


def policy_of(level: str) -> Policy:
    """The level as the service plays it (`levels.choose` without a turn clock)."""
    return LEVELS[level].policy


def deal_seed(lineup: Lineup, deal: int) -> bytes:
    """The deal's master seed: the same deal for every rotation, every line-up of a rule set."""
    return hashlib.sha256(f"ladder:{lineup.ruleset}:{deal}".encode()).digest()


def play(lineup: Lineup, game: Game) -> Result:
    seats = seats_of(lineup, game.hero_seat)
    counted = {level: _Counted(policy) for level in set(seats)
               if isinstance(policy := policy_of(level), Ismcts)}
    policies = [counted.get(level) or policy_of(level) for level in seats]
    rng_seed = int.from_bytes(deal_seed(lineup, game.deal)[:8], "big") + game.hero_seat
    _, final = play_game(RULESETS[lineup.ruleset], deal_seed(lineup, game.deal), policies,
                         rng_seed=rng_seed)
    return Result(game, seats, final.winners, final.totals,
                  sum(c.searches for c in counted.values()),
                  sum(c.capped for c in counted.values()))
