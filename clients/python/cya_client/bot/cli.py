"""`cya-bot play mybot.py ...`: run a bot written as one function against the service.

    cya-bot play mybot.py --server URL --key KEY --new 4p --bots greedy,random,random --games 20
    cya-bot play mybot.py --server URL --key KEY --join GAME
    cya-bot play mybot.py --server URL --key KEY --accept
    cya-bot play mybot.py --server URL --key KEY --seek 4p --rated --games 10
    cya-bot play mybot.py --server URL --key KEY --challenge PLAYER (or open)
    cya-bot play mybot.py --server URL --key KEY --accept-challenges
    cya-bot simulate mybot.py --against greedy,expert --games 1000 --players 4

Ctrl-C once: no new game, the games in play are played to their end; twice: those games are
resigned (a bot of the game's timeout level takes the seat) and the runner stops.
"""

from __future__ import annotations

import argparse
import logging
import signal
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console
from rich.logging import RichHandler
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cya_client.bot.loading import load_choose, players
from cya_client.bot.results import results_table
from cya_client.bot.runner import Choose, GameRecord, GameResult, Plan, Runner
from cya_client.client import DEFAULT_URL, Client
from cya_client.errors import ProblemError, RuleViolation
from cya_client.receipts import ReceiptBox
from cya_client.simulate import cli as simulate_cli

console = Console(stderr=True)
DEFAULT_RECEIPTS = "cya-receipts"  # in the working directory


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="cya-bot", description=__doc__.split("\n", 1)[0])
    sub = top.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play games with a bot written as one function")
    play.add_argument("bot", type=Path, help="a Python file defining choose(view, legal)")
    play.add_argument("--function", default="choose", help="the function's name (choose)")
    play.add_argument("--server", default=DEFAULT_URL, help=f"the service ({DEFAULT_URL})")
    play.add_argument("--key", help="your API key; without one a player is created and its "
                      "key printed")
    play.add_argument("--name", help="the new player's name (with no --key)")
    mode = play.add_mutually_exclusive_group(required=True)
    mode.add_argument("--new", type=players, metavar="NP",
                      help="create games of N seats (2p..6p), you and --bots, and play them")
    mode.add_argument("--join", metavar="GAME", help="take a seat in GAME (if not yours yet) "
                      "and play it")
    mode.add_argument("--accept", action="store_true",
                      help="play every game you are seated in and take open seats of public "
                      "games in the lobby, as they come")
    mode.add_argument("--seek", type=players, metavar="NP",
                      help="quick play: be paired with other seekers for games of N seats "
                      "(2p..6p), oldest first within a rating range that widens")
    mode.add_argument("--challenge", metavar="PLAYER",
                      help="challenge PLAYER (an id), or `open` for anyone: two players, and "
                      "--bots in the other seats")
    mode.add_argument("--accept-challenges", action="store_true",
                      help="accept every challenge to you, and open ones, as they come")
    play.add_argument("--rated", action="store_true",
                      help="--new, --seek, --challenge: rated games")
    play.add_argument("--bot-account", action="store_true",
                      help="with no --key: create the player as a bot account")
    play.add_argument("--bots", default="", help="built-in bots for --new, comma-separated "
                      "levels (random, greedy, expert, ismcts: GET /v1/rulesets describes "
                      "each); seats left over wait for players")
    play.add_argument("--games", type=int, help="how many games (--new, --seek, --challenge: "
                      "default 1; --accept, --accept-challenges: stop after that many)")
    play.add_argument("--parallel", type=int, default=1, help="games at once (default 1)")
    play.add_argument("--end-mode", default="quick", help="--new: when games end (quick)")
    play.add_argument("--edition", help="--new: the edition (the server's default)")
    play.add_argument("--private", action="store_true", help="--new: private games")
    play.add_argument("--receipts", default=DEFAULT_RECEIPTS, metavar="DIR",
                      help="keep the server's signed receipts of your games here, a file per "
                      f"game (default {DEFAULT_RECEIPTS}; docs/receipts.md)")
    play.add_argument("--no-receipts", action="store_true", help="keep no receipts")
    play.add_argument("--quiet", action="store_true",
                      help="no progress bar: a line per game started and finished")
    simulate_cli.add_parser(sub)
    return top


