"""The Litestar app: the one place the HTTP layer is wired (`create_app`)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
import threading
from collections.abc import Callable
from typing import Any, cast

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import MutableScopeHeaders
from litestar.logging.config import LoggingConfig
from litestar.middleware._internal.cors import CORSMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, License, SecurityScheme, Server, Tag
from litestar.types import ASGIApp, HTTPScope, Message

from service.events.migrate import schema_behind_of
from service.http.api_settings import HttpSettings, get_http_settings
from service.http.bodies import BodyRequest
from service.http.context import Runtime, rate_limit_identity
from service.http.feeds import Feeds
from service.http.metrics import LoopLagProbe, request_metrics
from service.http.openapi import DocumentedStructSchemaPlugin, finish_document
from service.http.player_feeds import PlayerFeeds
from service.http.problems import EXCEPTION_HANDLERS, allow_header
from service.http.rate_limit import (
    CountingRateLimitConfig,
    RedisWindows,
    counts_against_limit,
)
from service.http.routes.audit import AuditController
from service.http.routes.challenges import ChallengesController
from service.http.routes.follow import FollowController
from service.http.routes.games import GamesController
from service.http.routes.health import healthz, metrics, readyz
from service.http.routes.matchmaking import MatchmakingController
from service.http.routes.play import PlayController
from service.http.routes.players import PlayerNewsController, PlayersController
from service.http.routes.ratings import RatingsController
from service.http.routes.receipt_keys import list_receipt_keys
from service.http.routes.rematch import RematchController
from service.http.routes.rulesets import list_rulesets
from service.http.routes.talk import TalkController
from service.http.routes.tournaments import TournamentsController
from service.http.routes.turn import TurnController
from service.http.routes.webhooks import WebhooksController
from service.http.web import UNLIMITED, docs_render_plugins, web_router
from service.matchmaking.runner.pairing import PairingTicker
from service.pipeline.hooks import Scheduler
from service.players.directory import PlayerDirectory
from service.projections.seat_views import MemoryViews
from service.wiring.bootstrap import build, tune_gc
from service.wiring.paced_gc import PacedCollections
from service.wiring.settings import Settings, get_settings

log = logging.getLogger(__name__)


API_VERSION = "1.0.0"
DESCRIPTION = """\
Cover Your Assets as a service. Create a player (`POST /v1/players`) to get an API key and
send it as `Authorization: Bearer <key>` on every other call. Errors are RFC 9457
problem+json with a stable `code`. Requests are rate limited per API key (per client
address without a valid key); every answer of a route carries `RateLimit-Limit`,
`RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy`, and a 429 carries
`Retry-After`. Waiting calls (long polls, `GET /turn` with a timeout, event streams) spend
no quota. A bot's loop is two calls: `GET /v1/games/{game_id}/turn` (waits until the
decision is yours) and `POST /v1/games/{game_id}/commands`. This document is served at
`/docs/openapi.json`.
"""


TAGS = {
    "players": "Players and their API keys, and a player's own news across all its games.",
    "lobby": "Create, list and read games; take a seat, add bots, start, leave, resign.",
    "play": "Your view, your turn (view and legal commands in one read), and your commands.",
    "follow": "A game's log as you may see it: pages, or Server-Sent Events.",
    "audit": "A game's whole log, its state at any version, and its verification.",
    "rules": "The editions, rule options and rules versions the server plays.",
    "ratings": "Ratings of players and bot levels from rated games: the leaderboard, a player's "
               "page.",
    "webhooks": "Your bot endpoint (the server POSTs each of your decisions to it) and event "
                "webhooks for your games, signed per Standard Webhooks, with their delivery "
                "logs.",
    "ops": "Liveness, readiness and metrics, for operators; open and not rate limited.",
}


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title="Cover Your Assets", version=API_VERSION, description=DESCRIPTION,
        path="/docs", render_plugins=docs_render_plugins(),
        components=Components(security_schemes={
            "apiKey": SecurityScheme(type="http", scheme="bearer",
                                     description="The API key from POST /v1/players."),
        }),
        security=[{"apiKey": []}],
        servers=[Server(url="/")],
        tags=[Tag(name=name, description=text) for name, text in TAGS.items()],
        license=License(name="MIT", identifier="MIT"),
        use_handler_docstrings=False,
    )


class Api(Litestar):
    """Litestar, plus:

    - HEAD for every GET route (RFC 9110 §9.3.2: a general-purpose server must support it;
      uptime monitors probe with it): the GET's status and headers, no body. Litestar itself
      answers HEAD with 405 unless a route declares a bodiless HEAD handler.
    - An `Allow` header (on OPTIONS and, through `problems.allow_header`, on 405) that names
      every method of the path, HEAD included: Litestar's OPTIONS answer names only the
      methods of the first handler registered at the path (`GET /v1/games` was missing beside
      `POST`).
    - CORS only for requests that carry an `Origin` (browsers' requests).
    """

    def _create_asgi_handler(self) -> ASGIApp:
        # Litestar's CORS middleware copies every request's headers into a dict to look for
        # `Origin`. Every client that is not a browser paid for it: GET /view serves 11% more
        # without.
        cors = super()._create_asgi_handler()
        if not isinstance(cors, CORSMiddleware):
            return cors
        inner = cors.app

        async def cors_if_asked(scope: Any, receive: Any, send: Any) -> None:
            if any(name == b"origin" for name, _ in scope["headers"]):
                await cors(scope, receive, send)
            else:
                await inner(scope, receive, send)

        return cors_if_asked

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        method = scope["method"] if scope["type"] == "http" else None
        if method in (None, "GET", "POST"):
            await super().__call__(scope, receive, send)
        elif method == "HEAD":
            await self._head(scope, receive, send)
        elif method == "OPTIONS":
            await super().__call__(scope, receive, self._allowing(scope, send))
        else:
            await super().__call__(scope, receive, send)

    async def _head(self, scope: Any, receive: Any, send: Any) -> None:
        async def headers_only(message: Message) -> None:
            if message["type"] != "http.response.body":
                await send(message)
            elif not sent_end:
                sent_end.append(True)
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        sent_end: list[bool] = []
        await super().__call__(cast("HTTPScope", {**scope, "method": "GET"}), receive,
                               headers_only)

    @functools.cached_property
    def _methods(self) -> dict[str, set[str]]:
        """Every path template's methods, from all the routes at it."""
        found: dict[str, set[str]] = {}
        for route in self.routes:
            found.setdefault(route.path_format, set()).update(route.methods)
        return found

    def _allowing(self, scope: Any, send: Any) -> Any:
        """An OPTIONS answer's Allow, from every route at its path (a 405's is mended where
        it becomes a problem, `problems.allow_header`)."""
        async def send_allow(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableScopeHeaders.from_message(message)
                allow = headers.get("allow")
                if allow is not None:
                    headers["allow"] = allow_header(
                        self._methods.get(scope.get("path_template", ""))
                        or {m.strip() for m in allow.split(",")})
            await send(message)

        return send_allow


def create_app(
    settings: Settings | None = None,
    http: HttpSettings | None = None,
    *,
    scheduler: Scheduler | None = None,
) -> Litestar:
    """`scheduler` is the hook for due work (bot turns, clocks); None lets `build` choose."""
    settings = settings or get_settings()
    http = http or get_http_settings()
    services = build(settings, scheduler=scheduler, catch_up_first=settings.catches_up_first)
    feeds = Feeds(services.store, services.publisher, http.poll_fallback_seconds,
                  services.pipeline)
    # This process's commits reach its own streams without a read back (`Feeds.committed`).
    services.pipeline.hints.listeners += (feeds,)
    runtime = Runtime(services, PlayerDirectory(services.engine), feeds,
                      PlayerFeeds(services.publisher), http,
                      MemoryViews() if http.views_from_memory and not settings.redis_url
                      else None)

    restore: list[Callable[[], object]] = []
    pairing = PairingTicker(services.matchmaker.tick, settings.match_tick_s)
    lag_probe = LoopLagProbe(stall_log_s=http.stall_log_ms / 1000)
    collections = PacedCollections()

    async def startup(app: Litestar) -> None:
        # An operator who skipped the migrations learns it here, not from each request's
        # 500; readiness stays 503 until they run (a database out of reach: readiness too).
        with contextlib.suppress(Exception):
            behind = await asyncio.wait_for(schema_behind_of(services.engine), 5.0)
            if behind is not None:
                log.error("the database is not ready for this code: %s", behind)
        services.start()
        runtime.player_feeds.start()
        pairing.start()
        lag_probe.start()
        collections.start()
        restore.extend(_drain_streams_on_exit_signal(runtime.feeds, runtime.player_feeds))

    async def shutdown(app: Litestar) -> None:
        for undo in restore:
            undo()
        await lag_probe.close()
        await collections.close()
        await pairing.close()
        await runtime.feeds.close()
        await runtime.player_feeds.close()
        if shared is not None:
            await shared.close()
        await services.close()

    middleware: list[Any] = [request_metrics()]
    shared = RedisWindows(settings.redis_url) if settings.redis_url else None
    if http.rate_limit_per_minute > 0:
        middleware.append(CountingRateLimitConfig(
            rate_limit=("minute", http.rate_limit_per_minute),
            identifier_for_request=rate_limit_identity,
            check_throttle_handler=counts_against_limit,
            exclude=["/docs", "/v1/healthz", "/v1/readyz", "/v1/metrics"],
            exclude_opt_key=UNLIMITED,
            shared=shared,
        ).middleware)
    app = Api(
        cors_config=_cors(http.cors_origins),
        route_handlers=[PlayersController, PlayerNewsController, GamesController,
                        RematchController, TalkController,
                        PlayController, TurnController, FollowController, AuditController,
                        RatingsController, TournamentsController,
                         WebhooksController, ChallengesController, MatchmakingController,
                         list_rulesets, list_receipt_keys, healthz,
                        readyz, metrics,
                        web_router()],
        exception_handlers=EXCEPTION_HANDLERS,  # type: ignore[arg-type]
        request_class=BodyRequest,
        plugins=[DocumentedStructSchemaPlugin()],
        middleware=middleware,
        openapi_config=openapi_config(),
        request_max_body_size=http.max_body_bytes,
        on_startup=[startup],
        on_shutdown=[shutdown],
        # Litestar logs at INFO from the root down; httpx would add a line per webhook
        # delivery run in this process.
        logging_config=LoggingConfig(loggers={"httpx": {"level": "WARNING"}}),
    )
    app.state.runtime = runtime
    finish_document(app.openapi_schema)
    return app


def _cors(origins: tuple[str, ...]) -> CORSConfig | None:
    """Browser pages of the allowed origins may send the headers the API reads and read the
    ones it answers with (a browser hides any other from them)."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins), allow_methods=["GET", "POST", "DELETE"],
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-Match",
                       "If-None-Match", "Last-Event-ID"],
        expose_headers=["ETag", "Retry-After", "RateLimit-Policy", "RateLimit-Limit",
                        "RateLimit-Remaining", "RateLimit-Reset", "Cya-Receipt",
                        "Cya-Receipt-Salt"],
    )


def _drain_streams_on_exit_signal(feeds: Feeds, player_feeds: PlayerFeeds
                                  ) -> list[Callable[[], object]]:
    """uvicorn, on SIGTERM/SIGINT, waits for open requests to end before the lifespan
    shutdown runs, so open long polls and event streams held it for up to 30 s or for good.
    Chain onto the server's handler (installed before startup) to end them at once; the
    clients resume on another replica. Returns the undo steps."""
    if threading.current_thread() is not threading.main_thread():
        return []
    loop = asyncio.get_running_loop()
    undo: list[Callable[[], object]] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(sig)
        if not callable(previous):  # SIG_DFL / SIG_IGN: not under a server that drains
            continue

        def handler(signum: int, frame: Any, previous: Callable[..., Any] = previous) -> None:
            loop.call_soon_threadsafe(feeds.drain)
            loop.call_soon_threadsafe(player_feeds.drain)
            previous(signum, frame)

        signal.signal(sig, handler)
        undo.append(functools.partial(signal.signal, sig, previous))
    return undo


def app_from_env() -> Litestar:
    """uvicorn's factory: `uvicorn --factory service.http.app:app_from_env`."""
    tune_gc()
    return create_app()
