"""Request and response bodies (msgspec), shared by the controllers and the OpenAPI document."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from litestar.params import Parameter

from service.domain import GameView, RuleSet
from service.domain.commands import SeatCommand
from service.events.codec import AnyEvent
from service.lobby import BotLevel, Controller, TimeoutPolicy

GameStatus = Literal["lobby", "playing", "finished"]


# Players.


# No control characters: a name is shown to other players, and PostgreSQL refuses a NUL in text.
# `(?![\s\S])` is the end of the string in Python and ECMAScript alike: Python's `$` would let
# a final newline through.
NO_CONTROLS = r"^[^\x00-\x1f\x7f-\x9f]*(?![\s\S])"


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=NO_CONTROLS)] = "player"


class PlayerOut(msgspec.Struct):
    player_id: str
    name: str
    created_at: datetime


class PlayerCreated(msgspec.Struct):
    player_id: str
    name: str
    api_key: str  # shown once: only its SHA-256 is stored


# Lobby.

# Opaque to clients (the server's are 32 hex digits); held to a safe alphabet so an id that
# could never exist is a 400 naming it, not a database error (PostgreSQL refuses a NUL).
GAME_ID_PATTERN = r"^[0-9A-Za-z_-]{1,64}$"  # a final newline slips past `$`: harmless here
GAME_ID = re.compile(GAME_ID_PATTERN)
GameId = Annotated[str, Parameter(pattern=GAME_ID_PATTERN,
                                  description="The game's id, as `POST /v1/games` gave it.")]

# Litestar leaves a falsy bound out of the document (`ge=0` gives no `minimum`), so these
# restate it (its msgspec plugin reads additions from `extra_json_schema["extra"]`).
SeatNo = Annotated[int, msgspec.Meta(ge=0, le=5, extra_json_schema={"extra": {"minimum": 0}})]


def version_query(description: str) -> Any:
    """A query parameter holding a game version."""
    return Parameter(ge=0, le=10**9, schema_extra={"minimum": 0}, description=description)


VERSION_DIGITS = "[0-9]{1,9}"  # a game version in a header; ASCII only (headers are Latin-1)
# An optional header is a string when sent and absent otherwise: Litestar documents `str | None`
# as "string or null", and a client (schemathesis did) sends null as the text `null`.
HEADER_SCHEMA: dict[str, Any] = {"one_of": None, "type": "string"}


class BotSpec(msgspec.Struct, forbid_unknown_fields=True):
    level: BotLevel = "random"
    seat: SeatNo | None = None  # None: the lowest open seat


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    """Seats not given to the creator (`join`) or to a bot stay open for human players."""

    ruleset: RuleSet
    join: bool = True  # the creator takes the lowest open seat
    bots: Annotated[list[BotSpec], msgspec.Meta(max_length=6)] = []
    turn_clock: Annotated[int, msgspec.Meta(ge=1, le=86_400)] | None = None  # seconds
    timeout_policy: TimeoutPolicy = TimeoutPolicy()
    public: bool = True


class JoinSeat(msgspec.Struct, forbid_unknown_fields=True):
    seat: SeatNo | None = None


class AddBotBody(msgspec.Struct, forbid_unknown_fields=True):
    level: BotLevel = "random"
    seat: SeatNo | None = None


class GameSummary(msgspec.Struct):
    game_id: str
    status: GameStatus
    creator: str
    public: bool
    ruleset: RuleSet
    players: int
    seats: list[Controller | None]
    turn_clock: int | None
    version: int
    awaiting: list[int]
    deadline: datetime | None
    created_at: datetime
    updated_at: datetime


class GameDetail(msgspec.Struct):
    summary: GameSummary
    view: GameView | None  # the spectator view, once the game has started


class GamePage(msgspec.Struct):
    games: list[GameSummary]
    next_cursor: str | None


# Play.


class ViewOut(msgspec.Struct):
    game_id: str
    version: int
    seat: int | None  # None: you watch as a spectator
    status: GameStatus
    awaiting: list[int]
    deadline: datetime | None  # when the pending decision times out (turn clock), if any
    view: GameView | None  # None before the game starts


class LegalCommands(msgspec.Struct):
    game_id: str
    version: int
    seat: int
    commands: list[SeatCommand]


class EventOut(msgspec.Struct):
    version: int
    event: AnyEvent


class CommandResult(msgspec.Struct):
    game_id: str
    version: int
    events: list[EventOut]  # as the caller may see them
    replayed: bool  # a repeated Idempotency-Key: the first result, nothing new happened
    committed: bool  # false for ?dry_run=true


class EventPage(msgspec.Struct):
    game_id: str
    version: int  # the game's current version
    events: list[EventOut]
    next_after: int  # pass as ?after= for the next page


class StateOut(msgspec.Struct):
    game_id: str
    version: int
    seat: int | None
    view: GameView | None


# Operations.


class Health(msgspec.Struct):
    status: Literal["ok", "unavailable"]
    checks: dict[str, str] = {}


Json = dict[str, Any]
