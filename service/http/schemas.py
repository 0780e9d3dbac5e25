"""Request and response bodies (msgspec), shared by the controllers and the OpenAPI document."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from litestar.params import Parameter

from service.domain import GameView, RuleSet
from service.domain.commands import SeatCommand
from service.domain.docs import doc
from service.http.tournament_bodies import NewTournament
from service.store.codec import AnyEvent
from service.table.lobby import RATED_DOC, SPECTATOR_DELAY_DOC
from service.table.seats import (
    HAND_OVER_AFTER_DOC,
    TIMEOUT_BOT_LEVEL_DOC,
    TIMEOUT_POLICY_DOC,
    BotLevel,
    SeatHolder,
    TimeoutPolicy,
)
from service.table.turns import RATINGS_DOC, RatingsState
from service.table.turns import GameStatus as GameStatus

# Players.


# A name is shown to other players: something visible, on one line, without control characters
# (PostgreSQL refuses a NUL in text). `(?![\s\S])` is the end of the string in Python and
# ECMAScript alike: Python's `$` would let a final newline through.
DISPLAY_NAME = r"^(?=[\s\S]*\S)[^\x00-\x1f\x7f-\x9f\u2028\u2029]*(?![\s\S])"


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    """The optional body of `POST /v1/players`: the new player's display name."""

    name: Annotated[
        str,
        msgspec.Meta(min_length=1, max_length=64, pattern=DISPLAY_NAME),
        doc("Display name, shown in `GET /v1/players/me` and in the summaries of your games:"
            " 1 to 64 characters, not all blank, no control characters or line breaks."),
    ] = "player"


RatingFamily = Literal["2p", "3-6p"]
_FAMILY = "Which games: `2p` (2-player games) or `3-6p` (3 to 6 players), rated apart."
_ORDINAL = ("The rating shown and ranked by: OpenSkill's ordinal, mu − 3 sigma (a conservative"
            " estimate; a new player starts at 0).")


class RatingOut(msgspec.Struct):
    """A rating in one family of games (OpenSkill, Plackett–Luce)."""

    family: Annotated[RatingFamily, doc(_FAMILY)]
    rating: Annotated[float, doc(_ORDINAL)]
    mu: Annotated[float, doc("The skill estimate's mean (25 at the start).")]
    sigma: Annotated[float, doc("Its uncertainty (25/3 at the start; shrinks with games).")]
    games: Annotated[int, doc("Rated games counted.")]


class PlayerOut(msgspec.Struct):
    """A player, as `GET /v1/players/me` (and, for anyone, `GET /v1/players/{player_id}`)
    returns it."""

    player_id: Annotated[str, doc("The player's id; a game names its creator and players by it.")]
    name: Annotated[str, doc("Display name.")]
    created_at: Annotated[datetime, doc("When the player was created.")]
    ratings: Annotated[list[RatingOut], doc(
        "Its ratings, one per family it played rated games in.")] = []


class PlayerCreated(msgspec.Struct):
    """A new player and its API key, as `POST /v1/players` returns it."""

    player_id: Annotated[str, doc("The player's id; a game names its creator and players by it.")]
    name: Annotated[str, doc("Display name.")]
    api_key: Annotated[
        str,
        doc("Send it as `Authorization: Bearer <key>`. Shown only this once: the server keeps"
            " only its SHA-256."),
    ]


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


# Descriptions the bodies below share.
_GAME_ID_DOC = "The game's id."
_SEAT = "Your seat; null: you watch as a spectator."
_BOT_LEVEL = ("How the bot plays: `random`, `greedy`, `expert` or `ismcts` (the strongest);"
              " GET /v1/rulesets describes each.")
_VERSION = "The game's version: the number of events in its log."
_AWAITING = "The seats whose decision the game waits for; empty when it waits for none."
_DEADLINE = ("When the pending decision times out (turn clock); null without a clock, for a"
             " bot's decision, or when no decision is pending.")
_PUBLIC = ("Listed in the lobby and open to spectators. A private game is open only to its"
           " creator and players; its id is the invitation to take a seat.")

