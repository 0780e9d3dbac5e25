"""Where the work that commits start runs, chosen once from `Settings.scheduler`
(`CYA_SCHEDULER`, `settings.Execution`): RQ workers, or asyncio tasks in this process. The
scheduler (bot moves, clocks), the tournaments' driver, the webhooks' deliveries and where the
clocks' lateness is counted are chosen together, so they never disagree: an RQ setting
without Redis is an error, not a quiet fall back to this process.

Each is built with the pipeline whose commands its work runs, by that pipeline
(`Pipeline(hooks=...)`), so nothing is attached to it afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.pipeline import Pipeline
from service.pipeline.hooks import NoScheduler, Scheduler
from service.scheduling.clock_lateness import ClockLateness, InProcessLateness, RedisLateness
from service.scheduling.in_process import InProcessScheduler
from service.scheduling.rq_scheduler import RQScheduler
from service.tournaments.runner.drivers import (
    InProcessTournaments,
    RQTournaments,
    TournamentDriver,
)
from service.webhooks.dispatch import Webhooks
from service.webhooks.runners import RQRunner
from service.wiring.settings import SCHEDULERS, Execution, Settings


@dataclass(frozen=True)
class Work:
    """What runs the work of one pipeline's commits, all in one place."""

    scheduler: Scheduler
    tournaments: TournamentDriver
    webhooks: Webhooks
    clock_lateness: ClockLateness  # where the expiries are taken: counted there


def execution_of(settings: Settings) -> Execution:
    """`Settings.scheduler`, checked: RQ needs Redis."""
    try:
        execution = Execution(settings.scheduler)
    except ValueError:
        raise ValueError(f"unknown scheduler {settings.scheduler!r}: "
                         f"{', '.join(SCHEDULERS)}") from None
    if execution is Execution.RQ and not settings.redis_url:
        raise ValueError("scheduler=rq needs CYA_REDIS_URL")
    return execution


def work_for(settings: Settings, pipeline: Pipeline, scheduler: Scheduler | None = None
             ) -> Work:
    """`scheduler`: instead of the execution's own (a benchmark's, that times the hand-over)."""
    match execution_of(settings):
        case Execution.RQ:
            redis_url, queue = settings.redis_url or "", settings.rq_queue
            return Work(scheduler or RQScheduler(redis_url, queue,
                                                 bot_delay_ms=settings.bot_delay_ms),
                        RQTournaments(pipeline, redis_url, queue),
                        Webhooks(pipeline, settings.webhooks, RQRunner(redis_url, queue)),
                        RedisLateness(redis_url, queue))
        case Execution.IN_PROCESS:
            tournaments, lateness = InProcessTournaments(pipeline), InProcessLateness()
            return Work(scheduler or InProcessScheduler(
                pipeline, bot_delay_ms=settings.bot_delay_ms,
                sweep_interval_s=settings.sweep_interval_s,
                sweep_grace_s=settings.sweep_grace_s,
                outage_grace_s=settings.clock_outage_grace_s,
                lobby_ttl_s=settings.lobby_ttl_s, abandon_after_s=settings.abandon_after_s,
                lateness=lateness, also_sweep=(tournaments.sweep,)),
                tournaments, Webhooks(pipeline, settings.webhooks), lateness)
        case Execution.NONE:
            return Work(scheduler or NoScheduler(), InProcessTournaments(pipeline),
                        Webhooks(pipeline, settings.webhooks), InProcessLateness())
