"""The shapes of the lobby's routes (`routes/games.py`): a new game, a seat, a bot, and a
game's summary."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from cya_rules import GameView, RuleSet
from cya_rules.client_seeds import MAX_CLIENT_SEED
from cya_rules.docs import doc
from cya_rules.table.lobby import RATED_DOC, SPECTATOR_DELAY_DOC
from cya_rules.table.seats import (
    HAND_OVER_AFTER_DOC,
    TIMEOUT_BOT_LEVEL_DOC,
    TIMEOUT_POLICY_DOC,
    BotLevel,
    SeatHolder,
    TimeoutPolicy,
)
from cya_rules.table.seeds import CLIENT_SEED_DOC
from service.http.schemas.descriptions import AWAITING_DOC, DEADLINE_DOC, VERSION_DOC
from service.http.schemas.ratings import RatingChange
from service.table.turns import RATINGS_DOC, GameStatus, RatingsState

# Litestar leaves a falsy bound out of the document (`ge=0` gives no `minimum`), so these
# restate it (its msgspec plugin reads additions from `extra_json_schema["extra"]`).
SeatNo = Annotated[int, msgspec.Meta(ge=0, le=5, extra_json_schema={"extra": {"minimum": 0}})]

_BOT_LEVEL = ("How the bot plays: `random`, `greedy`, `expert` or `ismcts` (the strongest);"
              " GET /v1/rulesets describes each.")
_PUBLIC = ("Listed in the lobby and open to spectators. A private game is open only to its"
           " creator and players; its id is the invitation to take a seat.")

_CLIENT_SEED = msgspec.Meta(max_length=MAX_CLIENT_SEED)

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
    client_seed: Annotated[bytes, _CLIENT_SEED, doc(
        "With `join`: " + CLIENT_SEED_DOC)] | None = None


class JoinSeat(msgspec.Struct, forbid_unknown_fields=True):
    """The optional body of `POST /v1/games/{game_id}/seats`: the seat to take."""

    seat: Annotated[SeatNo, doc("The seat to take; null: the lowest open seat.")] | None = None
    client_seed: Annotated[bytes, _CLIENT_SEED, doc(CLIENT_SEED_DOC)] | None = None


class ClientSeedBody(msgspec.Struct, forbid_unknown_fields=True):
    """The body of `POST /v1/games/{game_id}/client-seed`: your seat's client seed."""

    seed: Annotated[bytes, _CLIENT_SEED, doc(CLIENT_SEED_DOC)]


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
        doc("The display names of the game's creator, of the players in `seats` and of "
            "those `invited`, by player id."),
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
    version: Annotated[int, doc(VERSION_DOC)]
    awaiting: Annotated[list[int], doc(AWAITING_DOC)]
    deadline: Annotated[datetime | None, doc(DEADLINE_DOC)]
    created_at: Annotated[datetime, doc("When the game was created.")]
    updated_at: Annotated[datetime, doc("When its latest event was recorded.")]


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
