"""`cya ladder`: run the bot ladder and print (or write into docs) its table."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from service.ladder.plan import ORDER, RULESETS, Lineup
from service.ladder.run import markdown, run
from service.ladder.run import write_docs as write_into


@click.command("ladder")
@click.option("--quick", is_flag=True,
              help="A cut-down ladder: fewer deals, and checks only the 2-player ismcts against"
                   " greedy target.")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Processes to play on; default: one per core.")
@click.option("--lineup", "lineups", multiple=True, metavar="'RULESET,HERO,FIELD,DEALS'",
              help="Play only this line-up (repeatable), e.g. '4p classic,ismcts,greedy,100':"
                   " the targets of line-ups not played count as missed.")
@click.option("--write-docs", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Also write the table into this file's ladder section"
                                 " (docs/bots.md).")
def ladder(quick: bool, workers: int | None, lineups: tuple[str, ...],
           write_docs: Path | None) -> None:
    """Bot levels against each other on seeded, duplicate-seated deals: win rates with 95%
    intervals, OpenSkill ratings, and the targets; exits 1 when a target is missed."""
    console = Console(stderr=True)
    report = run(quick, workers, console, tuple(_lineup(text) for text in lineups) or None)
    click.echo(markdown(report))
    if write_docs is not None:
        write_into(report, write_docs)
    if not report.met:
        raise SystemExit(1)


def _lineup(text: str) -> Lineup:
    try:
        ruleset, hero, field, deals = (part.strip() for part in text.split(","))
        lineup = Lineup(ruleset, hero, field, int(deals))
    except ValueError:
        raise click.BadParameter(f"{text!r}: 'RULESET,HERO,FIELD,DEALS'") from None
    if ruleset not in RULESETS or {hero, field} - set(ORDER) or lineup.deals < 1:
        raise click.BadParameter(f"{text!r}: rule sets {', '.join(RULESETS)}; levels"
                                 f" {', '.join(ORDER)}; at least one deal")
    return lineup
