"""The bodies and answers of the webhook routes (`routes/webhooks.py`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from cya_rules.docs import doc

EventType = Literal["seated", "game_started", "your_turn", "game_finished", "events"]
_URL = ("Where to POST: `http` or `https`, resolving to a public address (private, loopback "
        "and link-local addresses are refused unless the server allows them).")
_SECRET = ("The signing secret (`whsec_…`), shown only in this answer: verify each "
           "delivery's `webhook-signature` with it (Standard Webhooks).")


class BotEndpointIn(msgspec.Struct, forbid_unknown_fields=True):
    """Register (or replace) your bot endpoint: while it is registered, every seat you hold is
    played by POSTing each decision to it."""

    url: Annotated[str, msgspec.Meta(min_length=1, max_length=2048), doc(_URL)]


class BotEndpointOut(msgspec.Struct):
    """Your bot endpoint (its secret is shown only when made or rotated)."""

    url: Annotated[str, doc("Where decisions are POSTed.")]
    created_at: Annotated[datetime, doc("When it was registered.")]
    secret_rotated_at: Annotated[datetime, doc("When its secret was last made.")]


class BotEndpointSecret(BotEndpointOut):
    """Your bot endpoint with its new secret."""

    secret: Annotated[str, doc(_SECRET)]


class BotAttemptOut(msgspec.Struct):
    """One POST of a decision to your bot endpoint, or the verdict on its answer."""

    attempt_id: Annotated[int, doc("Increasing; pass it as `?before=` for older attempts.")]
    game_id: Annotated[str, doc("The game.")]
    version: Annotated[int, doc("The game's version the decision was asked at.")]
    seat: Annotated[int, doc("Your seat.")]
    message_id: Annotated[str, doc("The `webhook-id` sent (the same for every attempt at one "
                                   "decision).")]
    outcome: Annotated[str, doc(
        "`accepted` (the command was played), `illegal` (not a command, or one the rules "
        "refuse), `late` (no answer before the deadline), `http_error` (a status other than "
        "2xx; 5xx is tried again), `network_error` (tried again), `too_large`, `refused` (the "
        "URL resolves to a refused address), `moved_on` (the game moved on meanwhile).")]
    status_code: Annotated[int | None, doc("The HTTP status answered, if any.")]
    latency_ms: Annotated[float, doc("From sending to the whole answer (or the failure).")]
    error: Annotated[str | None, doc("What went wrong, for people.")]
    at: Annotated[datetime, doc("When it was recorded.")]


class BotAttempts(msgspec.Struct):
    """Your bot endpoint's attempts, newest first."""

    attempts: Annotated[list[BotAttemptOut], doc("Newest first.")]
    next_before: Annotated[int | None, doc("Pass as `?before=` for the next page; null on the "
                                           "last.")]


class SubscriptionIn(msgspec.Struct, forbid_unknown_fields=True):
    """Subscribe a URL to event types of your games."""

    url: Annotated[str, msgspec.Meta(min_length=1, max_length=2048), doc(_URL)]
    event_types: Annotated[list[EventType], msgspec.Meta(min_length=1, max_length=5), doc(
        "What to hear of each game you sit in: `seated`, `game_started`, `your_turn` (with the "
        "whole turn inline), `game_finished`, and `events` (each command's events, redacted "
        "for your seat).")]


class SubscriptionOut(msgspec.Struct):
    """An event webhook subscription (its secret is shown only when made or rotated)."""

    subscription_id: Annotated[str, doc("The subscription's id.")]
    url: Annotated[str, doc("Where messages are POSTed.")]
    event_types: Annotated[list[EventType], doc("The types it hears.")]
    enabled: Annotated[bool, doc("False after sustained failure: enable it again with "
                                 "`POST …/enable`.")]
    failures: Annotated[int, doc("Consecutive failed attempts.")]
    disabled_reason: Annotated[str | None, doc("Why it was disabled.")]
    created_at: Annotated[datetime, doc("When it was made.")]


class SubscriptionSecret(SubscriptionOut):
    """A subscription with its new secret."""

    secret: Annotated[str, doc(_SECRET)]


class SubscriptionList(msgspec.Struct):
    """Your event webhook subscriptions."""

    subscriptions: Annotated[list[SubscriptionOut], doc("Oldest first.")]


class DeliveryAttemptOut(msgspec.Struct):
    """One POST of a message to the subscription's URL. An attempt whose worker stopped
    before it recorded an answer (killed mid-delivery) is recorded when the next one begins:
    `ok` false, no status, latency 0, and an `error` beginning `interrupted:`."""

    ok: Annotated[bool, doc("Whether the receiver answered 2xx.")]
    status_code: Annotated[int | None, doc("The HTTP status answered, if any.")]
    latency_ms: Annotated[float, doc("From sending to the whole answer (or the failure); 0 "
                                     "for an interrupted attempt.")]
    error: Annotated[str | None, doc("What went wrong, for people.")]
    at: Annotated[datetime, doc("When.")]


class DeliveryOut(msgspec.Struct):
    """One message owed to the subscription, with its attempts."""

    message_id: Annotated[str, doc("The `webhook-id` it is sent with (on every attempt).")]
    type: Annotated[EventType, doc("The message's type.")]
    game_id: Annotated[str, doc("The game.")]
    version: Annotated[int, doc("The game's version it tells of.")]
    created_at: Annotated[datetime, doc("When it was owed.")]
    delivered_at: Annotated[datetime | None, doc("When a receiver took it; null while owed.")]
    next_attempt_at: Annotated[datetime, doc("When it is (or was) due next.")]
    attempts: Annotated[list[DeliveryAttemptOut], doc("Every attempt, oldest first.")]


class DeliveryLog(msgspec.Struct):
    """The delivery log, newest first."""

    deliveries: Annotated[list[DeliveryOut], doc("Newest first.")]


class Redelivery(msgspec.Struct):
    """A message owed again."""

    message_id: Annotated[str, doc("The message's id.")]
    game_id: Annotated[str, doc("Its game.")]
