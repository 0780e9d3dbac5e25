"""A typed client for the Cover Your Assets game service, sync (`Client`) and async
(`AsyncClient`), and the `cya-bot` runner (`cya_client.bot`)."""

from cya_client import models
from cya_client.client import AsyncClient, Client
from cya_client.errors import (
    BodyTooLarge,
    DamagedLog,
    DatabaseUnavailable,
    GameNotFinished,
    GameNotFound,
    IdempotencyKeyReused,
    MalformedRequest,
    MethodNotAllowed,
    NotCreator,
    NotFound,
    NotSeated,
    NotYourDecision,
    PrivateGame,
    ProblemError,
    RateLimited,
    RuleViolation,
    StaleVersion,
    Unauthorized,
    VersionNotFound,
)
from cya_client.models import Command, Event, GameView, News, Pending, Turn
from cya_client.streams import StreamEvent, StreamLost
from cya_client.transport import NO_RETRIES, RetryPolicy

__all__ = [
    "NO_RETRIES",
    "AsyncClient",
    "BodyTooLarge",
    "Client",
    "Command",
    "DamagedLog",
    "DatabaseUnavailable",
    "Event",
    "GameNotFinished",
    "GameNotFound",
    "GameView",
    "IdempotencyKeyReused",
    "MalformedRequest",
    "MethodNotAllowed",
    "News",
    "NotCreator",
    "NotFound",
    "NotSeated",
    "NotYourDecision",
    "Pending",
    "PrivateGame",
    "ProblemError",
    "RateLimited",
    "RetryPolicy",
    "RuleViolation",
    "StaleVersion",
    "StreamEvent",
    "StreamLost",
    "Turn",
    "Unauthorized",
    "VersionNotFound",
    "models",
]
