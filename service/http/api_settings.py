"""HTTP settings from the environment, read once; tests build their own `HttpSettings`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from service.wiring.settings import env_flag, env_number


def _origins(name: str, default: str) -> tuple[str, ...]:
    raw = os.environ.get(name, default)  # here empty is not unset: it allows no origin
    return tuple(o.strip() for o in raw.split(",") if o.strip())


@dataclass(frozen=True)
class HttpSettings:
    # Requests per minute per API key (per client address without one); 0 turns limits off.
    rate_limit_per_minute: int = 1200
    max_body_bytes: int = 64 * 1024
    long_poll_max_seconds: int = 30
    sse_heartbeat_seconds: int = 15
    events_page_max: int = 500
    # How often a waiting stream re-reads the log even without a publish (lost messages).
    poll_fallback_seconds: float = 2.0
    # Serve views from this process's folded games when it is the game's only writer (no
    # Redis configured: one API process with in-process jobs). With Redis, several processes
    # write, so views are always read from the database.
    views_from_memory: bool = True
    # Origins whose browser pages may call the API (CORS); ("*",) allows any, () none. Keys
    # travel in the Authorization header, never in cookies, so no page gains a user's rights
    # by being allowed: any origin is safe, and third-party web clients need it.
    cors_origins: tuple[str, ...] = ("*",)
    # Log the event loop's stack when it is this late (0: never); finds what blocks it.
    stall_log_ms: int = 0

    @classmethod
    def from_env(cls) -> HttpSettings:
        return cls(
            rate_limit_per_minute=env_number("CYA_RATE_LIMIT_PER_MINUTE", 1200, int, 0),
            max_body_bytes=env_number("CYA_MAX_BODY_BYTES", 64 * 1024, int, 1),
            long_poll_max_seconds=env_number("CYA_LONG_POLL_MAX_SECONDS", 30, int, 0),
            sse_heartbeat_seconds=env_number("CYA_SSE_HEARTBEAT_SECONDS", 15, int, 1),
            views_from_memory=env_flag("CYA_VIEWS_FROM_MEMORY", True),
            cors_origins=_origins("CYA_CORS_ORIGINS", "*"),
            stall_log_ms=env_number("CYA_STALL_LOG_MS", 0, int, 0),
        )


@lru_cache(maxsize=1)
def get_http_settings() -> HttpSettings:
    return HttpSettings.from_env()
