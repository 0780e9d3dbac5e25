"""Settings from the environment, read once; tests build their own `Settings` instead."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import TypeVar

from service.events.engine import DEFAULT_DATABASE_URL, sqlite_file_of
from service.redis_clients import sentinel_target
from service.webhooks.settings import WebhookSettings


class Execution(StrEnum):
    """Where the work that commits start runs (`Settings.scheduler`; `wiring.execution`)."""

    RQ = "rq"  # RQ workers: bot moves, clocks, tournaments' wake-ups, webhook deliveries
    IN_PROCESS = "in_process"  # asyncio tasks in this process: the embedded default
    NONE = "none"  # bot moves and clocks wait in `due_work`; the rest runs in this process


SCHEDULERS = tuple(Execution)
# Where an unconfigured process on PostgreSQL keeps its receipt keys: processes started in one
# directory share them; production configures CYA_RECEIPT_KEYS instead (docs/receipts.md).
DEFAULT_RECEIPT_KEYS_FILE = "./cya-receipt-keys.json"
_FALSE = {"0", "false", "no", "off"}
_TRUE = {"1", "true", "yes", "on"}
N = TypeVar("N", int, float)


class ConfigError(ValueError):
    """A setting in the environment that cannot be used; the message names it and its value."""


# An empty variable counts as unset, as shells and compose files leave them.
def env_text(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def env_renamed(name: str, old_name: str) -> tuple[str, str]:
    """A renamed variable: (the name its value was read from, the value or "" when unset). The
    old name is still read when the new one is unset; both set and different is an error."""
    value, old = env_text(name, ""), env_text(old_name, "")
    if value and old and value != old:
        raise ConfigError(f"{name} ({value!r}) and {old_name} ({old!r}), its old name, differ: "
                          f"set {name} alone")
    return (old_name, old) if old and not value else (name, value)


def env_number(name: str, default: N, kind: type[N], minimum: N) -> N:
    raw = env_text(name, "")
    if not raw:
        return default
    what = "an integer" if kind is int else "a number"
    try:
        value = kind(raw)
    except ValueError:
        raise ConfigError(f"{name} must be {what}, not {raw!r}") from None
    if not math.isfinite(value) or value < minimum:
        raise ConfigError(f"{name} must be {what} of at least {minimum}, not {raw!r}")
    return value


def env_numbers(name: str, default: tuple[float, ...], minimum: float) -> tuple[float, ...]:
    """A comma-separated list of at least one number (`5,300,1800`)."""
    raw = env_text(name, "")
    if not raw:
        return default
    try:
        values = tuple(float(part) for part in raw.split(","))
    except ValueError:
        raise ConfigError(f"{name} must be comma-separated numbers, not {raw!r}") from None
    if not all(math.isfinite(v) and v >= minimum for v in values):
        raise ConfigError(f"{name} must be numbers of at least {minimum}, not {raw!r}")
    return values


def env_flag(name: str, default: bool) -> bool:
    raw = env_text(name, "").lower()
    if not raw:
        return default
    if raw in _FALSE | _TRUE:
        return raw in _TRUE
    raise ConfigError(f"{name} must be 1 or 0 (true/false, yes/no, on/off), not {raw!r}")


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
    # Who runs the work that commits start (bot moves, expired clocks, tournaments' wake-ups,
    # webhook deliveries): "rq" (workers), "in_process" (asyncio tasks in this process: the
    # embedded default), or "none" (moves and clocks wait in `due_work`, for tests that drive
    # every seat themselves; the rest runs here). From the environment (`CYA_SCHEDULER`, once
    # `CYA_DUE_WORK`): rq if Redis is set, else in_process.
    scheduler: str = "none"
    rq_queue: str = "cya-due"
    # Pacing per bot move, so a human can follow a bot game. Through RQ a paced move waits for
    # RQ's scheduler, which wakes once a second: the pause is rounded up to its next tick.
    bot_delay_ms: int = 0
    sweep_interval_s: float = 3.0  # how often overdue rows are enqueued again; 0: never
    sweep_grace_s: float = 5.0  # how long past due a row must be before it counts as lost
    # A turn clock's expiry taken later than this after its deadline restarts the clock once
    # (`ClockRestarted`): the service was not acting then, and may have refused the command.
    clock_outage_grace_s: float = 2.0
    # A lobby nobody starts expires after this long; a running game without a turn clock that
    # waits on a human this long ends abandoned (`scheduling.idle_games`).
    lobby_ttl_s: float = 86_400.0
    abandon_after_s: float = 7 * 86_400.0
    webhooks: WebhookSettings = field(default_factory=WebhookSettings)
    # Signed receipts (service/receipts/, docs/receipts.md): on unless turned off, when every
    # answer's `receipt` is null. The key ring: configured (`receipt_keys`, its JSON), or kept
    # in `receipt_keys_file`, created on first start; with neither, the file beside the SQLite
    # database, or (PostgreSQL, in-memory SQLite) a ring for this process alone.
    receipts: bool = True
    receipt_keys: str | None = field(default=None, repr=False)
    receipt_keys_file: str | None = None

    @property
    def receipt_keys_path(self) -> str | None:
        """The key ring's file: the one set, else beside the SQLite database file."""
        if self.receipt_keys_file is not None:
            return self.receipt_keys_file
        database = sqlite_file_of(self.database_url)
        return None if database is None else f"{database}-receipt-keys.json"
    # Quick play: each second a seek waits widens the rating range it accepts by this much
    # (ordinal points); every API process pairs the waiting seekers this often.
    match_widen_per_s: float = 1.0
    match_tick_s: float = 0.25
    # The standing bot arena: its games' seats (2 to 6), or 0 for none. Bot accounts that
    # opted in are sought for continuously, in rated games (`Matchmaker.arena`).
    bot_arena_players: int = 0

    @property
    def catches_up_first(self) -> bool:
        return self.redis_url is not None if self.catch_up_first is None else self.catch_up_first

    @classmethod
    def from_env(cls) -> Settings:
        redis_url = env_text("CYA_REDIS_URL", "") or None
        try:
            sentinel_target(redis_url or "")  # a redis+sentinel:// URL that cannot be used
        except ValueError as exc:
            raise ConfigError(f"CYA_REDIS_URL: {exc}") from None
        arena = env_number("CYA_BOT_ARENA_PLAYERS", 0, int, 0)
        if arena == 1 or arena > 6:
            raise ConfigError(f"CYA_BOT_ARENA_PLAYERS must be 0 (no arena) or 2 to 6, not {arena}")
        read_from, scheduler = env_renamed("CYA_SCHEDULER", "CYA_DUE_WORK")
        scheduler = scheduler or ("rq" if redis_url else "in_process")
        if scheduler not in SCHEDULERS:
            raise ConfigError(f"{read_from} must be one of {', '.join(SCHEDULERS)}, "
                              f"not {scheduler!r}")
        database_url = env_text("CYA_DATABASE_URL", DEFAULT_DATABASE_URL)
        return cls(
            database_url=database_url,
            redis_url=redis_url,
            state_cache=env_flag("CYA_STATE_CACHE", True),
            state_cache_size=env_number("CYA_STATE_CACHE_SIZE", 1024, int, 1),
            conflict_retries=env_number("CYA_CONFLICT_RETRIES", 8, int, 0),
            catch_up_first=(env_flag("CYA_CATCH_UP_FIRST", False)
                            if env_text("CYA_CATCH_UP_FIRST", "") else None),
            scheduler=scheduler,
            rq_queue=env_text("CYA_RQ_QUEUE", "cya-due"),
            bot_delay_ms=env_number("CYA_BOT_DELAY_MS", 0, int, 0),
            sweep_interval_s=env_number("CYA_SWEEP_INTERVAL_S", 3.0, float, 0.0),
            sweep_grace_s=env_number("CYA_SWEEP_GRACE_S", 5.0, float, 0.0),
            clock_outage_grace_s=env_number("CYA_CLOCK_OUTAGE_GRACE_S", 2.0, float, 0.0),
            lobby_ttl_s=env_number("CYA_LOBBY_TTL_S", 86_400.0, float, 1.0),
            abandon_after_s=env_number("CYA_ABANDON_AFTER_S", 7 * 86_400.0, float, 1.0),
            webhooks=webhook_settings_from_env(),
            receipts=env_flag("CYA_RECEIPTS", True),
            receipt_keys=env_text("CYA_RECEIPT_KEYS", "") or None,
            receipt_keys_file=env_text("CYA_RECEIPT_KEYS_FILE", "") or (
                None if sqlite_file_of(database_url) else DEFAULT_RECEIPT_KEYS_FILE),
            match_widen_per_s=env_number("CYA_MATCH_WIDEN_PER_S", 1.0, float, 0.0),
            match_tick_s=env_number("CYA_MATCH_TICK_S", 0.25, float, 0.05),
            bot_arena_players=arena,
        )


