"""The ladder's figures: win rates with Wilson 95% intervals, OpenSkill ratings, targets."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce

from .plan import ORDER, Lineup
from .play import Result

Z95 = 1.959964


class Rate(NamedTuple):
    wins: int
    games: int

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """Wilson score interval, 95%."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.share
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)


def hero_rates(lineups: Sequence[Lineup], results: Sequence[Result]) -> list[Rate]:
    """Per line-up: games the hero won alone (a shared win is not a win)."""
    wins, games = [0] * len(lineups), [0] * len(lineups)
    for r in results:
        games[r.game.lineup] += 1
        wins[r.game.lineup] += r.winners == (r.game.hero_seat,)
    return [Rate(w, n) for w, n in zip(wins, games, strict=True)]


class Rating(NamedTuple):
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def ratings(results: Sequence[Result]) -> dict[str, Rating]:
    """OpenSkill Plackett–Luce over every game in order, one team per seat ranked by the
    result (winners first, then by total). A level in several seats is rated once per seat
    from the same prior and keeps the mean, as service/projections/ratings.py does."""
    model = PlackettLuce()
    current = {level: Rating(model.mu, model.sigma) for level in ORDER}
    for r in sorted(results, key=lambda r: r.game):
        n = len(r.seats)
        ranks: list[float] = [1 if s in r.winners else 1 + len(r.winners) + sum(
            1 for o in range(n) if o not in r.winners and r.totals[o] > r.totals[s])
            for s in range(n)]
        teams = [[model.rating(mu=current[lv].mu, sigma=current[lv].sigma)] for lv in r.seats]
        after = model.rate(teams, ranks=ranks)
        by_level: dict[str, list[Rating]] = {}
        for level, team in zip(r.seats, after, strict=True):
            by_level.setdefault(level, []).append(Rating(team[0].mu, team[0].sigma))
        for level, rs in by_level.items():
            current[level] = Rating(sum(x.mu for x in rs) / len(rs),
                                    sum(x.sigma for x in rs) / len(rs))
    return current


class Target(NamedTuple):
    name: str
    measured: str
    met: bool


def targets(lineups: Sequence[Lineup], rates: Sequence[Rate], quick: bool) -> list[Target]:
    """Issue 29's targets, each from the line-up that measures it (--quick: the first only)."""
    def find(ruleset: str, hero: str, field: str) -> Rate | None:
        for lineup, rate in zip(lineups, rates, strict=True):
            if (lineup.ruleset, lineup.hero, lineup.field) == (ruleset, hero, field):
                return rate
        return None

    out = []
    two = find("2p advanced_all", "ismcts", "greedy")
    if quick:
        low = two.interval()[0] if two else 0.0
        out.append(Target("2p ismcts vs greedy: 95% interval above 50%", _show(two),
                          two is not None and low > 0.5))
        return out
    out.append(Target("2p advanced_all ismcts vs greedy ≥ 65% over ≥ 400 games", _show(two),
                      two is not None and two.games >= 400 and two.share >= 0.65))
    for ruleset, hero, goal in (("4p classic", "ismcts", 0.40), ("2p advanced_all", "expert",
                                0.55), ("4p classic", "expert", 0.35)):
        rate = find(ruleset, hero, "greedy")
        out.append(Target(f"{ruleset} {hero} vs greedy ≥ {goal:.0%} sole wins", _show(rate),
                          rate is not None and rate.share >= goal))
    for lower, higher in itertools.pairwise(ORDER):
        rate = find("2p advanced_all", higher, lower)
        low = rate.interval()[0] if rate else 0.0
        out.append(Target(f"{lower} < {higher}: 2p interval above 50%", _show(rate),
                          rate is not None and low > 0.5))
    return out


def _show(rate: Rate | None) -> str:
    if rate is None:
        return "not played"
    low, high = rate.interval()
    return f"{rate.share:.1%} [{low:.1%}, {high:.1%}] of {rate.games}"
