"""The one registry of bot levels: what scheduling, the lobby and the ladder choose from."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from cya_rules.commands import SeatCommand
from cya_rules.views import GameView

from .expert import expert_policy
from .greedy import greedy_policy
from .ismcts import CPU_CAP_S, DEFAULT_ITERATIONS, Ismcts
from .policy import Policy, random_policy


class Level(NamedTuple):
    policy: Policy
    description: str
    searches: bool  # takes a time budget (`choose`'s budget_s)


# The one settings object of each level: the service plays it, the ladder measures it.


LEVELS: dict[str, Level] = {
    "random": Level(random_policy, "Plays a legal command chosen uniformly at random.", False),
    "greedy": Level(greedy_policy, "A one-move heuristic: scores every legal command by the"
                    " stack value it gains and takes the best.", False),
    "expert": Level(expert_policy, "A hand-written player: counts cards, weighs every set won"
                    " or lost both ways, challenges and bids by win chance and value at stake,"
                    " covers and protects its stack, aims Swaps and Moves.", False),
    "ismcts": Level(Ismcts(), "Information-set Monte Carlo tree search: samples the cards it"
                    f" cannot see, searches with the rules engine and expert rollouts,"
                    f" {DEFAULT_ITERATIONS} iterations a decision (at most"
                    f" {int(CPU_CAP_S * 1000)} ms of CPU time). The strongest level.", True),
}
POLICIES: dict[str, Policy] = {name: level.policy for name, level in LEVELS.items()}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)


def choose(level: str, view: GameView, legal: Sequence[SeatCommand], rng: random.Random,
           budget_s: float | None = None) -> SeatCommand:
    """`level`'s command; a searching level thinks for at most `budget_s` seconds (its own time
    cap when None or longer)."""
    policy = LEVELS[level].policy
    if budget_s is not None and isinstance(policy, Ismcts):
        policy = policy.within(budget_s)
    return policy(view, legal, rng)
