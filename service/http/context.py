"""What every route may depend on: the wired services, the caller, and a game's access facts.

A game's `games` row (kept in the same transaction as its log) says who sits where and
whether it is public; from it follows what the caller may see: their seat's view, the
spectator's, or nothing (403) for a private game they have no part in.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from litestar import Request
from litestar.datastructures import State
from litestar.handlers import HTTPRouteHandler
from litestar.params import HeaderParameter, ParameterKwarg

from service.http.api_settings import HttpSettings
from service.http.feeds import Feeds
from service.http.player_feeds import PlayerFeeds
from service.http.problems import forbidden, header, malformed, unauthorized
from service.pipeline import Pipeline
from service.players.directory import Player, PlayerDirectory
from service.projections.games import GameAccess
from service.projections.seat_views import MemoryViews
from service.receipts import Receipt, salt_of
from service.table.game import Game
from service.wiring.bootstrap import Services


@dataclass
class Runtime:
    """Everything the app holds for its lifetime (in `app.state.runtime`)."""

    services: Services
    players: PlayerDirectory
    feeds: Feeds
    player_feeds: PlayerFeeds
    settings: HttpSettings
    memory_views: MemoryViews | None = None  # set when this process is the only writer
    # Watchers' views of games with a spectator delay: past versions, folded from the log.
    delayed_views: MemoryViews = field(default_factory=lambda: MemoryViews(512))

    def receipt(self, game_id: str, version: int, chain_hash: str) -> Receipt | None:
        """The signed receipt for the log at `version` (None with receipts turned off)."""
        signer = self.services.receipts
        return None if signer is None else signer.receipt(game_id, version, chain_hash)

    def receipt_salt(self, game_id: str) -> str:
        """The game's receipt salt (hex), which its history publishes: with it anyone checks
        a receipt's `chain_seal` against the history's chain."""
        return salt_of(self.services.receipt_keys.seal_secret, game_id).hex()

    async def receipt_at(self, game_id: str, version: int) -> Receipt | None:
        """`receipt` for a version whose chain hash the caller does not hold: read from the
        log (None for version 0, before any event)."""
        if self.services.receipts is None or version <= 0:
            return None
        stored = await self.services.store.read_events(game_id, version - 1, version)
        return self.receipt(game_id, version, stored[-1].hash) if stored else None


def viewer_in(access: GameAccess, player: Player) -> int | None:
    """The caller's seat, None to watch as a spectator, or 403 for a private game."""
    seat = access.seat_of(player.player_id)
    if seat is None and not access.public and player.player_id != access.creator:
        raise forbidden("private_game", "This game is private to its players.")
    return seat


def seat_held(access: GameAccess, player: Player) -> int:
    """The caller's seat, or 403."""
    seat = access.seat_of(player.player_id)
    if seat is None:
        viewer_in(access, player)  # a private game: say so rather than "not seated"
        raise forbidden("not_seated", "You have no seat in this game.")
    return seat


async def seat_in(pipeline: Pipeline, game_id: str, player: Player) -> tuple[Game, int | None]:
    """The folded game and the caller's seat, from the pipeline's cache when it can be trusted.

    Seats change in the lobby (and by resignation); this process's cache sees its own writes,
    but another process's join may be missing, so an unseated answer in the lobby is checked
    on fresh state.
    """
    game = await pipeline.load(game_id)
    seat = game.lobby.seat_of(player.player_id) if game.lobby else None
    if seat is None and game.status == "lobby":  # after the deal nobody new sits down
        game = await pipeline.load(game_id, fresh=True)
        seat = game.lobby.seat_of(player.player_id) if game.lobby else None
    return game, seat


async def seated(pipeline: Pipeline, game_id: str, player: Player) -> tuple[Game, int]:
    """The folded game and the caller's seat (`seat_in`), or 403."""
    game, seat = await seat_in(pipeline, game_id, player)
    if seat is None:
        may_watch(game, player)
        raise forbidden("not_seated", "You have no seat in this game.")
    return game, seat


