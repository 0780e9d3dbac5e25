"""Settings from the environment, read once; tests build their own `Settings` instead."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./cya.sqlite3"


def _flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return raw.strip().lower() not in {"0", "false", "no", "off", ""}


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str | None = None
    # The folded-state cache only saves reads: correctness never depends on it.
    state_cache: bool = True
    state_cache_size: int = 1024
    # Without an expected version, a command is retried on fresh state this many times.
    conflict_retries: int = 8
    # An API process reads the log's newer events before deciding each command (`Pipeline`):
    # right when several API processes share games round-robin (the deployment's default, with
    # Redis), wasted reads when one process sees every command of a game. None: on with Redis.
    catch_up_first: bool | None = None
    sqlite_busy_timeout_ms: int = 10_000
    # Who runs due work (bot moves, expired clocks): "rq" (workers), "in_process" (asyncio tasks
    # in this process: the embedded default), or "none" (rows wait in `due_work`; for tests
    # that drive every seat themselves). From the environment: rq if Redis is set, else
    # in_process.
    due_work: str = "none"
    rq_queue: str = "cya-due"
    # Pacing per bot move, so a human can follow a bot game. Through RQ a paced move waits for
    # RQ's scheduler, which wakes once a second: the pause is rounded up to its next tick.
    bot_delay_ms: int = 0
    sweep_interval_s: float = 3.0  # how often overdue rows are enqueued again
    sweep_grace_s: float = 5.0  # how long past due a row must be before it counts as lost

    @property
    def catches_up_first(self) -> bool:
        return self.redis_url is not None if self.catch_up_first is None else self.catch_up_first

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("CYA_DATABASE_URL", DEFAULT_DATABASE_URL),
            redis_url=os.environ.get("CYA_REDIS_URL") or None,
            state_cache=_flag("CYA_STATE_CACHE", True),
            state_cache_size=int(os.environ.get("CYA_STATE_CACHE_SIZE", "1024")),
            conflict_retries=int(os.environ.get("CYA_CONFLICT_RETRIES", "8")),
            catch_up_first=(_flag("CYA_CATCH_UP_FIRST", False)
                            if "CYA_CATCH_UP_FIRST" in os.environ else None),
            due_work=os.environ.get("CYA_DUE_WORK")
            or ("rq" if os.environ.get("CYA_REDIS_URL") else "in_process"),
            rq_queue=os.environ.get("CYA_RQ_QUEUE", "cya-due"),
            bot_delay_ms=int(os.environ.get("CYA_BOT_DELAY_MS", "0")),
            sweep_interval_s=float(os.environ.get("CYA_SWEEP_INTERVAL_S", "3")),
            sweep_grace_s=float(os.environ.get("CYA_SWEEP_GRACE_S", "5")),
        )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings.from_env()
