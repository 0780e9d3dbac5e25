"""The lobby: create, list and read games; join, add bots, start, leave, resign."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, Response, get, post
from litestar.openapi.spec import OpenAPIHeader, OpenAPIResponse, OpenAPIType, Operation, Schema
from litestar.params import Body, HeaderParameter, Parameter

from cya_rules import EndMode, GameView, RuleSet, RuleViolation, spectator_view
from cya_rules.cards import Edition
from cya_rules.table.lobby import Lobby
from cya_rules.table.seats import BotSeat, HumanSeat, SeatHolder, TimeoutPolicy
from service.http import examples
from service.http.context import (
    WATCHER,
    Authed,
    Runtime,
    authenticate,
    authenticate_or_watch,
    runtime_of,
    seat_held,
    viewer_in,
)
from service.http.headers import IDEMPOTENCY_KEY
from service.http.openapi import OptionalBodyOperation
from service.http.problems import Problem, malformed, problem_responses, unauthorized
from service.http.schemas.games import (
    AddBotBody,
    ClientSeedBody,
    GameDetail,
    GamePage,
    GameSummary,
    JoinSeat,
    NewGame,
)
from service.http.schemas.parameters import GAME_ID, HEADER_SCHEMA, GameId
from service.http.schemas.ratings import RatingChange
from service.pipeline import Outcome
from service.players.directory import Player, names_of
from service.projections.games import (
    GameAccess,
    LobbyFilter,
    game_access,
    lobby_page,
    spectator_view_json,
)
from service.projections.leaderboard import changes_of
from service.projections.ratings import ordinal
from service.table.clock import deadline
from service.table.game import Game
from service.table.lobby_commands import (
    AddBot,
    CreateGame,
    LeaveSeat,
    SetClientSeed,
    Start,
    TakeSeat,
)
from service.table.turns import GameStatus, ratings_state

IdempotencyKey = Annotated[str | None, HeaderParameter(  # `POST /commands` reads it raw
    name=IDEMPOTENCY_KEY.name, required=False, min_length=IDEMPOTENCY_KEY.min_length,
    max_length=IDEMPOTENCY_KEY.max_length,
    schema_extra=HEADER_SCHEMA, description=IDEMPOTENCY_KEY.description,
)]


def command_id_of(player: Player, key: str | None) -> str | None:
    """The pipeline's command id for a client's Idempotency-Key: scoped to its player, so two
    players of a game who pick the same key (a counter, say) never meet, and no client can
    claim an id the workers derive for a bot's move or an expired clock (`due:...`) and so
    stop that decision from ever being taken."""
    return None if key is None else f"player:{player.player_id}:{key}"


_rules = msgspec.json.Decoder(RuleSet)
_view = msgspec.json.Decoder(GameView)
_policy = msgspec.json.Decoder(TimeoutPolicy)
_invited = msgspec.json.Decoder(list[str | None])
_json = msgspec.json.Encoder().encode
WRITE_PROBLEMS = problem_responses(400, 401, 403, 404, 409, 413, 422, 429)


def people(game: GameAccess | Lobby) -> list[str]:
    """The player ids a game's summary names: its creator, its human seats' and those its kept
    seats wait for (a rematch's)."""
    invited = game.invited if isinstance(game, Lobby) else _invited.decode(game.row.invited)
    return ([game.creator] + [s.player_id for s in game.seats if isinstance(s, HumanSeat)]
            + [p for p in invited if p is not None])


def _named(game: GameAccess | Lobby, names: dict[str, str]) -> dict[str, str]:
    """The game's `people` with their names, from `names` (which may hold other games')."""
    return {p: names[p] for p in people(game) if p in names}


def summary(access: GameAccess, names: dict[str, str],
            changes: dict[str, list[Any]] | None = None) -> GameSummary:
    """`changes`: rating changes by game (`leaderboard.changes_of`), for rated games."""
    r = access.row
    counted = (changes or {}).get(r.game_id)
    return GameSummary(
        game_id=r.game_id, status=r.status, creator=r.creator, public=r.public,
        ruleset=_rules.decode(r.ruleset), players=r.players, seats=access.seats,
        names=_named(access, names),
        turn_clock=r.turn_clock, timeout_policy=_policy.decode(r.timeout_policy),
        spectator_delay=r.spectator_delay, rated=r.rated,
        rating_changes=[rating_change(c) for c in counted] if counted else None,
        ratings=ratings_state(r.rated, r.status, counted=bool(counted)),
        invited=_invited.decode(r.invited), rematch_of=r.rematch_of, rematch=r.rematch,
        end_reason=r.end_reason, version=r.version, awaiting=access.awaiting,
        deadline=access.deadline, created_at=r.created_at, updated_at=r.updated_at,
    )


async def _summary_for(runtime: Runtime, player: Player, access: GameAccess,
                       names: dict[str, str], changes: dict[str, list[Any]]) -> GameSummary:
    """The summary the caller may see: a watcher of a game with a spectator delay gets it as
    of that many events ago (its version, whose decision, the clock), as the table's view."""
    at = access.horizon(access.seat_of(player.player_id))
    if at == access.version:
        return summary(access, names, changes)
    return game_summary(await runtime.services.pipeline.at_version(access.game_id, at), names)


def rating_change(row: Any) -> RatingChange:
    return RatingChange(row.seat, row.identity, row.family, row.rank,
                        ordinal(row.mu_before, row.sigma_before),
                        ordinal(row.mu_after, row.sigma_after))


def game_summary(game: Game, names: dict[str, str]) -> GameSummary:
    """The summary of a folded game: what `summary` reads from its games row."""
    lobby, state = game.lobby, game.state
    assert lobby is not None and state is not None and game.created_at is not None
    pending = game.pending_seat()
    return GameSummary(
        game_id=game.game_id, status=GameStatus(game.status), creator=lobby.creator,
        public=lobby.public,
        ruleset=state.ruleset, players=state.players, seats=list(lobby.seats),
        names=_named(lobby, names),
        turn_clock=lobby.turn_clock, timeout_policy=lobby.timeout_policy,
        spectator_delay=lobby.spectator_delay, rated=lobby.rated, rating_changes=None,
        ratings=ratings_state(lobby.rated, game.status),  # not read here: at most pending
        invited=list(lobby.invited), rematch_of=lobby.rematch_of, rematch=lobby.rematch,
        end_reason=lobby.end_reason, version=game.version,
        awaiting=[pending[0]] if pending else [], deadline=deadline(game),
        created_at=game.created_at, updated_at=game.updated_at or game.created_at,
    )


class SeatPlanError(ValueError):
    """A new game's seats contradict its rule set: `key` names the field."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def seat_plan(data: NewGame, creator: str) -> tuple[SeatHolder | None, ...]:
    """Bots with a seat number first, then the creator, then the other bots, lowest seat first.
    A plan that does not fit the table is the body contradicting itself (400, as a rule set's
    own contradictions are), not a rule of the game refusing it."""
    n = data.ruleset.players
    seats: list[SeatHolder | None] = [None] * n
    for i, bot in enumerate(data.bots):
        if bot.seat is None:
            continue
        if bot.seat >= n or seats[bot.seat] is not None:
            raise SeatPlanError(f"bots[{i}].seat", f"Seat {bot.seat} is not free in a "
                                f"{n}-seat game.")
        seats[bot.seat] = BotSeat(bot.level)
    wanted: list[SeatHolder] = [HumanSeat(creator)] if data.join else []
    wanted += [BotSeat(b.level) for b in data.bots if b.seat is None]
    for controller in wanted:
        if None not in seats:
            raise SeatPlanError("bots", f"The creator and the bots take more than the rule "
                                f"set's {n} seats.")
        seats[seats.index(None)] = controller
    return tuple(seats)


def _cursor(token: str | None) -> tuple[datetime, str] | None:
    if token is None:
        return None
    try:
        at, _, game_id = base64.urlsafe_b64decode(token.encode()).decode().partition("|")
        after = datetime.fromisoformat(at)
        if after.tzinfo is not None and GAME_ID.match(game_id):
            # In UTC, as the cursors given out are: a forged offset that takes the instant
            # past year 1 or 9999 is refused here, not by asyncpg as a 500.
            return after.astimezone(UTC), game_id
    except (binascii.Error, ValueError, UnicodeDecodeError, OverflowError):
        pass
    raise Problem(400, "malformed_request", "Not a cursor this API gave out.")


async def _after_check(check: Callable[[], object], command_id: str | None,
                       run: Callable[[], Awaitable[Outcome]]) -> Outcome:
    """`run` once the caller passes the access `check`. A retry with an Idempotency-Key gets
    its first result even where that result took the access away (a resignation, leaving a
    private game): the pipeline answers a repeated command id with the first outcome, and is
    asked before the refusal stands."""
    try:
        check()
    except Problem as refused:
        if command_id is None:
            raise
        try:
            return await run()
        except RuleViolation:
            raise refused from None
    return await run()


@dataclass
class CreatedOperation(Operation):
    """`POST /v1/games` answers with the new game's address (Litestar's own documentation of
    a response header has no room for its schema)."""

    def __post_init__(self) -> None:
        created = (self.responses or {}).get("201")
        if isinstance(created, OpenAPIResponse):
            created.description = "The game, created."
            created.headers = {"Location": OpenAPIHeader(
                description="The new game: `/v1/games/{game_id}`.", required=True,
                schema=Schema(type=OpenAPIType.STRING))}


class GamesController(Controller):
    path = "/v1/games"
    tags = ["lobby"]
    before_request = staticmethod(authenticate)

    @post("/", operation_id="createGame", summary="Create a game", status_code=201,
          responses=problem_responses(400, 401, 409, 413, 422, 429),
          operation_class=CreatedOperation)
    async def create_game(self, request: Authed,
                          data: Annotated[NewGame, Body(examples=examples.NEW_GAME)],
                          idempotency_key: IdempotencyKey = None) -> Response[GameSummary]:
        runtime, player = runtime_of(request), request.user
        try:
            seats = seat_plan(data, player.player_id)
        except SeatPlanError as exc:
            raise malformed(request, "body", exc.key, str(exc)) from None
        command = CreateGame(data.ruleset, seats, data.turn_clock,
                             data.timeout_policy.policy(), data.public, data.spectator_delay,
                             data.rated, client_seed=data.client_seed if data.join else None)
        outcome = await runtime.services.pipeline.create_game(
            command, player.player_id, command_id_of(player, idempotency_key))
        return Response(await self._answer(runtime, outcome), status_code=201,
                        headers={"Location": f"/v1/games/{outcome.game_id}"})

    @get("/", operation_id="listGames", summary="The lobby: public games, newest first",
         description="With `mine=true`, your games instead: the ones you hold a seat in or "
                     "created, private ones included. Open without a key (public games).",
         responses=problem_responses(400, 401, 429), before_request=authenticate_or_watch)
    async def list_games(
        self, request: Authed,
        mine: Annotated[bool, Parameter(
            description="Only games you hold a seat in or created, public or private (a "
                        "seat you resigned is the bot's).")] = False,
        status: Annotated[GameStatus | None, Parameter(
            description="Only games in this state: `lobby` ones have not started (a null in"
                        " a game's `seats` is a free seat).")] = None,
        edition: Annotated[Edition | None, Parameter(
            description="Only games of this edition (`GET /v1/rulesets` lists them).")] = None,
        end_mode: Annotated[EndMode | None, Parameter(
            description="Only games that end this way.")] = None,
        players: Annotated[int | None, Parameter(
            ge=2, le=6, description="Only games with this many seats.")] = None,
        cursor: Annotated[str | None, Parameter(
            max_length=200, description="The previous page's `next_cursor`, for the page "
                                        "after it.")] = None,
        limit: Annotated[int, Parameter(ge=1, le=100,
                                        description="At most this many games.")] = 20,
    ) -> GamePage:
        runtime, player = runtime_of(request), request.user
        if mine and player is WATCHER:
            raise unauthorized("Your games need your key: send `Authorization: Bearer <key>`.")
        store = runtime.services.store
        which = LobbyFilter(player.player_id if mine else None, status, edition, end_mode,
                            players)
        async with store.read() as conn:
            found, more = await lobby_page(store, conn, which, after=_cursor(cursor),
                                           limit=limit)
            names = await names_of(conn, (p for access in found for p in people(access)))
            changes = await changes_of(conn, (a.game_id for a in found if a.row.rated))
        page = [await _summary_for(runtime, player, access, names, changes) for access in found]
        next_cursor = None
        if more and found:
            last = found[-1].row
            token = f"{last.created_at.isoformat()}|{last.game_id}"
            next_cursor = base64.urlsafe_b64encode(token.encode()).decode()
        return GamePage(page, next_cursor)

    @get("/{game_id:str}", operation_id="getGame", summary="A game's summary and spectator view",
         description="Open without a key (public games). A watcher of a game with a "
                     "spectator delay sees its view that many events behind.",
         responses=problem_responses(400, 401, 403, 404, 429),
         before_request=authenticate_or_watch)
    async def get_game(self, request: Authed, game_id: GameId) -> GameDetail:
        runtime, player = runtime_of(request), request.user
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, game_id)
            if access.status != "lobby":  # before the deal a private game's id invites:
                viewer_in(access, player)  # its summary shows what joining means
            raw = await spectator_view_json(conn, game_id)
            names = await names_of(conn, people(access))
            changes = await changes_of(conn, [game_id] if access.row.rated else [])
        view = _view.decode(raw) if raw is not None and access.status != "lobby" else None
        at = access.horizon(access.seat_of(player.player_id))
        if at < access.version:  # a watcher, behind by the delay: the game as it stood then
            then = await runtime.services.pipeline.at_version(game_id, at)
            view = spectator_view(then.state) if then.state and then.status != "lobby" else None
            return GameDetail(game_summary(then, names), view)
        return GameDetail(summary(access, names, changes), view)

    @post("/{game_id:str}/seats", operation_id="joinGame", summary="Take a seat",
          status_code=200, responses=WRITE_PROBLEMS, operation_class=OptionalBodyOperation)
    async def join(self, request: Authed, game_id: GameId,
                   data: Annotated[JoinSeat | None, Body(examples=examples.JOIN)] = None,
                   idempotency_key: IdempotencyKey = None) -> GameSummary:
        runtime, player = runtime_of(request), request.user
        body = data or JoinSeat()
        return await self._lobby(runtime, game_id, TakeSeat(body.seat, body.client_seed), player,
                                 idempotency_key)

    @post("/{game_id:str}/client-seed", operation_id="setClientSeed",
          summary="Set or replace your seat's client seed, before the deal", status_code=200,
          description="Your seat's contribution to the deal's randomness (docs/fair-shuffle.md"
                      " §7): secret until the deal, then named by `game_started`. After the "
                      "deal: 422, rule `already_started`.", responses=WRITE_PROBLEMS)
    async def set_client_seed(self, request: Authed, game_id: GameId, data: ClientSeedBody,
                              idempotency_key: IdempotencyKey = None) -> GameSummary:
        runtime, player = runtime_of(request), request.user
        return await self._lobby(runtime, game_id, SetClientSeed(data.seed), player,
                                 idempotency_key)

    @post("/{game_id:str}/bots", operation_id="addBot", summary="Seat a bot (creator only)",
          status_code=200, responses=WRITE_PROBLEMS, operation_class=OptionalBodyOperation)
    async def add_bot(self, request: Authed, game_id: GameId,
                      data: Annotated[AddBotBody | None, Body(examples=examples.BOT)] = None,
                      idempotency_key: IdempotencyKey = None) -> GameSummary:
        runtime, player = runtime_of(request), request.user
        body = data or AddBotBody()
        return await self._lobby(runtime, game_id, AddBot(body.level, body.seat), player,
                                 idempotency_key)

    @post("/{game_id:str}/start", operation_id="startGame",
          summary="Deal (creator only; every seat taken)", status_code=200,
          responses=WRITE_PROBLEMS)
    async def start(self, request: Authed, game_id: GameId,
                    idempotency_key: IdempotencyKey = None) -> GameSummary:
        runtime, player = runtime_of(request), request.user
        return await self._lobby(runtime, game_id, Start(), player, idempotency_key)

    @post("/{game_id:str}/leave", operation_id="leaveGame", summary="Give up your seat before "
          "the start", status_code=200, responses=WRITE_PROBLEMS)
    async def leave(self, request: Authed, game_id: GameId,
                    idempotency_key: IdempotencyKey = None) -> GameSummary:
        runtime, player = runtime_of(request), request.user
        return await self._lobby(runtime, game_id, LeaveSeat(), player, idempotency_key)

    @post("/{game_id:str}/resign", operation_id="resignGame",
          summary="Resign a running game: a bot plays your seat to the end", status_code=200,
          responses=WRITE_PROBLEMS)
    async def resign(self, request: Authed, game_id: GameId,
                     idempotency_key: IdempotencyKey = None) -> GameSummary:
        runtime, player = runtime_of(request), request.user
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, game_id)
        command_id = command_id_of(player, idempotency_key)
        return await self._answer(runtime, await _after_check(
            lambda: seat_held(access, player), command_id,
            lambda: runtime.services.pipeline.resign(game_id, player.player_id, command_id)))

    async def _lobby(self, runtime: Runtime, game_id: str, command: TakeSeat | AddBot | Start |
                     LeaveSeat | SetClientSeed, player: Player, key: str | None) -> GameSummary:
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, game_id)
        command_id = command_id_of(player, key)
        return await self._answer(runtime, await _after_check(
            # A private game's id is its invitation: anyone who has it may take a seat.
            lambda: isinstance(command, TakeSeat) or viewer_in(access, player), command_id,
            lambda: runtime.services.pipeline.lobby(game_id, command, player.player_id,
                                                    command_id)))

    async def _answer(self, runtime: Runtime, outcome: Outcome) -> GameSummary:
        return await answer(runtime, outcome)


async def answer(runtime: Runtime, outcome: Outcome) -> GameSummary:
    """The game after the command; for a repeated Idempotency-Key, as the first request
    left it (its first result), not as it is now."""
    if outcome.replayed:
        game = await runtime.services.pipeline.at_version(outcome.game_id, outcome.version)
        assert game.lobby is not None
        async with runtime.services.store.read() as conn:
            return game_summary(game, await names_of(conn, people(game.lobby)))
    async with runtime.services.store.read() as conn:
        access = await game_access(conn, outcome.game_id)
        return summary(access, await names_of(conn, people(access)))
