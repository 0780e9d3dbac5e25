"""Running the ladder: games over a process pool with a progress bar, then the report."""

from __future__ import annotations

import multiprocessing
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .plan import FULL, QUICK, RULESETS, Game, Lineup, games_of
from .play import LADDER_ITERATIONS, QUICK_ITERATIONS, Result, play
from .stats import Rate, Rating, Target, hero_rates, ratings, targets

DOC_START, DOC_END = "<!-- ladder:start -->", "<!-- ladder:end -->"


class Report(NamedTuple):
    lineups: tuple[Lineup, ...]
    rates: list[Rate]
    ratings: dict[str, Rating]
    targets: list[Target]
    seconds: float
    workers: int
    quick: bool
    iterations: int  # ismcts's, a decision

    @property
    def met(self) -> bool:
        return all(t.met for t in self.targets)


_LINEUPS: tuple[Lineup, ...] = ()
_ITERATIONS = LADDER_ITERATIONS


def _init(lineups: tuple[Lineup, ...], iterations: int) -> None:
    global _LINEUPS, _ITERATIONS
    _LINEUPS, _ITERATIONS = lineups, iterations


def _play(game: Game) -> Result:
    return play(_LINEUPS[game.lineup], game, _ITERATIONS)


def run(quick: bool, workers: int | None = None, console: Console | None = None,
        lineups: tuple[Lineup, ...] | None = None) -> Report:
    """The ladder (`quick`: the cut-down one), or just `lineups` when given."""
    lineups = lineups or (QUICK if quick else FULL)
    iterations = QUICK_ITERATIONS if quick else LADDER_ITERATIONS
    games = games_of(lineups)
    workers = workers or os.cpu_count() or 1
    started = time.perf_counter()
    results: list[Result] = []
    with Progress(TextColumn("[bold]ladder"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.description}"),
                  console=console) as progress:
        task = progress.add_task("", total=len(games))
        # The slow games (ismcts) first, so the pool does not end on one long tail.
        order = sorted(games, key=lambda g: "ismcts" not in lineups[g.lineup])
        if workers == 1:
            _init(lineups, iterations)
            for game in order:
                results.append(_play(game))
                progress.update(task, advance=1, description=_label(lineups, game))
        else:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(workers, initializer=_init, initargs=(lineups, iterations)) as pool:
                for result in pool.imap_unordered(_play, order):
                    results.append(result)
                    progress.update(task, advance=1,
                                    description=_label(lineups, result.game))
    rates = hero_rates(lineups, results)
    return Report(lineups, rates, ratings(results), targets(lineups, rates, quick),
                  time.perf_counter() - started, workers, quick, iterations)


def _label(lineups: Sequence[Lineup], game: Game) -> str:
    lineup = lineups[game.lineup]
    return f"{lineup.ruleset}: {lineup.hero} vs {lineup.field}"


def markdown(report: Report) -> str:
    lines = ["| rule set | line-up | games | hero's sole wins | 95% interval | fair share |",
             "|---|---|---:|---:|---|---:|"]
    for lineup, rate in zip(report.lineups, report.rates, strict=True):
        low, high = rate.interval()
        players = RULESETS[lineup.ruleset].players
        field = f"{lineup.field}" if players == 2 else f"{players - 1} × {lineup.field}"
        lines.append(f"| {lineup.ruleset} | {lineup.hero} vs {field} | {rate.games} | "
                     f"{rate.share:.1%} | {low:.1%} – {high:.1%} | {1 / players:.0%} |")
    lines += ["", "| level | OpenSkill μ | σ | ordinal (μ − 3σ) |", "|---|---:|---:|---:|"]
    for level, r in sorted(report.ratings.items(), key=lambda kv: kv[1].mu):
        lines.append(f"| {level} | {r.mu:.2f} | {r.sigma:.2f} | {r.ordinal:.2f} |")
    lines += ["", "| target | measured | met |", "|---|---|---|"]
    lines += [f"| {t.name} | {t.measured} | {'yes' if t.met else '**no**'} |"
              for t in report.targets]
    minutes = report.seconds / 60
    lines += ["", f"{sum(r.games for r in report.rates)} games in {minutes:.1f} min on "
              f"{report.workers} processes; ismcts at {report.iterations} iterations a "
              "decision; one round a game (end mode `quick`)."]
    return "\n".join(lines)


def write_docs(report: Report, path: Path) -> None:
    """Replace the ladder's section of `path` (between its two markers) with this report."""
    text = path.read_text()
    block = f"{DOC_START}\n{markdown(report)}\n{DOC_END}"
    pattern = re.compile(re.escape(DOC_START) + ".*?" + re.escape(DOC_END), re.S)
    if not pattern.search(text):
        raise ValueError(f"{path} has no {DOC_START} … {DOC_END} section")
    path.write_text(pattern.sub(lambda _: block, text))
