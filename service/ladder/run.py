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

from cya_rules.bots import LEVELS, Ismcts

from .plan import FULL, QUICK, RULESETS, Game, Lineup, games_of
from .play import Result, play
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
    searches: int  # ismcts decisions with a choice, over every game
    capped: int  # of those, searches its time cap stopped before its iterations

    @property
    def met(self) -> bool:
        return all(t.met for t in self.targets)


_LINEUPS: tuple[Lineup, ...] = ()


def _init(lineups: tuple[Lineup, ...]) -> None:
    global _LINEUPS
    _LINEUPS = lineups


def _play(game: Game) -> Result:
    return play(_LINEUPS[game.lineup], game)


def run(quick: bool, workers: int | None = None, console: Console | None = None,
        lineups: tuple[Lineup, ...] | None = None) -> Report:
    """The ladder (`quick`: the cut-down one), or just `lineups` when given."""
    lineups = lineups or (QUICK if quick else FULL)
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
            _init(lineups)
            for game in order:
                results.append(_play(game))
                progress.update(task, advance=1, description=_label(lineups, game))
        else:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(workers, initializer=_init, initargs=(lineups,)) as pool:
                for result in pool.imap_unordered(_play, order):
                    results.append(result)
                    progress.update(task, advance=1,
                                    description=_label(lineups, result.game))
    rates = hero_rates(lineups, results)
    return Report(lineups, rates, ratings(results), targets(lineups, rates, quick),
                  time.perf_counter() - started, workers, quick,
                  sum(r.searches for r in results), sum(r.capped for r in results))


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
    search = LEVELS["ismcts"].policy
    assert isinstance(search, Ismcts)
    lines += ["", f"{sum(r.games for r in report.rates)} games in {minutes:.1f} min on "
              f"{report.workers} processes; one round a game (end mode `quick`); ismcts as the "
              f"service runs it, {search.iterations} iterations a decision with a "
              f"{(search.cpu_cap_s or 0) * 1000:.0f} ms CPU cap, which stopped {report.capped} of"
              f" its {report.searches} searches short."]
    return "\n".join(lines)


def write_docs(report: Report, path: Path) -> None:
    """Replace the ladder's section of `path` (between its two markers) with this report."""
    text = path.read_text()
    block = f"{DOC_START}\n{markdown(report)}\n{DOC_END}"
    pattern = re.compile(re.escape(DOC_START) + ".*?" + re.escape(DOC_END), re.S)
    if not pattern.search(text):
        raise ValueError(f"{path} has no {DOC_START} … {DOC_END} section")
    path.write_text(pattern.sub(lambda _: block, text))
