"""Webhook settings; `service.wiring.settings` reads them from the environment."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebhookSettings:
    # URLs that resolve to private, loopback or link-local addresses are refused unless this
    # is set (tests and a bot on the same machine).
    allow_private: bool = False
    # A bot's decision in a game without a turn clock must be answered within this many
    # seconds of the decision becoming pending; then the game's timeout policy applies.
    decision_deadline_s: float = 10.0
    connect_timeout_s: float = 2.0
    # The longest an event delivery may take, connect and answer together.
    total_timeout_s: float = 10.0
    max_answer_bytes: int = 64 * 1024
    # Event deliveries are retried after base × 2^(attempts − 1) seconds, capped.
    retry_base_s: float = 1.0
    retry_max_s: float = 3600.0
    # Consecutive failed attempts after which a subscription is disabled (base 1 s: about
    # 17 minutes of failure). Its owner enables it again.
    disable_after: int = 10
    # How long a delivering job holds the head of a game's queue before another may take it.
    lease_s: float = 30.0
    # How often undelivered messages that are due are handed out again (0: never).
    sweep_interval_s: float = 5.0