# A constrained optional field carries its description inside the `| None`: described outside
# it, Litestar's document loses the constraints (`minimum`, `maximum`).


class BotSpec(msgspec.Struct, forbid_unknown_fields=True):
    """A bot to seat when creating a game: an item of `bots` in `POST /v1/games`."""

    level: Annotated[BotLevel, doc(_BOT_LEVEL)] = "random"
    seat: Annotated[
        SeatNo,
        doc("The seat to give it; null: the lowest seat still open once the bots given a seat"
            " number and the creator (`join`) sit down."),
    ] | None = None


class NewTimeoutPolicy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    __doc__ = TIMEOUT_POLICY_DOC

    bot_level: Annotated[BotLevel, doc(TIMEOUT_BOT_LEVEL_DOC)] = TimeoutPolicy().bot_level
    hand_over_after: Annotated[
        int, msgspec.Meta(ge=1, le=1_000), doc(HAND_OVER_AFTER_DOC)
    ] | None = TimeoutPolicy().hand_over_after

    def policy(self) -> TimeoutPolicy:
        return TimeoutPolicy(self.bot_level, self.hand_over_after)


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    """The body of `POST /v1/games`. Seats not given to the creator (`join`) or to a bot stay
    open for human players."""

    ruleset: Annotated[RuleSet, doc("How the game is played.")]
    join: Annotated[
        bool, doc("The creator takes a seat: the lowest one not given to a bot by number.")
    ] = True
    bots: Annotated[
        list[BotSpec],
        msgspec.Meta(max_length=6),
        doc("Bots to seat; with the creator they must fit in the rule set's seats."),
    ] = []
    turn_clock: Annotated[
        int,
        msgspec.Meta(ge=1, le=86_400),
        doc("Seconds a human seat has for each decision, 1 to 86,400; null: no clock."),
    ] | None = None
    timeout_policy: Annotated[
        NewTimeoutPolicy, doc("What happens when a human seat's decision is not taken in "
                              "time, and who plays a resigned seat.")
    ] = NewTimeoutPolicy()
    spectator_delay: Annotated[
        int, msgspec.Meta(ge=0, le=1_000), doc(SPECTATOR_DELAY_DOC + " 0 to 1,000.")
    ] = 0
    rated: Annotated[bool, doc(RATED_DOC)] = False
    public: Annotated[bool, doc(_PUBLIC)] = True


class JoinSeat(msgspec.Struct, forbid_unknown_fields=True):
    """The optional body of `POST /v1/games/{game_id}/seats`: the seat to take."""

    seat: Annotated[SeatNo, doc("The seat to take; null: the lowest open seat.")] | None = None


class AddBotBody(msgspec.Struct, forbid_unknown_fields=True):
    """The optional body of `POST /v1/games/{game_id}/bots` (creator only): the bot to seat."""

    level: Annotated[BotLevel, doc(_BOT_LEVEL)] = "random"
    seat: Annotated[
        SeatNo, doc("The seat to give it; null: the lowest open seat.")
    ] | None = None


