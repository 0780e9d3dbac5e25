"""RQ job functions. Each is a thin synchronous shell around `service.scheduling`: the same body the
in-process scheduler runs.

The worker runs jobs in its own process (`SimpleWorker`, see `main.py`), so one event loop and
one set of services (engine pool, state cache) live for the worker's lifetime: a job costs a
database round trip or two, not a new loop, a new connection and a cold cache.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from service.scheduling import decision_job, idle_games
from service.wiring.bootstrap import Services, build
from service.wiring.settings import Settings


@dataclass
class Runtime:
    loop: asyncio.AbstractEventLoop
    services: Services


_settings: Settings | None = None
_runtime: Runtime | None = None


def configure(settings: Settings) -> None:
    """The worker's settings; before the first job. Commands it posts schedule through RQ."""
    global _settings
    _settings = replace(settings, scheduler="rq")


def runtime() -> Runtime:
    global _runtime
    if _runtime is None:
        settings = _settings or replace(Settings.from_env(), scheduler="rq")
        loop = asyncio.new_event_loop()
        services = build(settings)
        _runtime = Runtime(loop, services)
    return _runtime


def take_due_decision(game_id: str, version: int, kind: str, seat: int) -> str:
    """A bot's move (`bot_turn`) or an expired clock (`deadline`), if the game still waits."""
    rt = runtime()
    return rt.loop.run_until_complete(
        decision_job.take_due_decision(
            rt.services.pipeline, game_id, version, kind, seat,
            outage_grace_s=rt.services.settings.clock_outage_grace_s,
            lateness=rt.services.clock_lateness.observe)
    )


def advance_tournament(tournament_id: str) -> None:
    """Record a tournament's games that ended, pair what follows, open the tables that may."""
    rt = runtime()
    rt.loop.run_until_complete(rt.services.tournaments.runner.advance(tournament_id))


def end_idle_game(game_id: str) -> bool:
    """An expired lobby, or a game abandoned by its humans (`scheduling.idle_games`)."""
    rt = runtime()
    s = rt.services.settings
    return rt.loop.run_until_complete(
        idle_games.end_if_idle(rt.services.pipeline, game_id, s.lobby_ttl_s, s.abandon_after_s))


def webhook_job(job: str, *args: object) -> object:
    """A webhook delivery (`service.scheduling.job_names.WEBHOOK_JOBS`): a bot's decision, its
    default deadline, or a subscription's event messages of one game."""
    rt = runtime()
    return rt.loop.run_until_complete(rt.services.webhooks.run_job(job, args))


def noop() -> None:
    """The benchmark's yardstick: what RQ alone costs from enqueue to finished."""


def shutdown() -> None:
    global _runtime
    if _runtime is not None:
        _runtime.loop.run_until_complete(_runtime.services.close())
        _runtime.loop.close()
        _runtime = None
