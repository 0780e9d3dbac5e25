"""Play: my view (ETag = version, long-poll), my legal commands, and posting a command."""

from __future__ import annotations

import time
from typing import Annotated, Any

import msgspec
from litestar import Controller, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIHeader, OpenAPIResponse, OpenAPIType, Schema
from litestar.params import Body, Parameter

from cya_rules import RuleCode, RuleViolation, legal_commands
from cya_rules.commands import SeatCommand
from cya_rules.table.seats import seat_of
from service.events.records import GameNotFound, redacted_for
from service.http import examples
from service.http.context import (
    Authed,
    Runtime,
    authenticate,
    authenticate_or_watch,
    may_watch,
    runtime_of,
    seat_in,
    seated,
)
from service.http.headers import IDEMPOTENCY_KEY, RawHeader, RawHeadersOperation
from service.http.problems import (
    forbidden,
    not_your_decision,
    problem_responses,
    rule_violation,
)
from service.http.raw import RawJson
from service.http.routes.games import command_id_of
from service.http.routes.turn import signed_turn
from service.http.schemas.events import EventOut
from service.http.schemas.parameters import VERSION_DIGITS, GameId, version_query
from service.http.schemas.play import CommandResult, LegalCommands, ViewOut
from service.players.directory import Player
from service.projections.games import decode_seats
from service.projections.seat_views import body_from_rows, recorded_version, view_rows
from service.table.game import Game
from service.table.turns import turn_of

_encode = msgspec.json.Encoder().encode
IF_MATCH = RawHeader(
    "If-Match", max_length=32, pattern=f'^((W/)?"?{VERSION_DIGITS}"?|\\*)$',
    description="The game version (the view's ETag) the command was decided on; a command "
                "on an older version is refused with 409 `stale_version`. `*` (any version, "
                "RFC 9110 §13.1.1) is the same as no If-Match.")
IF_NONE_MATCH = RawHeader(
    "If-None-Match", max_length=64,
    description="The view's ETag you already hold: 304 with no body while the game is still "
                "at that version.")


_PER_CALLER = ((b"cache-control", b"private, no-cache"), (b"vary", b"Authorization"))


def parse_version_tag(tag: str) -> int | None:
    """An If-Match value, already held to `IF_MATCH`'s pattern: 12, "12" or W/"12", or `*`
    (any version: None)."""
    return None if tag == "*" else int(tag.removeprefix("W/").strip('"'))


def _legal(game: Game, seat: int) -> list[SeatCommand]:
    if game.status != "playing" or game.state is None:
        return []
    return legal_commands(game.state, seat)


def _commands_json(commands: list[SeatCommand]) -> list[dict[str, Any]]:
    return msgspec.to_builtins(commands)  # type: ignore[no-any-return]


def _holds(seats: str, seat: int, player: Player) -> bool:
    """Whether the games row's `seats` still give `seat` to `player`."""
    return seat_of(decode_seats(seats), player.player_id) == seat


def none_match_holds(header: str, etag: str) -> bool:
    """Whether an If-None-Match value names the current version (so 304): compared weakly, as
    RFC 9110 §13.1.2 asks (W/"12" names version 12 too), and `*` names any version."""
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return etag in tags or "*" in tags


class ViewOperation(RawHeadersOperation):
    """`GET /view` reads If-None-Match itself, and documents the ETag of the 200 (its
    example's ResponseSpec has no room for headers)."""

    raw_headers = (IF_NONE_MATCH,)

    def __post_init__(self) -> None:
        super().__post_init__()
        ok = (self.responses or {}).get("200")
        if isinstance(ok, OpenAPIResponse):
            text = Schema(type=OpenAPIType.STRING)
            ok.headers = {
                "ETag": OpenAPIHeader(description='The game version, e.g. "12" (the same for '
                                                  'every seat: see Vary)', schema=text),
                "Cache-Control": OpenAPIHeader(description="`private, no-cache`: the view is "
                                                           "yours; revalidate with the ETag.",
                                               schema=text),
                "Vary": OpenAPIHeader(description="`Authorization`: each key sees its own "
                                                  "view.", schema=text)}


def _view_answer(view: tuple[int, bytes], if_none_match: str | None) -> RawJson:
    version, body = view
    etag = f'"{version}"'
    # Each seat's view of a version has that version's ETag: a cache must keep them apart
    # by key (Vary) and never share one (private).
    headers = ((b"etag", etag.encode()), *_PER_CALLER)
    if if_none_match is not None and none_match_holds(if_none_match, etag):
        return RawJson(b"", headers, status_code=304)
    return RawJson(body, headers)  # the bytes are a ViewOut already (projections.seat_views)


