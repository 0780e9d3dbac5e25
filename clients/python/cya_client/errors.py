"""Every problem the API answers (`application/problem+json`) as an exception of its own.

`ProblemError` carries the problem's fields; each stable `code` has a subclass, so a bot can
write `except RuleViolation as e: ... e.legal_commands`. A code this client does not know yet
raises `ProblemError` itself.
"""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
import msgspec

from cya_client.models import UNSET, Command, ProblemBody

_commands = msgspec.json.Decoder(list[Command])


class ProblemError(Exception):
    """An error answer of the API. `code` is stable for programs; `detail` is for people."""

    CODE: ClassVar[str] = ""

    def __init__(self, problem: ProblemBody, *, retry_after: float | None = None,
                 legal_commands: list[Command] | None = None) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem
        self.code: str = problem.code
        self.status: int = problem.status
        self.title: str = problem.title
        self.type: str = problem.type
        self.detail: str = problem.detail
        self.rule: str | None = None if problem.rule is UNSET else problem.rule
        self.current_version: int | None = (
            None if problem.current_version is UNSET else problem.current_version)
        self.errors: list[dict[str, Any]] | None = (
            None if problem.errors is UNSET else problem.errors)
        #: With `rule_violation`: the commands you may send now, ready to post.
        self.legal_commands: list[Command] = legal_commands or []
        #: `Retry-After` of a 429 or 503, in seconds.
        self.retry_after = retry_after


class MalformedRequest(ProblemError):
    """400: a body or parameter that does not fit the schema; `errors` says where."""
    CODE = "malformed_request"


class Unauthorized(ProblemError):
    """401: no API key, or an unknown one."""
    CODE = "unauthorized"


class NotSeated(ProblemError):
    """403: another seat's resource, or a seat you no longer hold."""
    CODE = "not_seated"


class PrivateGame(ProblemError):
    """403: a private game you hold no seat in."""
    CODE = "private_game"


class NotCreator(ProblemError):
    """403: only the game's creator may do this (start it, add bots)."""
    CODE = "not_creator"


class GameNotFinished(ProblemError):
    """403: the history of a game that is still running."""
    CODE = "game_not_finished"


class GameNotStarted(ProblemError):
    """403: the history of a game not dealt yet (its client seeds are secret until then)."""
    CODE = "game_not_started"


class PrivateTournament(ProblemError):
    """403: a private tournament you neither created nor entered."""
    CODE = "private_tournament"


class TournamentNotFinished(ProblemError):
    """403: the verify of a tournament still running (its seeds are not revealed yet)."""
    CODE = "tournament_not_finished"


class SpectatorDelay(ProblemError):
    """403: as a watcher of a game with a spectator delay, the state of a version watchers may
    not see yet; `detail` names the latest you may read."""
    CODE = "spectator_delay"


class TournamentNotFound(ProblemError):
    """404: no tournament has this id."""
    CODE = "tournament_not_found"


class GameNotFound(ProblemError):
    """404: no game has this id."""
    CODE = "game_not_found"


class PlayerNotFound(ProblemError):
    """404: no player has this id."""
    CODE = "player_not_found"


class VersionNotFound(ProblemError):
    """404: the game has no such version."""
    CODE = "version_not_found"


class NotFound(ProblemError):
    """404: no such route."""
    CODE = "not_found"


class BotEndpointNotFound(ProblemError):
    """404: you have no bot endpoint."""
    CODE = "bot_endpoint_not_found"


class SubscriptionNotFound(ProblemError):
    """404: you have no webhook subscription with this id."""
    CODE = "subscription_not_found"


class MessageNotFound(ProblemError):
    """404: the subscription has no such message."""
    CODE = "message_not_found"


class TooManySubscriptions(ProblemError):
    """409: a player may have at most 10 webhook subscriptions."""
    CODE = "too_many_subscriptions"


class WebhookUrlRefused(ProblemError):
    """422: the service will not send to this URL (its scheme, user info, or an address that
    is private, loopback or link-local)."""
    CODE = "webhook_url_refused"


