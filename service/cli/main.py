"""`cya`: database migrations, projection rebuilds, audits, bot simulations, the bot ladder and
the receipt keys."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import click

from service.cli.ladder import ladder
from service.cli.receipt_keys import receipt_keys
from service.wiring.bootstrap import Services, build
from service.wiring.settings import ConfigError, Settings, get_settings

T = TypeVar("T")


def _run(settings: Settings, work: Callable[[Services], Awaitable[T]]) -> T:
    async def main() -> T:
        from service.events.migrate import schema_behind_of

        # One-shot operator commands take no due work: `simulate` plays its own bot seats.
        services = build(dataclasses.replace(settings, scheduler="none"))
        try:
            behind = await schema_behind_of(services.store.engine)
            if behind is not None:  # the tables this code needs are not there yet
                raise click.ClickException(behind)
            return await work(services)
        finally:
            await services.close()

    return asyncio.run(main())


@click.group()
@click.option("--database-url", envvar="CYA_DATABASE_URL", default=None,
              help="Overrides CYA_DATABASE_URL.")
@click.pass_context
def main(ctx: click.Context, database_url: str | None) -> None:
    """Cover Your Assets as a service: operator commands."""
    try:
        settings = get_settings()
    except ConfigError as e:
        raise click.ClickException(str(e)) from None
    if database_url:
        settings = Settings(**{**settings.__dict__, "database_url": database_url})
    ctx.obj = settings


@main.group()
def db() -> None:
    """The database schema."""


@db.command("upgrade")
@click.argument("revision", default="head")
@click.pass_obj
def db_upgrade(settings: Settings, revision: str) -> None:
    """Run the migrations up to REVISION (default: head). Migrations only go up: a REVISION
    older than the database's leaves it as it is."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from service.events.migrate import revision_of, upgrade

    try:
        upgrade(settings.database_url, revision)
        now = asyncio.run(revision_of(settings.database_url))
    except CommandError as e:  # an unknown revision
        raise click.ClickException(str(e)) from None
    except (SQLAlchemyError, OSError) as e:  # the database is out of reach
        raise click.ClickException(f"cannot reach the database: {e}") from None
    click.echo(f"database at {now}" if now == revision or revision == "head"
               else f"database at {now} (asked for {revision}: migrations only go up)")


@main.command()
@click.option("--name", default=None,
              help="The worker's name in RQ (default: host, pid and a random suffix).")
@click.option("--burst", is_flag=True, help="Quit once the queue is empty.")
@click.option("--log-level", default="WARNING", show_default=True,
              type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"]))
@click.pass_obj
def worker(settings: Settings, name: str | None, burst: bool, log_level: str) -> None:
    """Run an RQ worker for bot moves and turn clocks (with RQ's scheduler and the sweeper)."""
    from workers.main import run  # the worker is a separate deployable; load it only here

    run(settings, name=name, burst=burst, logging_level=log_level)


@main.group()
def projections() -> None:
    """Read models."""


@projections.command("rebuild")
@click.pass_obj
def projections_rebuild(settings: Settings) -> None:
    """Recompute every read model from the event log."""
    from service.projections.rebuild import rebuild
    from service.tournaments.runner import log as tournament_log

    stats = _run(settings, lambda s: rebuild(s.store))
    rate = stats.events / stats.seconds if stats.seconds else 0.0
    click.echo(f"rebuilt {stats.games} games from {stats.events} events "
               f"in {stats.seconds:.2f} s ({rate:,.0f} events/s); ratings from "
               f"{stats.rated_games} rated games")
    tournaments = _run(settings, lambda s: tournament_log.rebuild(s.store))
    click.echo(f"rebuilt {tournaments} tournaments (rows and standings) from their logs")


@main.group()
def audit() -> None:
    """Verification of the log."""


@audit.command("verify")
@click.argument("game_id")
@click.pass_obj
def audit_verify(settings: Settings, game_id: str) -> None:
    """Walk GAME_ID's hash chain and re-derive every shuffle from its revealed seed."""
    from service.audit.verify import verify

    report = _run(settings, lambda s: verify(s.store, game_id))
    mark = "OK" if report.ok else "FAILED"
    click.echo(f"game {report.game_id}: {mark}")
    click.echo(f"  events in the hash chain: {report.events}")
    click.echo(f"  rounds whose seed matched its commitment and deal: {report.rounds_verified}")
    click.echo(f"  draws matched against the dealt draw pile: {report.draws_verified}")
    seeds = report.seeds
    if seeds is not None and seeds.seed_sha256 is not None:
        held = "held" if seeds.commitment_verified else "not dealt yet"
        click.echo(f"  master seed committed at creation: {seeds.seed_sha256} ({held})")
    for c in (seeds.client_seeds or []) if seeds is not None else []:
        click.echo(f"  seat {c.seat}'s client seed: {c.seed or '(empty)'} ({c.source})")
    if not report.ok:
        if report.first_bad_version is not None:
            click.echo(f"  first bad version: {report.first_bad_version}")
        click.echo(f"  reason: {report.reason}")
        sys.exit(1)


@main.command()
@click.option("--games", "-n", default=10, show_default=True, help="How many games.")
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 6))
@click.option("--preset", "preset_name", default="classic", show_default=True,
              type=click.Choice(["classic", "advanced_all"]))
@click.option("--end-mode", default="quick", show_default=True,
              type=click.Choice(["to_million", "quick", "highest_after_3_rounds",
                                 "first_to_2_round_wins"]))
@click.option("--concurrency", default=4, show_default=True, type=click.IntRange(1, 256))
@click.option("--seed", default=0, show_default=True, help="Seed of the bots' choices.")
@click.pass_obj
def simulate(settings: Settings, games: int, players: int, preset_name: str, end_mode: str,
             concurrency: int, seed: int) -> None:
    """Play N games of random bots into the store, through the command pipeline."""
    from rich.progress import Progress

    from cya_rules import EndMode, preset
    from service.cli.simulate import play_bot_game

    ruleset = preset(preset_name, players, end_mode=EndMode(end_mode))

    async def work(services: Services) -> list[str]:
        done: list[str] = []
        with Progress() as progress:
            task = progress.add_task("games", total=games)
            queue = list(range(games))

            async def worker() -> None:
                while queue:
                    i = queue.pop()
                    gid = await play_bot_game(services.pipeline, ruleset,
                                              random.Random(seed * 1_000_003 + i))
                    done.append(gid)
                    progress.advance(task)

            await asyncio.gather(*(worker() for _ in range(min(concurrency, games))))
        return done

    ids = _run(settings, work)
    click.echo(f"played {len(ids)} games; e.g. cya audit verify {ids[0]}" if ids else "no games")


main.add_command(ladder)
main.add_command(receipt_keys)
