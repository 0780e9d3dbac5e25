"""Which scheduler the settings ask for (`Settings.due_work`), wired to its pipeline."""

from __future__ import annotations

from typing import Any

from service.pipeline import Pipeline
from service.pipeline.hooks import NoScheduler, Scheduler
from service.scheduling.clock_lateness import ClockLateness, InProcessLateness, RedisLateness
from service.wiring.settings import DUE_WORK_KINDS, Settings


def scheduler_for(settings: Settings, lateness: ClockLateness | None = None) -> Scheduler:
    """`lateness`: told how late each clock's expiry taken in this process was."""
    match settings.due_work:
        case "rq":
            if not settings.redis_url:
                raise ValueError("due_work=rq needs CYA_REDIS_URL")
            from service.scheduling.rq_scheduler import RQScheduler

            return RQScheduler(settings.redis_url, settings.rq_queue,
                               bot_delay_ms=settings.bot_delay_ms)
        case "in_process":
            from service.scheduling.in_process import InProcessScheduler

            return InProcessScheduler(bot_delay_ms=settings.bot_delay_ms,
                                      sweep_interval_s=settings.sweep_interval_s,
                                      sweep_grace_s=settings.sweep_grace_s,
                                      outage_grace_s=settings.clock_outage_grace_s,
                                      lobby_ttl_s=settings.lobby_ttl_s,
                                      abandon_after_s=settings.abandon_after_s,
                                      lateness=lateness)
        case "none":
            return NoScheduler()
    raise ValueError(f"unknown due_work {settings.due_work!r}: {', '.join(DUE_WORK_KINDS)}")


def clock_lateness_for(settings: Settings) -> ClockLateness:
    """Where the expiries' lateness is counted: in Redis when workers take them, else here."""
    if settings.due_work == "rq" and settings.redis_url:
        return RedisLateness(settings.redis_url, settings.rq_queue)
    return InProcessLateness()


def attach(scheduler: Scheduler, pipeline: Pipeline) -> None:
    hook: Any = getattr(scheduler, "attach", None)
    if hook is not None:
        hook(pipeline)


def start(scheduler: Scheduler) -> None:
    """At a process's startup, inside its event loop: the in-process scheduler begins sweeping
    at once, so moves owed from before a restart resume without waiting for a new command."""
    hook: Any = getattr(scheduler, "start", None)
    if hook is not None:
        hook()


async def close(scheduler: Scheduler) -> None:
    hook: Any = getattr(scheduler, "close", None)
    if hook is not None:
        await hook()