def plan_of(args: argparse.Namespace) -> Plan:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.new and len(bots) > args.new - 1:
        raise SystemExit(f"--bots: {len(bots)} bots do not fit {args.new} seats with you")
    if args.challenge and len(bots) > 4:
        raise SystemExit("--bots: a challenge seats two players and at most 4 bots")
    asks = bool(args.new or args.seek or args.challenge)
    return Plan(new=bool(args.new), players=args.new or args.seek or 4, bots=bots,
                end_mode=args.end_mode, edition=args.edition, public=not args.private,
                join=args.join, accept=args.accept, parallel=max(args.parallel, 1),
                games=args.games if args.games is not None else (1 if asks else None),
                seek=bool(args.seek), rated=args.rated, challenge=args.challenge,
                accept_challenges=args.accept_challenges)


class Interrupts:
    """First Ctrl-C: finish the games in play; second: resign them."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        started = [g for g in self.runner.games.values() if g.started]
        if self.runner.stopping or not started:
            raise KeyboardInterrupt
        self.runner.stop()
        console.print(f"[yellow]Ctrl-C: finishing the {len(started)} game(s) in play, then "
                      "stopping. Ctrl-C again resigns them.[/]")


def resign_all(client: Client, runner: Runner) -> None:
    """Give up every game of the runner: leave those still in the lobby, resign the others.

    A game the runner has not heard start may have been dealt a moment ago (its news not read
    yet): the server refuses to let its seat go by leaving (`already_started`), so it is
    resigned instead. Otherwise the seat would hold the game until it is abandoned."""
    for record in list(runner.games.values()):
        try:
            if not record.started and _left(client, record):
                console.print(f"left game {record.game_id} before its start")
                continue
            client.games.resign(record.game_id)
            console.print(f"resigned game {record.game_id}: a bot plays seat "
                          f"{record.seat} to the end")
        except ProblemError as error:
            console.print(f"[red]game {record.game_id}: {error}[/]")


def _left(client: Client, record: GameRecord) -> bool:
    """Leave the game; False if it has started meanwhile (it must be resigned)."""
    try:
        client.games.leave(record.game_id)
    except RuleViolation as refused:
        if refused.rule != "already_started":
            raise
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, handlers=[RichHandler(console=console)],
                        format="%(message)s")
    if args.command == "simulate":
        return simulate_cli.main(args, console)
    choose = load_choose(args.bot, args.function)
    plan = plan_of(args)
    receipts = None if args.no_receipts else ReceiptBox(args.receipts)
    with Client(args.server, args.key, receipts=receipts) as client:
        if not args.key:
            created = client.players.create(args.name or args.bot.stem, bot=args.bot_account)
            client.api_key = created.api_key
            print(f"Created player {created.name} ({created.player_id}); its API key, shown "
                  f"once: {created.api_key}", flush=True)
        return _play(client, choose, plan, quiet=args.quiet)


def _play(client: Client, choose: Choose, plan: Plan, *, quiet: bool) -> int:
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[wins]} won"), TimeElapsedColumn(),
                        console=console, disable=quiet)
    task = progress.add_task("playing", total=plan.games, wins=0)

    def on_result(result: GameResult) -> None:
        wins = sum(r.won for r in runner.results)
        progress.update(task, advance=1, wins=wins)
        if quiet:
            print(f"game {result.game_id} finished: {'won' if result.won else 'lost'}, "
                  f"${result.score:,}", flush=True)

    def on_start(record: GameRecord) -> None:
        if quiet:
            print(f"game {record.game_id} started: seat {record.seat}", flush=True)

    def on_decision(record: GameRecord) -> None:
        progress.update(task, description=f"game {record.game_id[:8]}: "
                        f"{record.decisions} decisions")

    runner = Runner(client, choose, plan, on_result=on_result, on_decision=on_decision,
                    on_start=on_start)
    previous: Any = signal.signal(signal.SIGINT, Interrupts(runner))
    interrupted = False
    try:
        with progress:
            runner.run()
    except KeyboardInterrupt:
        interrupted = True
        resign_all(client, runner)
    finally:
        signal.signal(signal.SIGINT, previous)
    errors = runner.errors + sum(g.errors for g in runner.games.values())
    console.print(results_table(runner.results, errors))
    if interrupted:
        return 130
    failed = runner.errors + sum(r.errors for r in runner.results)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
