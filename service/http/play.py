"""Play: my view (ETag = version, long-poll), my legal commands, and posting a command."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import sqlalchemy as sa
from litestar import Controller, Response, get, post
from litestar.datastructures import ResponseHeader
from litestar.params import HeaderParameter, Parameter

from service.domain import RuleViolation, legal_commands
from service.domain.commands import SeatCommand
from service.events.store import redacted_for
from service.events.tables import SPECTATOR, game_views
from service.game import Game
from service.pipeline import Pipeline
from service.players import Player

from .context import GameAccess, Runtime, game_access
from .lobby import IdempotencyKey
from .problems import Problem, not_your_decision, problem_responses, rule_violation
from .schemas import CommandResult, EventOut, LegalCommands, ViewOut

_encode = msgspec.json.Encoder().encode
IfMatch = Annotated[str | None, HeaderParameter(
    name="If-Match", required=False, max_length=32,
    description="The game version (the view's ETag) the command was decided on; a command "
                "on an older version is refused with 409 `stale_version`.",
)]


def parse_version_tag(tag: str) -> int:
    raw = tag.strip().removeprefix("W/").strip('"')
    if not raw.isdigit() or len(raw) > 9:
        raise Problem(400, "malformed_request", "If-Match takes a game version, e.g. \"12\".")
    return int(raw)


async def current_game(pipeline: Pipeline, game_id: str, version: int) -> Game:
    """The folded game at least at `version` (the cache may lag another process's writes)."""
    game = await pipeline.load(game_id)
    return game if game.version >= version else await pipeline.load(game_id, fresh=True)


def _commands_json(commands: list[SeatCommand]) -> list[dict[str, Any]]:
    return msgspec.to_builtins(commands)  # type: ignore[no-any-return]


def _view_body(access: GameAccess, seat: int | None, version: int, raw: str | None) -> bytes:
    # The projection holds the exact JSON of the view: splice it in instead of re-encoding.
    head = _encode({
        "game_id": access.game_id, "version": version, "seat": seat, "status": access.status,
        "awaiting": msgspec.json.decode(access.row.pending_seats),
        "deadline": access.deadline,
    })
    view = raw.encode() if raw is not None and access.status != "lobby" else b"null"
    return head[:-1] + b',"view":' + view + b"}"


class PlayController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["play"]

    @get("/view", operation_id="getView", summary="Your view of the game",
         description="Your hand, every stack, the piles, the pending decision and its deadline. "
         "The ETag is the game version. Long-poll with `?wait_for_version=N&timeout=S`: the "
         "answer comes once the game reaches version N, or after S seconds as it stands.",
         response_headers=[ResponseHeader(name="ETag", description="The game version",
                                          documentation_only=True)],
         responses=problem_responses(400, 401, 403, 404, 429))
    async def view(
        self, runtime: Runtime, player: Player, game_id: str,
        wait_for_version: Annotated[int | None, Parameter(ge=0, le=10**9)] = None,
        timeout: Annotated[float, Parameter(ge=0, le=60)] = 25.0,
        if_none_match: Annotated[str | None, HeaderParameter(name="If-None-Match", required=False,
                                                       max_length=64)] = None,
    ) -> Response[ViewOut]:
        services = runtime.services
        async with services.store.read() as conn:
            access = await game_access(conn, game_id)
        seat = access.viewer(player)
        if wait_for_version is not None and access.version < wait_for_version:
            wait = min(timeout, runtime.settings.long_poll_max_seconds)
            async with runtime.feeds.follow(game_id) as feed:
                await feed.wait_past(wait_for_version - 1, wait)
        async with services.store.read() as conn:
            access = await game_access(conn, game_id)
            row = (await conn.execute(sa.select(game_views.c.version, game_views.c.view).where(
                game_views.c.game_id == game_id,
                game_views.c.viewer == (SPECTATOR if seat is None else seat)))).first()
        version = row.version if row is not None else access.version
        etag = f'"{version}"'
        if if_none_match is not None and etag in {t.strip() for t in if_none_match.split(",")}:
            return Response(content=b"", status_code=304, headers={"ETag": etag})
        return Response(content=_view_body(access, seat, version, row.view if row else None),
                        media_type="application/json", headers={"ETag": etag})

    @get("/legal-commands", operation_id="getLegalCommands",
         summary="Every command you may send now, each ready to post",
         responses=problem_responses(401, 403, 404, 429))
    async def legal(self, runtime: Runtime, player: Player, game_id: str) -> LegalCommands:
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, game_id)
        seat = access.seat(player)
        game = await current_game(runtime.services.pipeline, game_id, access.version)
        commands = legal_commands(game.state, seat) if game.status == "playing" else []
        return LegalCommands(game_id, game.version, seat, commands)  # type: ignore[arg-type]

    @post("/commands", operation_id="postCommand", summary="Send one command",
          description="Returns the events it caused, as you may see them, and the new version. "
          "`Idempotency-Key` makes a retry return the first result; `If-Match` refuses the "
          "command if the game moved on; `?dry_run=true` decides without committing.",
          status_code=200, responses=problem_responses(400, 401, 403, 404, 409, 413, 422, 429))
    async def command(
        self, runtime: Runtime, player: Player, game_id: str, data: SeatCommand,
        idempotency_key: IdempotencyKey = None, if_match: IfMatch = None,
        dry_run: bool = False,
    ) -> CommandResult:
        pipeline = runtime.services.pipeline
        expected = parse_version_tag(if_match) if if_match is not None else None
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, game_id)
        seat = access.seat(player)
        try:
            outcome = await pipeline.play(game_id, seat, data, idempotency_key, expected,
                                          actor=f"player:{player.player_id}", dry_run=dry_run)
        except RuleViolation as exc:
            game = await pipeline.load(game_id, fresh=True)
            if game.status == "playing":
                awaiting = game.state.pending_seats()  # type: ignore[union-attr]
                if seat not in awaiting:
                    raise not_your_decision(awaiting) from None
            legal = legal_commands(game.state, seat) if game.status == "playing" else []
            raise rule_violation(exc, _commands_json(legal)) from None  # type: ignore[arg-type]
        events = [EventOut(s.version, redacted_for(s, seat)) for s in outcome.events]
        return CommandResult(game_id, outcome.version, events, outcome.replayed,
                             outcome.committed)
