"""The results table both runners print: games, wins and the win rate with its Wilson 95%
interval, so a difference between two bots can be told from luck."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.table import Table

from cya_client.bot.runner import GameResult

Z95 = 1.959964


def wilson(wins: int, games: int) -> tuple[float, float]:
    """Wilson score interval, 95%, of `wins` in `games` (the whole range when none)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + Z95**2 / (2 * games)) / (1 + Z95**2 / games)
    half = (Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games * games))
            / (1 + Z95**2 / games))
    return max(0.0, centre - half), min(1.0, centre + half)


def results_table(results: Sequence[GameResult], errors: int = 0, title: str = "Results",
                  caption: str | None = None) -> Table:
    """One row for `results`; `errors`: failures outside them. A win is a share of the
    game's win, shared or sole."""
    table = Table(title=title, caption=caption)
    for column in ("games", "wins", "win rate", "95% interval", "average score", "decisions",
                   "errors"):
        table.add_column(column, justify="right")
    games = len(results)
    wins = sum(r.won for r in results)
    low, high = wilson(wins, games)
    table.add_row(str(games), str(wins), f"{wins / games:.1%}" if games else "-",
                  f"{low:.1%} – {high:.1%}" if games else "-",
                  f"${sum(r.score for r in results) / games:,.0f}" if games else "-",
                  str(sum(r.decisions for r in results)),
                  str(errors + sum(r.errors for r in results)))
    return table