class GameSummary(msgspec.Struct):
    """A game's seats, rules and progress: returned by `POST /v1/games` and the seat, bot,
    start, leave and resign routes, and listed by `GET /v1/games`."""

    game_id: Annotated[str, doc("The game's id, for the `/v1/games/{game_id}` routes.")]
    status: Annotated[
        GameStatus, doc("`lobby` before the deal (seats may be taken), `playing` or `finished`.")
    ]
    creator: Annotated[str, doc("The player id of the game's creator.")]
    public: Annotated[bool, doc(_PUBLIC)]
    ruleset: Annotated[RuleSet, doc("How the game is played.")]
    players: Annotated[int, doc("The number of seats.")]
    seats: Annotated[
        list[SeatHolder | None],
        doc("Who controls each seat, by seat number: a human player or a bot; null: open for a"
            " human player to take."),
    ]
    names: Annotated[
        dict[str, str],
        doc("The display names of the game's creator and of the players in `seats`, by "
            "player id."),
    ]
    turn_clock: Annotated[
        int | None, doc("Seconds a human seat has for each decision; null: no clock.")
    ]
    timeout_policy: Annotated[TimeoutPolicy, doc(TIMEOUT_POLICY_DOC)]
    spectator_delay: Annotated[int, doc(SPECTATOR_DELAY_DOC)]
    rated: Annotated[bool, doc(RATED_DOC)]
    rating_changes: Annotated[list[RatingChange] | None, doc(
        "Once a rated game is over and counted: what it did to each seat's rating; null "
        "before (`ratings`: `pending`), and for an unrated game.")]
    ratings: Annotated[RatingsState, doc(RATINGS_DOC)]
    invited: Annotated[list[str | None], doc(
        "Seats kept for invited players (a rematch's), by seat number: the player id, or null;"
        " empty when nobody was invited. Only that player may take a kept seat (`POST "
        "/seats`), or decline it (`POST /decline`), which opens it to anyone.")]
    rematch_of: Annotated[str | None, doc("The game this one is a rematch of; null if none.")]
    rematch: Annotated[str | None, doc(
        "The rematch one of its players asked for once it was over (`POST /rematch`); null "
        "if none.")]
    end_reason: Annotated[str | None, doc(
        "Why the game ended without a result (`expired`, `abandoned`); null otherwise.")]
    version: Annotated[int, doc(_VERSION)]
    awaiting: Annotated[list[int], doc(_AWAITING)]
    deadline: Annotated[datetime | None, doc(_DEADLINE)]
    created_at: Annotated[datetime, doc("When the game was created.")]
    updated_at: Annotated[datetime, doc("When its latest event was recorded.")]


class RatingChange(msgspec.Struct):
    """What a finished rated game did to one seat's rating."""

    seat: Annotated[int, doc("The seat.")]
    identity: Annotated[str, doc(
        "Who was rated: `player:<player id>` (the player who held the seat at the deal, also "
        "one who gave it up) or `bot:<level>`.")]
    family: Annotated[RatingFamily, doc(_FAMILY)]
    rank: Annotated[int, doc("The seat's place in the game, 1 the best (a shared place "
                             "shares a rank; a seat given up is last).")]
    before: Annotated[float, doc("The rating (ordinal) before the game.")]
    after: Annotated[float, doc("The rating (ordinal) after it.")]


class GameDetail(msgspec.Struct):
    """A game as `GET /v1/games/{game_id}` returns it: its summary and what a spectator sees."""

    summary: Annotated[GameSummary, doc("The game's seats, rules and progress.")]
    view: Annotated[
        GameView | None,
        doc("The game as a spectator sees it, even for a seated caller; null before the deal."),
    ]


class GamePage(msgspec.Struct):
    """A page of the lobby, as `GET /v1/games` returns it."""

    games: Annotated[list[GameSummary], doc(
        "The games that match the filters (public ones, or with `mine=true` yours), newest "
        "first.")]
    next_cursor: Annotated[
        str | None, doc("Pass it as `?cursor=` for the next page; null on the last page.")
    ]


# Play.


class ViewOut(msgspec.Struct):
    """Your view of a game, as `GET /v1/games/{game_id}/view` returns it (ETag: the version)."""

    game_id: Annotated[str, doc(_GAME_ID_DOC)]
    version: Annotated[int, doc(_VERSION)]
    seat: Annotated[int | None, doc(_SEAT)]
    status: Annotated[GameStatus, doc("`lobby` before the deal, `playing` or `finished`.")]
    awaiting: Annotated[list[int], doc(_AWAITING)]
    deadline: Annotated[datetime | None, doc(_DEADLINE)]
    view: Annotated[
        GameView | None,
        doc("The game as you may see it (a hand only if it is yours); null before the deal."),
    ]


