"""The built-in bots: policies that see one seat's view and its legal commands, never the state.

Pure like the domain it plays (the standard library and msgspec only): `random`, `greedy`,
`expert` and `ismcts` (information-set Monte Carlo tree search), one registry of levels
(`levels.LEVELS`), and games between policies in memory (`policy.play_game`).
"""

from .expert import expert_policy
from .greedy import greedy_policy
from .ismcts import Ismcts
from .levels import LEVEL_NAMES, LEVELS, POLICIES, choose
from .policy import Policy, play_game, random_policy

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "POLICIES",
    "Ismcts",
    "Policy",
    "choose",
    "expert_policy",
    "greedy_policy",
    "play_game",
    "random_policy",
]
