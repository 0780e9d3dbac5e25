"""The composition root: settings in, wired-up store and pipeline out."""

from __future__ import annotations

import gc
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from service.pipeline import Pipeline
from service.pipeline.hooks import Publisher, Scheduler
from service.pipeline.publishers import LocalPublisher, RedisPublisher
from service.pipeline.state_cache import StateCache
from service.scheduling.clock_lateness import ClockLateness
from service.store.backends import open_store
from service.store.event_store import EventStore
from service.tournaments.runner.drivers import TournamentDriver, driver_for
from service.webhooks.dispatch import Webhooks
from service.webhooks.runners import InProcessRunner, RQRunner, Runner
from service.wiring import schedulers
from service.wiring.settings import Settings, get_settings


@dataclass
class Services:
    settings: Settings
    engine: AsyncEngine
    store: EventStore
    pipeline: Pipeline
    publisher: Publisher
    tournaments: TournamentDriver
    webhooks: Webhooks
    clock_lateness: ClockLateness

    def start(self) -> None:
        """Inside the process's event loop, where it runs its own jobs: webhook deliveries
        whose job was lost are handed out again."""
        if isinstance(self.webhooks.ctx.runner, InProcessRunner):
            self.webhooks.start_sweeping()

    async def close(self) -> None:
        await schedulers.close(self.pipeline.scheduler)
        await self.tournaments.close()
        await self.webhooks.close()
        await self.store.close()
        await self.publisher.close()
        await self.engine.dispose()
        self.clock_lateness.close()


def build(settings: Settings | None = None, *, scheduler: Scheduler | None = None,
          catch_up_first: bool = False) -> Services:
    """`catch_up_first`: see `Pipeline`; for API processes that share the log with others
    (workers catch up themselves, for the version their job names)."""
    settings = settings or get_settings()
    store = open_store(settings.database_url,
                       sqlite_busy_timeout_ms=settings.sqlite_busy_timeout_ms)
    publisher: Publisher = (
        RedisPublisher(settings.redis_url) if settings.redis_url else LocalPublisher()
    )
    cache = StateCache(settings.state_cache_size) if settings.state_cache else None
    lateness = schedulers.clock_lateness_for(settings)
    pipeline = Pipeline(store, cache=cache, publisher=publisher,
                        scheduler=scheduler or schedulers.scheduler_for(settings, lateness),
                        conflict_retries=settings.conflict_retries,
                        catch_up_first=catch_up_first)
    schedulers.attach(pipeline.scheduler, pipeline)
    tournaments = driver_for(pipeline, settings.due_work, settings.redis_url, settings.rq_queue)
    also_sweep = getattr(pipeline.scheduler, "also_sweep", None)
    if also_sweep is not None:
        also_sweep.append(tournaments.sweep)
    return Services(settings, store.engine, store, pipeline, publisher, tournaments,
                    webhooks_for(settings, pipeline), lateness)


def webhooks_for(settings: Settings, pipeline: Pipeline) -> Webhooks:
    """Webhook deliveries run where due work does: RQ workers, or this process."""
    runner: Runner
    if settings.due_work == "rq" and settings.redis_url:
        runner = RQRunner(settings.redis_url, settings.rq_queue)
    else:
        runner = InProcessRunner()
    webhooks = Webhooks(pipeline, settings.webhooks, runner)
    if isinstance(runner, InProcessRunner):
        runner.body = webhooks.run_job
    pipeline.listeners.append(webhooks)
    pipeline.outbox = webhooks
    return webhooks


def tune_gc() -> None:
    """For every long-running process that runs the pipeline (API, workers). The folded-game
    cache keeps many long-lived objects; with CPython's default thresholds the full
    collections that walk them all come often and stall every command for tens of
    milliseconds. Collect the old generation rarely.

    A young collection stops every command in flight for as long as it walks the young
    objects, so it must stay small: at 100,000 it took 25-80 ms (the bench's p99 at half rate
    blew up whenever one fell in its window); at 20,000, 3-21 ms. The game values (frozen
    msgspec Structs, `gc=False`) are not tracked at all: they cannot form cycles, and they were
    most of what each collection walked."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)
