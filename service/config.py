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
    sqlite_busy_timeout_ms: int = 10_000

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("CYA_DATABASE_URL", DEFAULT_DATABASE_URL),
            redis_url=os.environ.get("CYA_REDIS_URL") or None,
            state_cache=_flag("CYA_STATE_CACHE", True),
            state_cache_size=int(os.environ.get("CYA_STATE_CACHE_SIZE", "1024")),
            conflict_retries=int(os.environ.get("CYA_CONFLICT_RETRIES", "8")),
        )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings.from_env()
