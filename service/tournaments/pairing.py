"""Who sits where: every table of a round robin and of duplicate play at creation, and each
Swiss round on the standings of the rounds before it. Pure and deterministic: the duplicate
groups come from the committed seeds (label `groups`), so they too can be checked afterwards.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from cya_rules.shuffle import shuffled
from service.tournaments.events import Table

SEARCH_BUDGET = 20_000  # Swiss: table layouts tried before settling for the fewest repeats


def duplicate_tables(entrants: int, players: int, seeds: Sequence[bytes]) -> list[Table]:
    """Each deal: the entrants in groups of `players` (a fresh grouping per deal, from the
    deal's seed), each group at `players` tables, its seats rotated one place per table, so
    every entrant plays every seat of every deal once. One round per deal."""
    tables: list[Table] = []
    for deal, seed in enumerate(seeds):
        order = shuffled(range(entrants), seed, "groups")
        for g in range(0, entrants, players):
            group = order[g:g + players]
            for r in range(players):
                seats = tuple(group[(s + r) % players] for s in range(players))
                tables.append(Table(len(tables), deal + 1, deal, seats))
    return tables


def round_robin_tables(entrants: int, players: int) -> list[Table]:
    """Every set of `players` entrants meets once (every pair, at two seats), each table
    dealt from its own seed; seat order rotates with the table number."""
    tables = []
    for i, combo in enumerate(itertools.combinations(range(entrants), players)):
        r = i % players
        tables.append(Table(i, 1, i, combo[r:] + combo[:r]))
    return tables


def round_robin_count(entrants: int, players: int) -> int:
    return math.comb(entrants, players)


def swiss_round(round_no: int, ranked: Sequence[int], players: int, met: dict[int, set[int]],
                had_bye: set[int], first_table: int, first_deal: int
                ) -> tuple[list[Table], tuple[int, ...]]:
    """A Swiss round: `ranked` is the entrants best first. Those left over (fewer than a
    table) sit out with a bye: the lowest ranked who have not had one. Then tables are filled
    from the top, each with the best ranked who have met nobody at it yet, searching for a
    layout without repeats; failing that, the greedy layout with the fewest."""
    byes = _byes(ranked, players, had_bye)
    pool = [e for e in ranked if e not in byes]
    layout = _search(pool, players, met) or _greedy(pool, players, met)
    tables = []
    for i, group in enumerate(layout):
        r = (round_no - 1) % players  # seats rotate with the rounds
        seats = tuple(group[r:] + group[:r])
        tables.append(Table(first_table + i, round_no, first_deal + i, seats))
    return tables, tuple(sorted(byes))


def _byes(ranked: Sequence[int], players: int, had_bye: set[int]) -> set[int]:
    extra = len(ranked) % players
    if not extra:
        return set()
    fresh = [e for e in reversed(ranked) if e not in had_bye]
    chosen = (fresh + [e for e in reversed(ranked) if e in had_bye])[:extra]
    return set(chosen)


def _fits(e: int, group: Sequence[int], met: dict[int, set[int]]) -> bool:
    return not (met.get(e, set()) & set(group))


def _search(pool: list[int], players: int, met: dict[int, set[int]]) -> list[list[int]] | None:
    budget = [SEARCH_BUDGET]

    def place(left: list[int], group: list[int]) -> list[list[int]] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if len(group) == players:
            if not left:
                return [group]
            rest = place(left[1:], [left[0]])
            return None if rest is None else [group, *rest]
        for i, e in enumerate(left):
            if _fits(e, group, met):
                found = place(left[:i] + left[i + 1:], [*group, e])
                if found is not None:
                    return found
        return None

    return place(pool[1:], [pool[0]]) if pool else []


def _greedy(pool: list[int], players: int, met: dict[int, set[int]]) -> list[list[int]]:
    left, layout = list(pool), []
    while left:
        group = [left.pop(0)]
        while len(group) < players:
            best = min(range(len(left)),
                       key=lambda i: (len(met.get(left[i], set()) & set(group)), i))
            group.append(left.pop(best))
        layout.append(group)
    return layout
