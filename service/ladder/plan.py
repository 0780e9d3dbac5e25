"""What the ladder plays: its rule sets, its line-ups and how many deals of each.

Duplicate seating: each deal (master seed) is played once per rotation of the seats, the
measured level (the hero) in each seat in turn, so the luck of the deal falls on every level
alike. A line-up is one hero against a field of one other level.
"""

from __future__ import annotations

from typing import NamedTuple

from cya_rules import EndMode, RuleSet, preset

# One round a game (end mode `quick`): a game's result is the round's, and a whole ladder
# fits in well under an hour on two cores.
RULESETS: dict[str, RuleSet] = {
    "2p advanced_all": preset("advanced_all", 2, end_mode=EndMode.QUICK),
    "3p classic": preset("classic", 3, end_mode=EndMode.QUICK),
    "4p classic": preset("classic", 4, end_mode=EndMode.QUICK),
    "5p advanced_all": preset("advanced_all", 5, end_mode=EndMode.QUICK),
}
ORDER = ("random", "greedy", "expert", "ismcts")  # weakest first, as the targets expect


class Lineup(NamedTuple):
    ruleset: str
    hero: str
    field: str
    deals: int


class Game(NamedTuple):
    """One game to play: line-up `lineup` (its index), deal `deal`, hero in seat `hero_seat`."""

    lineup: int
    deal: int
    hero_seat: int


FULL: tuple[Lineup, ...] = (
    Lineup("2p advanced_all", "ismcts", "greedy", 200),
    Lineup("2p advanced_all", "ismcts", "expert", 150),
    Lineup("2p advanced_all", "ismcts", "random", 15),
    Lineup("2p advanced_all", "expert", "greedy", 300),
    Lineup("2p advanced_all", "expert", "random", 50),
    Lineup("2p advanced_all", "greedy", "random", 100),
    Lineup("3p classic", "ismcts", "greedy", 15),
    Lineup("3p classic", "expert", "greedy", 100),
    Lineup("3p classic", "greedy", "random", 50),
    Lineup("4p classic", "ismcts", "greedy", 40),
    Lineup("4p classic", "expert", "greedy", 150),
    Lineup("4p classic", "greedy", "random", 50),
    Lineup("5p advanced_all", "ismcts", "greedy", 8),
    Lineup("5p advanced_all", "expert", "greedy", 60),
    Lineup("5p advanced_all", "greedy", "random", 30),
)
# --quick: the 2-player ismcts-against-greedy target with enough games for its interval to
# clear 50%, and the cheap line-ups that order the others.
QUICK: tuple[Lineup, ...] = (
    Lineup("2p advanced_all", "ismcts", "greedy", 40),
    Lineup("2p advanced_all", "expert", "greedy", 100),
    Lineup("2p advanced_all", "greedy", "random", 50),
)


def games_of(lineups: tuple[Lineup, ...]) -> list[Game]:
    """Every game of the ladder, in a fixed order (ratings are counted in this order)."""
    out = []
    for index, lineup in enumerate(lineups):
        players = RULESETS[lineup.ruleset].players
        out += [Game(index, deal, seat) for deal in range(lineup.deals) for seat in range(players)]
    return out


def seats_of(lineup: Lineup, hero_seat: int) -> tuple[str, ...]:
    players = RULESETS[lineup.ruleset].players
    return tuple(lineup.hero if s == hero_seat else lineup.field for s in range(players))