# Settings this code no longer reads: one still set would be ignored without a word.
RETIRED = {"CYA_WEBHOOKS_RETRY_BASE_S": "CYA_WEBHOOKS_RETRY_SCHEDULE_S",
           "CYA_WEBHOOKS_RETRY_MAX_S": "CYA_WEBHOOKS_RETRY_SCHEDULE_S",
           "CYA_WEBHOOKS_DISABLE_AFTER": "CYA_WEBHOOKS_RETRY_SCHEDULE_S"}


def webhook_settings_from_env() -> WebhookSettings:
    d = WebhookSettings()
    for name, instead in RETIRED.items():
        if env_text(name, ""):
            raise ConfigError(f"{name} is no longer read: set {instead} instead")
    hooks = WebhookSettings(
        allow_private=env_flag("CYA_WEBHOOKS_ALLOW_PRIVATE", d.allow_private),
        decision_deadline_s=env_number("CYA_WEBHOOKS_DECISION_DEADLINE_S",
                                       d.decision_deadline_s, float, 0.1),
        connect_timeout_s=env_number("CYA_WEBHOOKS_CONNECT_TIMEOUT_S", d.connect_timeout_s,
                                     float, 0.1),
        total_timeout_s=env_number("CYA_WEBHOOKS_TOTAL_TIMEOUT_S", d.total_timeout_s,
                                   float, 0.1),
        max_answer_bytes=env_number("CYA_WEBHOOKS_MAX_ANSWER_BYTES", d.max_answer_bytes,
                                    int, 1),
        retry_schedule_s=env_numbers("CYA_WEBHOOKS_RETRY_SCHEDULE_S", d.retry_schedule_s,
                                     0.0),
        sweep_interval_s=env_number("CYA_WEBHOOKS_SWEEP_INTERVAL_S", d.sweep_interval_s,
                                    float, 0.0),
        lease_s=env_number("CYA_WEBHOOKS_LEASE_S", d.lease_s, float, 0.1),
        secret_overlap_s=env_number("CYA_WEBHOOKS_SECRET_OVERLAP_S", d.secret_overlap_s,
                                    float, 0.0),
    )
    if hooks.lease_s <= hooks.total_timeout_s:
        raise ConfigError(f"CYA_WEBHOOKS_LEASE_S ({hooks.lease_s:g}) must be longer than "
                          f"CYA_WEBHOOKS_TOTAL_TIMEOUT_S ({hooks.total_timeout_s:g})")
    return hooks


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings.from_env()