class MethodNotAllowed(ProblemError):
    """405: the path does not take this method."""
    CODE = "method_not_allowed"


class NotYourDecision(ProblemError):
    """409: the game waits for another seat."""
    CODE = "not_your_decision"


class StaleVersion(ProblemError):
    """409: `If-Match` named an old version; `current_version` is the new one."""
    CODE = "stale_version"


class IdempotencyKeyReused(ProblemError):
    """409: this `Idempotency-Key` came with another command in this game."""
    CODE = "idempotency_key_reused"


class BodyTooLarge(ProblemError):
    """413: the body is over the server's limit (64 KiB by default)."""
    CODE = "body_too_large"


class RuleViolation(ProblemError):
    """422: the rules refuse the command; `rule` names the rule, `legal_commands` what you may
    send instead."""
    CODE = "rule_violation"


class RateLimited(ProblemError):
    """429: over your rate limit; `retry_after` says how long to wait."""
    CODE = "rate_limited"


class TooManyReactions(ProblemError):
    """429: your seat sent a reaction less than 5 s ago (`retry_after` says how long to wait),
    or its 60 in this game (no `retry_after`: final)."""
    CODE = "too_many_reactions"


class InternalError(ProblemError):
    """500: a fault of the server's, not of the request; the server logs it."""
    CODE = "internal_error"


class DamagedLog(ProblemError):
    """500: the game's stored log cannot be read or replayed."""
    CODE = "damaged_log"


class DatabaseUnavailable(ProblemError):
    """503: the server's database cannot be reached (or is not migrated); retry later."""
    CODE = "database_unavailable"


class OwnChallenge(ProblemError):
    """403: you cannot accept your own challenge."""
    CODE = "own_challenge"


class NotChallenged(ProblemError):
    """403: the challenge is to another player (accept or decline)."""
    CODE = "not_challenged"


class NotChallenger(ProblemError):
    """403: only the challenger cancels a challenge."""
    CODE = "not_challenger"


class NotYourSeek(ProblemError):
    """403: the seek is another player's."""
    CODE = "not_your_seek"


class ChallengeNotOpen(ProblemError):
    """409: the challenge was accepted (by another), declined or cancelled already."""
    CODE = "challenge_not_open"


class OpenChallenge(ProblemError):
    """409: an open challenge cannot be declined: leave it to others."""
    CODE = "open_challenge"


class SeekNotWaiting(ProblemError):
    """409: the seek was matched already (its game is dealt)."""
    CODE = "seek_not_waiting"


class ChallengeYourself(ProblemError):
    """422: a challenge to yourself."""
    CODE = "challenge_yourself"


class SeatsMismatch(ProblemError):
    """422: a challenge seats two players and n − 2 bots, the challenger on the table."""
    CODE = "seats_mismatch"


BY_CODE: dict[str, type[ProblemError]] = {
    cls.CODE: cls for cls in ProblemError.__subclasses__() if cls.CODE}

_problem = msgspec.json.Decoder(ProblemBody)


def retry_after_of(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return max(float(value), 0.0) if value is not None else None
    except ValueError:
        return None


def problem_of(response: httpx.Response) -> ProblemError:
    """The exception for an error answer; one without a problem body becomes a bare
    `ProblemError` that names the status."""
    body = response.content
    try:
        problem = _problem.decode(body)
    except msgspec.DecodeError:
        problem = ProblemBody(code=f"http_{response.status_code}", status=response.status_code,
                              title=response.reason_phrase, type="about:blank",
                              detail=body[:200].decode("utf-8", "replace"))
    legal: list[Command] = []
    if problem.legal_commands:
        try:
            legal = _commands.decode(msgspec.json.encode(problem.legal_commands))
        except msgspec.ValidationError:
            legal = []
    cls = BY_CODE.get(problem.code, ProblemError)
    return cls(problem, retry_after=retry_after_of(response), legal_commands=legal)