def may_watch(game: Game, player: Player) -> None:
    lobby = game.lobby
    if lobby is not None and not lobby.public and player.player_id != lobby.creator:
        raise forbidden("private_game", "This game is private to its players.")


# A request `authenticate` let through: `request.user` is the calling player.
Authed = Request[Player, None, State]


def runtime_of(request: Request[Any, Any, Any]) -> Runtime:
    return request.app.state["runtime"]  # type: ignore[no-any-return]


# The caller of a route that only reads a game, without a key: it watches public games.
WATCHER = Player("", "watcher", datetime.min.replace(tzinfo=UTC))


async def authenticate_or_watch(request: Request[Any, Any, Any]) -> None:
    """The `before_request` hook of the routes that only read a game: without an
    `Authorization` header the caller is an anonymous watcher (`WATCHER`: public games only,
    and no seat); a key that is sent must be a valid one."""
    if header(request, b"authorization") is None and request.scope["method"] == "GET":
        request.scope["user"] = WATCHER
        await refuse_unknown_query(request)
        return
    await authenticate(request)


async def authenticate(request: Request[Any, Any, Any]) -> None:
    """The `before_request` hook of every authenticated route: 401 without a known bearer key,
    else the calling player in `request.user` (where Litestar's auth middleware puts it).

    A hook, not a dependency: resolving a dependency (a signature model, a cleanup group, an
    exit stack) cost a tenth of a cached `GET /view`. It runs before the parameters and the
    body are read, so a call without a key gets 401 whatever else is wrong with it. Once the
    caller is known, a query parameter the operation does not take is a 400 (as an unknown
    body field is), before Litestar would silently ignore it.

    OPTIONS needs no key: it names a path's methods, which the published contract names too."""
    if request.scope["method"] == "OPTIONS":
        return
    token = _bearer(request)
    if not token:
        raise unauthorized()
    player = await runtime_of(request).players.by_key(token)
    if player is None:
        raise unauthorized("Unknown API key.")
    request.scope["user"] = player
    if request.scope["query_string"]:
        _refuse_unknown_query(request)


async def refuse_unknown_query(request: Request[Any, Any, Any]) -> None:
    """The `before_request` hook of the routes open without a key: only the unknown query
    parameter check of `authenticate`."""
    if request.scope["query_string"]:
        _refuse_unknown_query(request)


def _refuse_unknown_query(request: Request[Any, Any, Any]) -> None:
    """400 for a query parameter the operation does not take, as for an unknown body field: a
    misspelt filter (`?edtion=`) silently ignored would list the wrong games."""
    known = _query_names(request.route_handler)
    for name in request.query_params:
        if name not in known:
            takes = sorted(known - request.path_params.keys())
            raise malformed(request, "query", name, "Unknown query parameter; this operation "
                            f"takes: {', '.join(takes) or 'none'}", allowed=takes)


@functools.cache
def _query_names(handler: HTTPRouteHandler) -> frozenset[str]:
    """The handler's parameters that are neither headers nor cookies (path parameters are
    among them: harmless)."""
    return frozenset(
        kwarg.query or name
        for name, field in handler.parsed_fn_signature.parameters.items()
        if isinstance(kwarg := field.kwarg_definition, ParameterKwarg)
        and not (isinstance(kwarg, HeaderParameter) or kwarg.header or kwarg.cookie))


def _bearer(request: Request[Any, Any, Any]) -> str | None:
    scheme, _, token = (header(request, b"authorization") or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def rate_limit_identity(request: Request[Any, Any, Any]) -> str:
    """Limits count per player once its key is known to be one: this process created it or
    has seen it authenticate (the limiter runs before authentication, and cannot wait for the
    database). Every other request counts against its client address, so a made-up key buys
    no fresh quota."""
    token = _bearer(request)
    player = runtime_of(request).players.known(token) if token else None
    if player is not None:
        return "player:" + player.player_id
    client = request.client
    return "addr:" + (client.host if client else "unknown")
