"""Standings: a projection of the tournament's log (which carries each table's result).

A game gives each seat points by its place: the seats it finished ahead of, a tie counting
half, over the seats it could have beaten (n − 1). So a 2-player win is 1, a draw ½, a loss
0; at 4 seats 1, ⅔, ⅓, 0. The winners place first (the game's own verdict), then the others by
total. An abandoned game gives nobody anything and is no game played. A Swiss bye is worth ½.

Duplicate play also compares each entrant with the field: every entrant plays every seat of
every deal once, so at each (deal, seat) there are as many results as entrants. An entrant's
`vs_field` on a deal is the sum over seats of its total there minus the mean of all totals
there.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from cya_rules.docs import doc
from service.tournaments.entrants import identity_of
from service.tournaments.events import Table, TableResult
from service.tournaments.state import Tournament

BYE_POINTS = 0.5


class Standing(msgspec.Struct, frozen=True):
    """One entrant's place in the standings."""

    place: Annotated[int, doc("1 for the best; entrants level on every key share a place.")]
    entrant: Annotated[int, doc("The entrant's index in the tournament's `entrants`.")]
    identity: Annotated[str, doc("`player:<player id>` or `bot:<level>`.")]
    points: Annotated[float, doc("Points from every finished game (and byes).")]
    games: Annotated[int, doc("Finished games played (abandoned ones do not count).")]
    vs_field: Annotated[float | None, doc(
        "Duplicate only: the entrant's totals minus the field's mean totals on the same deal "
        "and seat, summed; null in the other formats.")]
    by_deal: Annotated[list[float] | None, doc(
        "Duplicate only: `vs_field` deal by deal (a deal not yet complete counts what is).")]


def seat_points(result: TableResult) -> list[float]:
    """Each seat's points from a finished game (module docstring)."""
    n = len(result.totals)
    if result.abandoned or n < 2:
        return [0.0] * n
    winners = set(result.winners)
    key = [(1 if s in winners else 0, result.totals[s]) for s in range(n)]
    return [(sum(1 for o in range(n) if key[o] < key[s])
             + 0.5 * sum(1 for o in range(n) if o != s and key[o] == key[s])) / (n - 1)
            for s in range(n)]


def points_by_entrant(t: Tournament) -> dict[int, float]:
    assert t.created is not None
    points = {e: 0.0 for e in range(len(t.created.entrants))}
    for table in t.tables:
        result = t.results.get(table.table)
        if result is not None:
            for e, p in zip(table.seats, seat_points(result), strict=True):
                points[e] += p
    for byes in t.byes.values():
        for e in byes:
            points[e] += BYE_POINTS
    return points


def field_comparison(t: Tournament) -> dict[int, list[float]]:
    """Duplicate: each entrant's `vs_field` per deal."""
    assert t.created is not None
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}  # (deal, seat) -> (entrant, total)
    for table in t.tables:
        result = t.results.get(table.table)
        if result is None or result.abandoned:
            continue
        for seat, e in enumerate(table.seats):
            cells.setdefault((table.deal, seat), []).append((e, result.totals[seat]))
    out = {e: [0.0] * t.created.deals for e in range(len(t.created.entrants))}
    for (deal, _), played in cells.items():
        mean = sum(total for _, total in played) / len(played)
        for e, total in played:
            out[e][deal] += total - mean
    return out


def standings(t: Tournament) -> list[Standing]:
    """Best first: duplicate by `vs_field` then points, the others by points."""
    assert t.created is not None
    points = points_by_entrant(t)
    games = {e: 0 for e in points}
    for table in _finished(t):
        for e in table.seats:
            games[e] += 1
    duplicate = t.created.format == "duplicate"
    field = field_comparison(t) if duplicate else {}
    vs = {e: round(sum(field[e]), 6) for e in field}

    def key(e: int) -> tuple[float, float]:
        return (vs[e], points[e]) if duplicate else (points[e], 0.0)

    order = sorted(points, key=lambda e: (-key(e)[0], -key(e)[1], e))
    rows: list[Standing] = []
    for i, e in enumerate(order):
        place = rows[-1].place if rows and key(order[i - 1]) == key(e) else i + 1
        rows.append(Standing(place, e, identity_of(t.created.entrants[e]),
                             round(points[e], 6), games[e], vs.get(e),
                             [round(v, 6) for v in field[e]] if duplicate else None))
    return rows


def _finished(t: Tournament) -> list[Table]:
    return [table for table in t.tables
            if table.table in t.results and not t.results[table.table].abandoned]
