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
    # The waits before each retry of an event message whose delivery failed (the first attempt
    # is at once): Svix's schedule, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, about 27.6 hours
    # in all, so a receiver down for a day loses nothing. A message that fails its last retry
    # disables its subscription (its game's later messages may not overtake it); its owner
    # enables it again.
    retry_schedule_s: tuple[float, ...] = (5.0, 300.0, 1800.0, 7200.0, 18_000.0, 36_000.0,
                                           36_000.0)
    # How long a delivering job holds the messages it is sending (the head of a game's queue)
    # before another may take them. A job stops sending before its lease runs out, so it must
    # be longer than `total_timeout_s`; it is how long a killed worker's messages, and its
    # game's later ones, wait (and then at most a sweep interval) before they are sent again.
    lease_s: float = 15.0
    # After a secret is rotated, requests are signed with the old one too for this long (both
    # signatures in `webhook-signature`), so a receiver may switch secrets within it.
    secret_overlap_s: float = 86_400.0
    # How often undelivered messages that are due are handed out again (0: never).
    sweep_interval_s: float = 5.0
