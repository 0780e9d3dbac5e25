"""How a bot level fares against random bots over seeded games (its seat rotates)."""

from __future__ import annotations

from cya_rules import RuleSet

from .levels import POLICIES
from .policy import Policy, play_game, random_policy


def head_to_head(ruleset: RuleSet, games: int, level: str) -> tuple[int, int]:
    """(sole wins, shared wins) of `level` in seat `game % players` against random bots.
    Game n uses master seed n and rng seed n, so every figure can be reproduced."""
    players = ruleset.players
    sole = shared = 0
    for game in range(games):
        seat = game % players
        policies: list[Policy] = [random_policy] * players
        policies[seat] = POLICIES[level]
        _, final = play_game(ruleset, game.to_bytes(32, "big"), policies, rng_seed=game)
        sole += final.winners == (seat,)
        shared += seat in final.winners and len(final.winners) > 1
    return sole, shared