class LegalCommands(msgspec.Struct):
    """Your legal commands now, as `GET /v1/games/{game_id}/legal-commands` returns them."""

    game_id: Annotated[str, doc(_GAME_ID_DOC)]
    version: Annotated[int, doc("The game version the commands are legal at.")]
    seat: Annotated[int, doc("Your seat.")]
    commands: Annotated[
        list[SeatCommand],
        doc("Each ready to post to `POST /v1/games/{game_id}/commands` as it is; empty while"
            " the decision is another seat's or the game is not being played."),
    ]


class EventOut(msgspec.Struct):
    """One event of a game's log, redacted for you: in event pages, the stream, command results."""

    version: Annotated[int, doc("The event's version: its place in the game's log, from 1.")]
    event: Annotated[AnyEvent, doc("The event, redacted for you; `type` says which it is.")]


class StreamEvent(EventOut):
    """One event of a game's stream (`GET /events` as Server-Sent Events): the event, and whose
    decision the game waits for after it."""

    awaiting: Annotated[list[int], doc("The seats whose decision the game waits for after "
                                       "this event; empty when it waits for none.")]
    deadline: Annotated[datetime | None, doc(_DEADLINE)]


class CommandResult(msgspec.Struct):
    """The answer of `POST /v1/games/{game_id}/commands`: the events caused and the new version."""

    game_id: Annotated[str, doc(_GAME_ID_DOC)]
    version: Annotated[
        int,
        doc("The game's version after the command (for a dry run, the one its shown events"
            " would reach)."),
    ]
    events: Annotated[
        list[EventOut],
        doc("The events the command caused, as you may see them; a dry run's as a spectator"
            " would, and only as far as `partial` says."),
    ]
    replayed: Annotated[
        bool,
        doc("True when this `Idempotency-Key` came with this command before: the answer is"
            " the first request's result, and nothing new happened."),
    ]
    committed: Annotated[bool, doc("Whether the events were stored: false for `?dry_run=true`.")]
    partial: Annotated[
        bool,
        doc("True for a dry run that stops short: the game would go on by itself from there in"
            " a way that depends on cards hidden from you (whether another seat holds an"
            " answer, a face-down pile card, a round's end), so those events are left out, and"
            " so is whether they would happen. False otherwise."),
    ]


class EventPage(msgspec.Struct):
    """A page of the log as you may see it, as `GET /v1/games/{game_id}/events` returns it."""

    game_id: Annotated[str, doc(_GAME_ID_DOC)]
    version: Annotated[int, doc("The game's current version: the number of events in its log.")]
    events: Annotated[
        list[EventOut],
        doc("The events after `?after=`, oldest first, at most `?limit=` of them."),
    ]
    next_after: Annotated[
        int,
        doc("Pass it as `?after=` for the next page: the last version on this page, or `after`"
            " itself when the page is empty."),
    ]
    awaiting: Annotated[list[int], doc(
        "The seats whose decision the game waits for at `version`; empty when it waits for "
        "none.")]
    deadline: Annotated[datetime | None, doc(_DEADLINE)]


class StateOut(msgspec.Struct):
    """Your view of a game at a past version, as `GET /v1/games/{game_id}/state` returns it."""

    game_id: Annotated[str, doc(_GAME_ID_DOC)]
    version: Annotated[int, doc("The version asked for.")]
    seat: Annotated[int | None, doc(_SEAT)]
    view: Annotated[
        GameView | None,
        doc("The game at that version as you may see it; null if it was not dealt yet."),
    ]


# Operations.


class Health(msgspec.Struct):
    """Liveness (`GET /v1/healthz`) or readiness (`GET /v1/readyz`, a 503 when not ready)."""

    status: Annotated[
        Literal["ok", "unavailable"], doc("`ok`, or `unavailable` when a readiness check fails.")
    ]
    checks: Annotated[
        dict[str, str],
        doc("Readiness only: each check by name (`database`; `redis` when configured), with"
            " `ok` or why not."),
    ] = {}


Json = dict[str, Any]


# Every request body, for the contract's description of what a client sends
# (`openapi.request_structs`).
REQUEST_BODIES = (NewPlayer, NewGame, JoinSeat, AddBotBody, SeatCommand, NewTournament)