async def _watched(runtime: Runtime, game_id: str, wait_for_version: int | None,
                   timeout: float, at_least: int = 0) -> tuple[int, bytes]:
    """A watcher's view of a game with a spectator delay: the game as it stood that many
    events ago (its version is the ETag), waiting as a long poll does until that version
    reaches `wait_for_version`. Never older than `at_least`, a version the watcher was shown
    in full: the lobby's, where a watcher trails by nothing (the delay starts with the deal,
    which may come while it waits)."""
    pipeline = runtime.services.pipeline
    fresh = runtime.services.settings.catches_up_first
    game = await pipeline.load(game_id, fresh=fresh)
    if wait_for_version is not None:
        until = time.monotonic() + min(timeout, runtime.settings.long_poll_max_seconds)
        while (game.horizon(None) < wait_for_version and not game.over
               and (left := until - time.monotonic()) > 0):
            delay = game.version - game.horizon(None)  # 0 in the lobby, the delay after
            async with runtime.feeds.follow(game_id) as feed:
                await feed.wait_past(wait_for_version - 1 + delay, left)
            game = await pipeline.load(game_id, fresh=True)
    at = max(game.horizon(None), min(at_least, game.version))
    then = game if at == game.version else await pipeline.at_version(game_id, at)
    return at, runtime.delayed_views.body(then, None)


class CommandOperation(RawHeadersOperation):
    raw_headers = (IDEMPOTENCY_KEY, IF_MATCH)


