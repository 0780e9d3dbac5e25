"""The composition root: settings in, wired-up store and pipeline out."""

from __future__ import annotations

import functools
import gc
import logging

from service.events.backends import open_store
from service.events.engine import sqlite_file_of
from service.matchmaking.runner.matchmaker import Matchmaker
from service.pipeline import Pipeline
from service.pipeline.hooks import CommitHooks, Publisher, Scheduler
from service.pipeline.publishers import LocalPublisher, RedisPublisher
from service.pipeline.state_cache import StateCache
from service.projections.ratings import RateFinishedGames
from service.receipts import ReceiptSigner, load_key_ring
from service.scheduling.clock_lateness import ClockLateness
from service.tournaments.runner.drivers import TournamentDriver
from service.webhooks.dispatch import Webhooks
from service.wiring.execution import execution_of, work_for
from service.wiring.settings import Settings, get_settings

log = logging.getLogger("cya.wiring")


class Services:
    """Everything one process runs, wired once (`build`). The work that commits start runs
    the pipeline's commands, so the pipeline builds it as it is built (`_hooks`): nothing is
    attached to it afterwards."""

    tournaments: TournamentDriver
    webhooks: Webhooks
    clock_lateness: ClockLateness

    def __init__(self, settings: Settings, *, scheduler: Scheduler | None = None,
                 catch_up_first: bool = False) -> None:
        execution_of(settings)  # a setting that cannot run fails before anything opens
        self.settings = settings
        self.store = open_store(settings.database_url,
                                sqlite_busy_timeout_ms=settings.sqlite_busy_timeout_ms)
        self.engine = self.store.engine
        self.publisher: Publisher = (
            RedisPublisher(settings.redis_url) if settings.redis_url else LocalPublisher()
        )
        self.receipt_keys = load_key_ring(settings.receipt_keys, settings.receipt_keys_path)
        if settings.receipt_keys is None and sqlite_file_of(settings.database_url) is None:
            log.warning("receipt keys from %s: production configures CYA_RECEIPT_KEYS, the "
                        "same on every API process (docs/receipts.md)",
                        settings.receipt_keys_path or "this process alone")
        # None when turned off (`CYA_RECEIPTS=0`): answers carry `receipt: null`.
        self.receipts = ReceiptSigner(self.receipt_keys) if settings.receipts else None
        cache = StateCache(settings.state_cache_size) if settings.state_cache else None
        self.pipeline = Pipeline(self.store, cache=cache, publisher=self.publisher,
                                 hooks=functools.partial(self._hooks, scheduler),
                                 conflict_retries=settings.conflict_retries,
                                 catch_up_first=catch_up_first)
        self.matchmaker = Matchmaker(self.pipeline, settings.match_widen_per_s,
                                     arena_players=settings.bot_arena_players)

    def _hooks(self, scheduler: Scheduler | None, pipeline: Pipeline) -> CommitHooks:
        work = work_for(self.settings, pipeline, scheduler)
        self.tournaments, self.webhooks = work.tournaments, work.webhooks
        self.clock_lateness = work.clock_lateness
        # Told in this order: the webhooks first (see `CommitHints.after_commit`).
        return CommitHooks(work.scheduler, outbox=work.webhooks, listeners=(
            work.webhooks, RateFinishedGames(self.store), work.tournaments))

    def start(self) -> None:
        """Inside the process's event loop, at startup: the work owed from before a restart
        (bot moves, clocks, deliveries whose job was lost) resumes at once where this process
        runs it, not at the next command."""
        self.pipeline.scheduler.start()
        self.webhooks.start()

    async def close(self) -> None:
        await self.pipeline.scheduler.close()
        await self.tournaments.close()
        await self.webhooks.close()
        await self.store.close()
        await self.publisher.close()
        await self.engine.dispose()
        self.clock_lateness.close()


def build(settings: Settings | None = None, *, scheduler: Scheduler | None = None,
          catch_up_first: bool = False) -> Services:
    """`scheduler`: instead of the one the settings choose (a benchmark's). `catch_up_first`:
    see `Pipeline`; for API processes that share the log with others (workers catch up
    themselves, for the version their job names)."""
    return Services(settings or get_settings(), scheduler=scheduler,
                    catch_up_first=catch_up_first)


# Middle collections between full ones: an API process makes one a second (`paced_gc`), so a
# full collection (seconds, with 10,000 streams) comes at most once a day, and frees the
# reference cycles that outlived two collections meanwhile.
MIDDLE_PER_FULL = 86_400


def tune_gc() -> None:
    """For every long-running process that runs the pipeline (API, workers). The folded-game
    cache keeps many long-lived objects; with CPython's default thresholds the full
    collections that walk them all come often and stall every command for tens of
    milliseconds. Collect the old generation rarely.

    A young collection stops every command in flight for as long as it walks the young
    objects, so it must stay small: at 100,000 it took 25-80 ms (the bench's p99 at half rate
    blew up whenever one fell in its window); at 20,000, 3-21 ms. The game values (frozen
    msgspec Structs, `gc=False`) are not tracked at all: they cannot form cycles, and they were
    most of what each collection walked. An API process also collects its young generations
    on a clock (`paced_gc`), each of whose middle collections counts towards a full one."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, MIDDLE_PER_FULL)
