"""`cya-bot simulate mybot.py --against greedy,expert --games 1000 --players 4`.

Its options, and the run with a progress bar and the results table `cya-bot play` prints.
The rules engine is imported only here, when a simulation runs: without it, the command says
what to install and exits 2.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cya_client.bot.loading import players
from cya_client.bot.results import results_table
from cya_client.bot.runner import GameResult

if TYPE_CHECKING:
    from cya_client.simulate.games import Settings

MISSING_RULES = (
    "cya-bot simulate needs the rules engine, the cya-rules distribution, which is not on PyPI:"
    " install it from a checkout of the repository, with this SDK,\n"
    "    pip install ./rules ./clients/python")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = sub.add_parser("simulate", help="play your bot against the built-in bots in memory, "
                         "no server (needs cya-rules)")
    sim.add_argument("bot", type=Path, help="a Python file defining choose(view, legal)")
    sim.add_argument("--function", default="choose", help="the function's name (choose)")
    sim.add_argument("--against", default="greedy", help="built-in levels for the other seats, "
                     "comma-separated, taken in turn (random, greedy, expert, ismcts; default "
                     "greedy): greedy,expert with 4 players seats greedy, expert, greedy")
    sim.add_argument("--players", type=players, default=4, metavar="N",
                     help="seats a game, 2..6 (default 4)")
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sim.add_argument("--duplicate", action="store_true",
                     help="duplicate seating: each deal once per rotation of the seats "
                     "(--games rounds up to whole deals)")
    sim.add_argument("--seed", type=int, default=0,
                     help="the run's seed (default 0): the same seed, the same games")
    sim.add_argument("--parallel", type=int, default=1, metavar="N",
                     help="processes (default 1); the results do not depend on it")
    sim.add_argument("--end-mode", default="quick", help="when games end (quick)")
    sim.add_argument("--edition", default="en_2022", help="the edition (en_2022)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")


def main(args: argparse.Namespace, console: Console) -> int:
    if importlib.util.find_spec("cya_rules") is None:
        console.print(MISSING_RULES, markup=False, highlight=False)
        return 2
    from cya_client.simulate.convert import IllegalCommand
    from cya_client.simulate.games import Settings
    from cya_client.simulate.run import simulate_file
    from cya_rules import RuleSet

    if not args.bot.is_file():
        console.print(f"cya-bot simulate: no file {args.bot}", markup=False)
        return 2
    against = tuple(level.strip() for level in args.against.split(",") if level.strip())
    try:
        ruleset = msgspec.convert({"players": args.players, "edition": args.edition,
                                   "end_mode": args.end_mode}, RuleSet).for_new_game()
        settings = Settings(ruleset, against, max(args.games, 0), args.duplicate, args.seed)
    except (msgspec.ValidationError, ValueError) as refused:
        console.print(f"cya-bot simulate: {refused}", markup=False)
        return 2
    progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[wins]} won"), TimeElapsedColumn(),
                        console=console, disable=args.quiet)
    task = progress.add_task("", total=settings.total, wins=0)
    wins = 0

    def on_result(result: GameResult) -> None:
        nonlocal wins
        wins += result.won
        progress.update(task, advance=1, wins=wins)

    started = time.perf_counter()
    try:
        with progress:
            results = simulate_file(args.bot, args.function, settings, args.parallel, on_result)
    except IllegalCommand as error:
        console.print(f"cya-bot simulate: {error}", markup=False)
        return 1
    seconds = time.perf_counter() - started
    console.print(results_table(results, title="Results (simulated)",
                                caption=_caption(settings, len(results), seconds)))
    return 0


def _caption(settings: Settings, games: int, seconds: float) -> str:
    rotations = " on duplicate deals" if settings.duplicate else ""
    rate = games / seconds if seconds else 0.0
    return (f"your bot against {', '.join(settings.field)}{rotations}; seats rotate; a fair "
            f"share of wins is {1 / settings.ruleset.players:.0%}. Seed {settings.seed}; "
            f"{games} games in {seconds:.1f} s ({rate:.0f} a second).")
