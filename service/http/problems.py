"""One mapping from every failure to RFC 9457 problem+json with a stable `code`.

Routes raise domain errors (or `Problem`); `exception_handlers` turns each class into one
problem shape. Nothing a client sends reaches the generic 500 handler: bad input is a 4xx, and
a database that cannot be reached is a 503 the client may retry.
"""

from __future__ import annotations

import logging
import math
from typing import Annotated, Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.plugins.problem_details import ProblemDetailsException

from cya_rules import RuleCode, RuleViolation
from cya_rules.commands import SeatCommand
from cya_rules.docs import doc
from cya_rules.table.talk import ReactionTooSoon
from service.events.backends import database_fault
from service.events.faults import Fault
from service.events.records import DamagedLog, GameNotFound, IdempotencyKeyReused, VersionConflict
from service.http.choices import choices_at
from service.matchmaking.challenges import ChallengeRefused
from service.matchmaking.runner.matchmaker import KeyReused, NotFound

log = logging.getLogger("cya.http")

PROBLEM_TYPE = "https://cya.example/problems/"
MEDIA_TYPE = "application/problem+json"


class ProblemBody(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Every error answer (`application/problem+json`, RFC 9457); `code` is stable for
    programs, `detail` is for people. A field that does not apply is left out."""

    type: Annotated[str, doc("A URI naming the kind of problem; it ends with `code`, hyphenated.")]
    title: Annotated[str, doc("The kind of problem in words, made from `code`.")]
    status: Annotated[int, doc("The HTTP status code.")]
    detail: Annotated[str, doc("What went wrong this time, for people; its wording may change.")]
    code: Annotated[str, doc("What went wrong, for programs: stable, e.g. `stale_version`.")]
    rule: Annotated[
        str | None, doc("With 422 `rule_violation`: the engine's code for the rule broken.")
    ] = None
    legal_commands: Annotated[
        list[SeatCommand] | None,
        doc("With 422 `rule_violation`: the commands you may send now, as `GET /legal-commands`"
            " lists them (always empty outside `POST /commands`)."),
    ] = None
    current_version: Annotated[
        int | None, doc("With 409 `stale_version`: the game's current version.")
    ] = None
    errors: Annotated[
        list[dict[str, Any]] | None,
        doc("With 400 `malformed_request`, when a parameter or the body failed validation: one"
            " object per failure, with `message` and, where known, `key` (the field),"
            " `source` (such as `body`, `query` or `header`) and, for a value outside a fixed"
            " set, `allowed` (the values the field takes)."),
    ] = None


_MAX_DETAIL = 300


class Problem(ProblemDetailsException):
    def __init__(self, status: int, code: str, detail: str, *,
                 headers: dict[str, str] | None = None, **extra: Any) -> None:
        if len(detail) > _MAX_DETAIL:  # it may quote the request: a 60 KB path, say
            detail = detail[:_MAX_DETAIL] + "…"
        super().__init__(
            status_code=status, detail=detail, headers=headers,
            type_=PROBLEM_TYPE + code.replace("_", "-"),
            title=code.replace("_", " ").capitalize(),
            extra={"code": code, **{k: v for k, v in extra.items() if v is not None}},
        )


def header(request: Request[Any, Any, Any], name: bytes) -> str | None:
    """A header's first value straight from the ASGI headers (names come lower-cased), without
    the case-insensitive copy of every header that `request.headers` builds."""
    for key, value in request.scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


# Failures the HTTP layer itself detects.
def unauthorized(detail: str = "Send `Authorization: Bearer <api key>`.") -> Problem:
    return Problem(401, "unauthorized", detail, headers={"WWW-Authenticate": "Bearer"})


def forbidden(code: str, detail: str) -> Problem:
    return Problem(403, code, detail)


def malformed(request: Request[Any, Any, Any], source: str, key: str, message: str,
              **more: Any) -> Problem:
    """The 400 Litestar gives for a parameter or body that fails validation."""
    url = request.url
    path = url.path + (f"?{url.query}" if url.query else "")
    return Problem(400, "malformed_request", f"Validation failed for {request.method} {path}",
                   errors=[{"message": message, "key": key, "source": source, **more}])


def not_your_decision(awaiting: tuple[int, ...]) -> Problem:
    return Problem(409, "not_your_decision",
                   f"The game waits for seat(s) {list(awaiting)}, not yours.")


# Refusals about who the caller is, not about the game's rules: 403 with the code as the
# routes that check them before the pipeline answer (a race past those checks, or a route that
# leaves the check to the lobby, must not answer differently).
_FORBIDDEN_RULES = frozenset({RuleCode.NOT_CREATOR, RuleCode.NOT_SEATED})


def rule_violation(exc: RuleViolation, legal: list[dict[str, Any]] | None = None) -> Problem:
    if isinstance(exc, ReactionTooSoon):  # a pace, not a rule of the game: come back later
        wait = {"Retry-After": str(math.ceil(exc.retry_after))} if exc.retry_after else None
        return Problem(429, "too_many_reactions", exc.message, headers=wait)
    if exc.code in _FORBIDDEN_RULES:
        return forbidden(exc.code, exc.message)
    return Problem(422, "rule_violation", exc.message, rule=exc.code,
                   legal_commands=legal if legal is not None else [])


# The statuses Litestar itself answers in this app (a body it cannot read, a route or method
# there is none of, a body too large, the rate limit); the README's table lists each code.
_HTTP_CODES = {
    400: "malformed_request", 401: "unauthorized", 404: "not_found",
    405: "method_not_allowed", 413: "body_too_large", 429: "rate_limited",
}


def allow_header(methods: set[str]) -> str:
    """An `Allow` header's value: HEAD beside every GET (the app answers it, see `Api`)."""
    return ", ".join(sorted(methods | {"HEAD"} if "GET" in methods else methods))


def _from_http(exc: HTTPException) -> Problem:
    status = exc.status_code
    code = _HTTP_CODES.get(status, "http_error" if status < 500 else "internal_error")
    headers = dict(exc.headers or {})
    detail = exc.detail or code.replace("_", " ")
    if status == 429:
        # RFC 9110: tell the client when to come back; the rate limiter's reset is exactly that.
        headers["Retry-After"] = headers.get("RateLimit-Reset", "1")
        detail = (f"Too many requests for your key's limit: retry after {headers['Retry-After']} "
                  "seconds (waiting calls, such as long polls and streams, do not count).")
    if status == 405 and "allow" in headers:  # as Litestar's routing names it
        headers["allow"] = allow_header({m.strip() for m in headers["allow"].split(",")})
    errors = exc.extra if status == 400 and isinstance(exc.extra, list) else None
    if status == 400 and errors is None and isinstance(exc.extra, dict):
        errors = [exc.extra]
    if errors:
        # To name the failing fields Litestar validates each again, and reports one that was
        # not sent (never an error: it has a default, such as an optional body) as the
        # KeyError `'<name>'`.
        errors = [e for e in errors if not (isinstance(e, dict)
                                            and e.get("message") == f"'{e.get('key')}'")]
    return Problem(status, code, detail, headers=headers or None, errors=errors)


# Why the database, not the request, is at fault (`service.events.faults`).
_FAULTS = {
    Fault.UNREACHABLE: "The database cannot be reached. Retry shortly; a command sent with an "
                       "Idempotency-Key may be resent safely, whether or not it took effect.",
    Fault.BUSY: "Every database connection of this server is busy. Retry shortly; a command "
                "sent with an Idempotency-Key may be resent safely, whether or not it took "
                "effect.",
    Fault.NOT_MIGRATED: "The database is not ready for this server (its schema is behind). "
                        "Retry later; nothing was done.",
}


def to_problem(exc: Exception) -> Problem:
    fault = database_fault(exc)
    if fault is not None:  # other database errors stay 500s: a bug of ours
        (log.error if fault is Fault.NOT_MIGRATED else log.warning)("database unavailable: %r",
                                                                    exc)
        return Problem(503, "database_unavailable", _FAULTS[fault],
                       headers={"Retry-After": "1"})
    match exc:
        case Problem():
            return exc
        case RuleViolation():
            return rule_violation(exc)
        case VersionConflict():
            return Problem(409, "stale_version",
                           f"The game is at version {exc.current}, not {exc.expected}.",
                           current_version=exc.current)
        case IdempotencyKeyReused():
            return Problem(409, "idempotency_key_reused",
                           "This Idempotency-Key was used for a different command.")
        case GameNotFound():
            return Problem(404, "game_not_found", "No such game.")
        case ChallengeRefused():
            return Problem(exc.status, exc.code, exc.message)
        case NotFound():
            return Problem(404, "not_found", "No such challenge or seek.")
        case KeyReused():
            return Problem(409, "idempotency_key_reused",
                           "This Idempotency-Key was used for a different request.")
        case DamagedLog():
            log.error("damaged log: %s", exc, exc_info=exc)
            return Problem(500, "damaged_log",
                           f"This game's stored log breaks at version {exc.version}: it cannot "
                           f"be read or replayed. GET /v1/games/{exc.game_id}/verify says what "
                           "is wrong; nothing was changed.")
        case HTTPException():
            return _from_http(exc)
    log.exception("unhandled error", exc_info=exc)
    return Problem(500, "internal_error", "Something went wrong on our side.")


def problem_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    problem = to_problem(exc)
    if isinstance(problem.extra, dict):
        for error in problem.extra.get("errors") or ():
            _name_choices(request, error)
    return problem.to_response(request)


def _name_choices(request: Request[Any, Any, Any], error: Any) -> None:
    """A refused enum value's error lists the values the field takes (`allowed`)."""
    if not (isinstance(error, dict) and str(error.get("message", "")).startswith("Invalid ")):
        return
    handler, key = request.scope.get("route_handler"), str(error.get("key", ""))
    if handler is None:
        return
    if error.get("source") == "body":
        field = handler.parsed_data_field
        path = "" if key == "data" else key
    else:
        field, path = handler.parsed_fn_signature.parameters.get(key), ""
    allowed = choices_at(field.annotation, path) if field is not None else None
    if allowed:
        error["allowed"] = allowed
        error["message"] += f"; allowed: {', '.join(allowed)}"


EXCEPTION_HANDLERS = {Exception: problem_handler, HTTPException: problem_handler}


def problem_responses(*statuses: int, database: bool = True) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the problems a route may answer with: those given, and 503 for a
    route that reads or writes the database."""
    return {
        s: ResponseSpec(
            data_container=ProblemBody, media_type=MEDIA_TYPE, generate_examples=False,
            description=_DESCRIPTIONS[s],
            examples=[Example(summary=_EXAMPLE_CODE[s], value={
                "type": PROBLEM_TYPE + _EXAMPLE_CODE[s].replace("_", "-"),
                "title": _EXAMPLE_CODE[s].replace("_", " ").capitalize(),
                "status": s, "detail": _DESCRIPTIONS[s], "code": _EXAMPLE_CODE[s]})],
        )
        for s in (*statuses, *[503] * database)
    }


_DESCRIPTIONS = {
    400: "Malformed request: the body or a parameter does not match the schema.",
    401: "Missing or unknown API key.",
    403: "Another seat's (or a private game's) resource.",
    404: "Unknown game.",
    409: "Not your decision, a stale If-Match version (with `current_version`), "
         "or a reused Idempotency-Key.",
    413: "Request body too large.",
    422: "Rule violation: `rule` is the engine's code, `legal_commands` what you may send.",
    429: "Rate limited: retry after `Retry-After` seconds.",
    503: "The database cannot be reached, or is not migrated for this server yet: retry "
         "after `Retry-After` seconds.",
}
_EXAMPLE_CODE = {400: "malformed_request", 401: "unauthorized", 403: "not_seated",
                 404: "game_not_found", 409: "stale_version", 413: "body_too_large",
                 422: "rule_violation", 429: "rate_limited", 503: "database_unavailable"}