class PlayController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["play"]
    before_request = staticmethod(authenticate)

    @get("/view", operation_id="getView", summary="Your view of the game",
         description="Your hand, every stack, the piles, the pending decision and its deadline. "
         "The ETag is the game version. Long-poll with `?wait_for_version=N&timeout=S`: the "
         "answer comes once the game reaches version N or ends, or after S seconds as it "
         "stands.",
         responses={200: examples.ok(ViewOut, "Seat 0, whose turn it is", "view",
                                     "Your view; the ETag header is its version."),
                    304: ResponseSpec(data_container=None, generate_examples=False,
                                      description="Not modified: `If-None-Match` names the "
                                                  "current version."),
                    **problem_responses(400, 401, 403, 404, 429)},
         operation_class=ViewOperation, before_request=authenticate_or_watch,
         opt={"waits": lambda request: "wait_for_version" in request.query_params})
    async def view(
        self, request: Authed, game_id: GameId,
        wait_for_version: Annotated[int | None, version_query(
            "Long poll: answer once the game reaches this version (or ends). Without it the "
            "view is answered at once.")] = None,
        timeout: Annotated[float, Parameter(
            ge=0, le=60, description="Long poll: answer as the game stands after this many "
            "seconds if it has not reached `wait_for_version`. The server caps it at its "
            "long-poll maximum (30 s unless configured otherwise).")] = 25.0,
    ) -> Response[ViewOut]:
        runtime, player = runtime_of(request), request.user
        if_none_match = IF_NONE_MATCH.read(request)
        game, seat = await seat_in(runtime.services.pipeline, game_id, player)
        if seat is None:
            may_watch(game, player)
            if game.lobby is not None and game.lobby.spectator_delay:  # a delayed watcher
                # Also in the lobby: the game may start while this reads (or waits).
                delayed = await _watched(runtime, game_id, wait_for_version, timeout,
                                         at_least=game.version if game.status == "lobby"
                                         else 0)
                return _view_answer(delayed, if_none_match)
        seen = game.version
        if (wait_for_version is not None and game.version < wait_for_version
                and not game.over):  # a game that is over has no later version
            wait = min(timeout, runtime.settings.long_poll_max_seconds)
            async with runtime.feeds.follow(game_id) as feed:
                await feed.wait_past(wait_for_version - 1, wait)
                seen = feed.version
        services = runtime.services
        if runtime.memory_views is not None and services.pipeline.cache is not None:
            if wait_for_version is not None:
                game = await services.pipeline.load(game_id)
                if game.version < seen:  # the feed read a commit the cache has yet to take
                    game = await services.pipeline.load(game_id, fresh=True)
            version, body = game.version, runtime.memory_views.body(game, seat)
        else:
            rows = await view_rows(services.store, game_id, seat)
            if seat is not None and rows and not _holds(rows[0].seats, seat, player):
                # Another process handed the seat to a bot since this one's cache looked: the
                # caller watches now (the rows hold the spectator's view too).
                seat = None
                may_watch(game, player)
            found = body_from_rows(game_id, seat, rows)
            if found is None:
                raise GameNotFound(game_id)
            version, body = found
        return _view_answer((version, body), if_none_match)

    @get("/legal-commands", operation_id="getLegalCommands",
         summary="Every command you may send now, each ready to post",
         responses={200: examples.ok(LegalCommands, "Seat 0 to act", "legal",
                                     "Your legal commands (none while the game waits for "
                                     "another seat)."),
                    **problem_responses(400, 401, 403, 404, 429)})
    async def legal(self, request: Authed, game_id: GameId) -> LegalCommands:
        runtime, player = runtime_of(request), request.user
        game, seat = await seated(runtime.services.pipeline, game_id, player)
        recorded = await recorded_version(runtime.services.store, game_id)
        if recorded is not None and game.version < recorded:  # another process moved it on
            game = await runtime.services.pipeline.load(game_id, fresh=True)
            if not game.held_by(seat, player.player_id):
                raise forbidden("not_seated", "The seat is no longer yours.")
        commands = _legal(game, seat)
        return LegalCommands(game_id, game.version, seat, commands)

    @post("/commands", operation_id="postCommand", summary="Send one command",
          description="Returns the events it caused, as you may see them, and the new version. "
          "`Idempotency-Key` makes a retry return the first result; `If-Match` refuses the "
          "command if the game moved on; `?dry_run=true` decides without committing.",
          status_code=200, responses={
              200: examples.ok(CommandResult, "A set formed: seat 0 sees its own draw", "command",
                               "The events your command caused, as you may see them."),
              **problem_responses(400, 401, 403, 404, 409, 413, 422, 429)},
          operation_class=CommandOperation)
    async def command(
        self, request: Authed, game_id: GameId,
        data: Annotated[SeatCommand, Body(examples=examples.COMMAND)],
        dry_run: Annotated[bool, Parameter(
            description="Decide the command and answer what it would cause, without "
                        "committing it, as far as it follows from what you can see (see "
                        "`partial` in the answer). Decided on the game as it is now: an "
                        "`Idempotency-Key` is ignored.")] = False,
        turn: Annotated[bool, Parameter(
            description="Also answer your turn after the command (`turn`: your view and legal "
                        "commands, as `GET /turn?timeout=0` would), saving that request.")
        ] = False,
    ) -> Response[CommandResult]:
        runtime, player = runtime_of(request), request.user
        pipeline = runtime.services.pipeline
        idempotency_key = IDEMPOTENCY_KEY.read(request)
        if_match = IF_MATCH.read(request)
        expected = parse_version_tag(if_match) if if_match is not None else None
        _, seat = await seated(runtime.services.pipeline, game_id, player)
        try:
            outcome = await pipeline.play(game_id, seat, data,
                                          command_id_of(player, idempotency_key), expected,
                                          actor=f"player:{player.player_id}",
                                          player_id=player.player_id, dry_run=dry_run)
        except RuleViolation as exc:
            if exc.code == RuleCode.NOT_SEATED:  # handed to a bot since we looked (another process)
                raise rule_violation(exc) from None
            game = await pipeline.load(game_id, fresh=True)
            if game.status == "playing" and game.state is not None:
                awaiting = game.state.pending_seats()
                if seat not in awaiting:
                    raise not_your_decision(awaiting) from None
            raise rule_violation(exc, _commands_json(_legal(game, seat))) from None
        # A dry run must not become a peek at the draw pile: uncommitted draws (and deals) are
        # shown as their public shadow, as a spectator would see them. (What depends on other
        # hidden cards it does not show at all: `domain.preview`.)
        viewer = seat if outcome.committed else None
        events = [EventOut(s.version, redacted_for(s, viewer)) for s in outcome.events]
        receipt = None
        if outcome.committed:  # a dry run stored nothing: there is nothing to sign
            last = outcome.events[-1] if outcome.events else None
            receipt = (runtime.receipt(game_id, last.version, last.hash)
                       if last is not None and last.version == outcome.version
                       else await runtime.receipt_at(game_id, outcome.version))
        after = None
        if turn and outcome.committed:
            game = await pipeline.load(game_id)  # cached as committed (or past it: bots moved)
            after = signed_turn(runtime, game, turn_of(game, seat))
        # Encoded here: Litestar's encoding of a returned Struct costs more (2.6 µs).
        return RawJson(_encode(CommandResult(game_id, outcome.version, events, outcome.replayed,
                                             outcome.committed, outcome.partial, receipt, after)))
