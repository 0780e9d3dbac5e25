"""The lobby as service-level events in the game's own log: who sits where, before the deal.

The rules engine knows nothing of players, bots or clocks; these facts live in the same log as
the domain events (same versions, same hash chain) so one fold rebuilds the whole game.
Pure like the domain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from service.domain import RuleCode, RuleSet, RuleViolation
from service.domain.docs import doc
from service.table.endings import (
    EndingEvent,
    GameAbandoned,
    InvitationDeclined,
    LobbyExpired,
    RematchOffered,
)

# The levels of service.bots.LEVELS (tests/bots/test_wiring.py holds the two together).
BotLevel = Literal["random", "greedy", "expert", "ismcts"]

_BOT_LEVEL = (
    "How the bot plays: `random` (any legal move), `greedy` (the legal move its heuristics"
    " score best), `expert` (a hand-written player that counts cards) or `ismcts` (a search"
    " over the cards it cannot see: the strongest). GET /v1/rulesets describes each."
)


class HumanSeat(msgspec.Struct, frozen=True, gc=False, tag="human", tag_field="kind"):
    """A seat held by a human player."""

    player_id: Annotated[str, doc("The id of the player who holds the seat.")]


class BotSeat(msgspec.Struct, frozen=True, gc=False, tag="bot", tag_field="kind"):
    """A seat played by one of the server's bots."""

    level: Annotated[BotLevel, doc(_BOT_LEVEL)] = "random"


SeatHolder = HumanSeat | BotSeat


TIMEOUT_POLICY_DOC = (
    "What happens when a human seat's decision is not taken in time (its turn clock runs out,\n"
    "or, with or without a clock, the player's bot endpoint gives no legal answer by its\n"
    "deadline): a bot of `bot_level` takes the decision; after `hand_over_after` consecutive\n"
    "timeouts the seat is the bot's for the rest of the game. A bot of `bot_level` also plays\n"
    "the seat of a player who resigns.")
TIMEOUT_BOT_LEVEL_DOC = ("How the bot that takes expired decisions, and the seat of a player "
                         "who resigns, plays: `random`, `greedy`, `expert` or `ismcts`.")
HAND_OVER_AFTER_DOC = (
    "Consecutive timeouts after which the seat is handed to the bot for good, at least 1;"
    " null: never. A decision the player takes themselves starts the count again."
)


SPECTATOR_DELAY_DOC = (
    "While the game runs, watchers (anyone without a seat) see it this many events behind the"
    " table, as broadcasts of card games are delayed, so that nobody watching can tell a"
    " player the cards as they fall; 0: live. The seated players see their game live, and"
    " once it is over everyone sees all of it.")


RATED_DOC = (
    "Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each"
    " bot level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up"
    " a seat, by resigning or to the clock, is ranked last.")


class TimeoutPolicy(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    __doc__ = TIMEOUT_POLICY_DOC

    bot_level: Annotated[BotLevel, doc(TIMEOUT_BOT_LEVEL_DOC)] = "random"
    # Its bounds are checked when a game is created (`create`, and the HTTP body's type), not
    # here: a bound here would also apply to decoding the games already logged.
    hand_over_after: Annotated[int | None, doc(HAND_OVER_AFTER_DOC)] = 3


# Events (past tense), tagged like the domain's so one decoder reads the whole log.


class _LobbyEvent(msgspec.Struct, frozen=True, gc=False, tag_field="type"):
    SCHEMA_VERSION: ClassVar[int] = 1


class GameCreated(_LobbyEvent, frozen=True, tag="game_created"):
    """A game was created: the first event of its log. Players take its open seats, and the
    creator starts it (game_started) once every seat is filled."""

    ruleset: Annotated[RuleSet, doc("How the game is played.")]
    creator: Annotated[str, doc("The player id of the game's creator.")]
    seats: Annotated[
        tuple[SeatHolder | None, ...],
        doc(
            "Who controls each seat, by seat number: a human player or a bot; null: open for a"
            " human player to take."
        ),
    ]
    turn_clock: Annotated[
        int | None, doc("Seconds a human seat has for each decision; null: no clock.")
    ]
    timeout_policy: Annotated[
        TimeoutPolicy, doc("What happens when a human seat's decision is not taken in time,"
                           " and who plays a resigned seat.")
    ]
    public: Annotated[
        bool,
        doc(
            "Listed in the lobby and open to spectators. A private game is open only to its"
            " creator and players; its id is the invitation to take a seat."
        ),
    ]
    spectator_delay: Annotated[int, doc(SPECTATOR_DELAY_DOC)] = 0
    rated: Annotated[bool, doc(RATED_DOC)] = False
    invited: Annotated[tuple[str | None, ...], doc(
        "Seats kept for invited players (a rematch's), by seat number: the player id, or null;"
        " empty when nobody is invited. Only that player may take a kept seat, until they"
        " decline it.")] = ()
    rematch_of: Annotated[str | None, doc("The game this one is a rematch of; null if none.")] \
        = None


class SeatTaken(_LobbyEvent, frozen=True, tag="seat_taken"):
    """Before the game started, a seat was filled: a human player took it, or the creator
    added a bot."""

    seat: Annotated[int, doc("The seat taken, 0-based.")]
    controller: Annotated[SeatHolder, doc("Who now controls the seat.")]


class SeatLeft(_LobbyEvent, frozen=True, tag="seat_left"):
    """Before the game started, a human player left their seat; it is open again."""

    seat: Annotated[int, doc("The seat left, 0-based.")]
    player_id: Annotated[str, doc("The id of the player who left it.")]


class SeatResigned(_LobbyEvent, frozen=True, tag="seat_resigned"):
    """A player gave up a running game: a bot of `bot_level` plays the seat to the end."""

    seat: Annotated[int, doc("The seat given up.")]
    player_id: Annotated[str, doc("The id of the player who resigned.")]
    bot_level: Annotated[BotLevel, doc(_BOT_LEVEL)]


LobbyEvent = GameCreated | SeatTaken | SeatLeft | SeatResigned | EndingEvent


# Commands (imperative): what a player asks of the lobby.


class _LobbyCommand(msgspec.Struct, frozen=True, gc=False, tag_field="type",
                    forbid_unknown_fields=True):
    pass


class CreateGame(_LobbyCommand, frozen=True, tag="create_game"):
    ruleset: RuleSet
    seats: tuple[SeatHolder | None, ...] = ()  # padded with open seats to ruleset.players
    turn_clock: int | None = None
    timeout_policy: TimeoutPolicy = TimeoutPolicy()
    public: bool = True
    spectator_delay: int = 0
    rated: bool = False
    invited: tuple[str | None, ...] = ()
    rematch_of: str | None = None


class TakeSeat(_LobbyCommand, frozen=True, tag="take_seat"):
    seat: int | None = None  # None: the lowest open seat


class AddBot(_LobbyCommand, frozen=True, tag="add_bot"):
    level: BotLevel = "random"
    seat: int | None = None


class LeaveSeat(_LobbyCommand, frozen=True, tag="leave_seat"):
    pass


class DeclineInvitation(_LobbyCommand, frozen=True, tag="decline_invitation"):
    pass


class Start(_LobbyCommand, frozen=True, tag="start"):
    """The pipeline answers it with the domain's `StartGame` and a fresh secret seed."""


LobbyCommand = CreateGame | TakeSeat | AddBot | LeaveSeat | DeclineInvitation | Start


def seat_of(seats: Sequence[SeatHolder | None], player_id: str) -> int | None:
    """The seat a human player holds, if any (a player holds at most one)."""
    for i, c in enumerate(seats):
        if isinstance(c, HumanSeat) and c.player_id == player_id:
            return i
    return None


class Lobby(msgspec.Struct, frozen=True, gc=False):
    creator: str
    public: bool
    turn_clock: int | None
    timeout_policy: TimeoutPolicy
    seats: tuple[SeatHolder | None, ...]
    spectator_delay: int = 0
    rated: bool = False
    invited: tuple[str | None, ...] = ()  # seats kept for players (a rematch's)
    rematch_of: str | None = None
    rematch: str | None = None  # the rematch offered after this game
    ended: Literal["expired", "abandoned"] | None = None  # over without a result
    end_reason: str | None = None

    def seat_of(self, player_id: str) -> int | None:
        return seat_of(self.seats, player_id)

    def open_seats(self) -> list[int]:
        return [i for i, c in enumerate(self.seats) if c is None]

    def kept_for(self, seat: int) -> str | None:
        """The invited player the seat is kept for, if any."""
        return self.invited[seat] if seat < len(self.invited) else None

    def invitation_of(self, player_id: str) -> int | None:
        return next((i for i, p in enumerate(self.invited) if p == player_id), None)


def create(command: CreateGame, creator: str) -> GameCreated:
    n = command.ruleset.players
    if len(command.seats) > n:
        raise RuleViolation(RuleCode.TOO_MANY_SEATS, f"The rule set has {n} seats.")
    if command.turn_clock is not None and command.turn_clock < 1:
        raise RuleViolation(RuleCode.INVALID_CLOCK, "A turn clock is at least 1 second.")
    hand_over_after = command.timeout_policy.hand_over_after
    if hand_over_after is not None and hand_over_after < 1:
        raise RuleViolation(RuleCode.INVALID_TIMEOUT_POLICY,
                            "A seat is handed over after at least 1 timeout.")
    humans = [c.player_id for c in command.seats if isinstance(c, HumanSeat)]
    if len(set(humans)) != len(humans):
        raise RuleViolation(RuleCode.DUPLICATE_PLAYER, "A player takes at most one seat.")
    if command.spectator_delay < 0:
        raise RuleViolation(RuleCode.INVALID_SPECTATOR_DELAY, "A spectator delay is at least 0.")
    seats = command.seats + (None,) * (n - len(command.seats))
    invited = command.invited + (None,) * (n - len(command.invited)) if command.invited else ()
    if len(invited) > n or any(p is not None and seats[i] is not None
                               for i, p in enumerate(invited)):
        raise RuleViolation(RuleCode.INVALID_SEAT, "An invited player's seat must be open.")
    return GameCreated(command.ruleset.for_new_game(), creator, seats, command.turn_clock,
                       command.timeout_policy, command.public, command.spectator_delay,
                       command.rated, invited, command.rematch_of)


def _pick_seat(lobby: Lobby, seat: int | None, player_id: str | None = None) -> int:
    """`player_id`: the player taking it (None: a bot), who may take a seat kept for them
    (and, asking for no seat in particular, gets it)."""
    if seat is None:
        kept = lobby.invitation_of(player_id) if player_id is not None else None
        if kept is not None and lobby.seats[kept] is None:
            return kept
        open_seats = [i for i in lobby.open_seats() if lobby.kept_for(i) is None]
        if not open_seats:
            raise RuleViolation(RuleCode.GAME_FULL, "Every seat is taken (or kept for an "
                                "invited player).")
        return open_seats[0]
    if not 0 <= seat < len(lobby.seats):
        raise RuleViolation(RuleCode.INVALID_SEAT, f"Seat {seat} does not exist.")
    if lobby.seats[seat] is not None:
        raise RuleViolation(RuleCode.SEAT_TAKEN, f"Seat {seat} is taken.")
    if lobby.kept_for(seat) not in (None, player_id):
        raise RuleViolation(RuleCode.SEAT_TAKEN, f"Seat {seat} is kept for an invited player.")
    return seat


def decide_lobby(lobby: Lobby, command: LobbyCommand, player_id: str) -> list[LobbyEvent]:
    """Seat changes before the deal; the caller has checked that the game has not started."""
    match command:
        case TakeSeat(seat=seat):
            if lobby.seat_of(player_id) is not None:
                raise RuleViolation(RuleCode.ALREADY_SEATED,
                                    "You already have a seat in this game.")
            return [SeatTaken(_pick_seat(lobby, seat, player_id), HumanSeat(player_id))]
        case AddBot(level=level, seat=seat):
            if player_id != lobby.creator:
                raise RuleViolation(RuleCode.NOT_CREATOR, "Only the game's creator adds bots.")
            return [SeatTaken(_pick_seat(lobby, seat), BotSeat(level))]
        case LeaveSeat():
            mine = lobby.seat_of(player_id)
            if mine is None:
                raise RuleViolation(RuleCode.NOT_SEATED, "You have no seat in this game.")
            return [SeatLeft(mine, player_id)]
        case DeclineInvitation():
            kept = lobby.invitation_of(player_id)
            if kept is None or lobby.seats[kept] is not None:
                raise RuleViolation(RuleCode.NOT_SEATED, "No seat is kept for you here.")
            return [InvitationDeclined(kept, player_id)]
        case Start():
            if player_id != lobby.creator:
                raise RuleViolation(RuleCode.NOT_CREATOR, "Only the game's creator starts it.")
            if lobby.open_seats():
                raise RuleViolation(RuleCode.SEATS_OPEN, "Every seat needs a player or a bot.")
            return []
    raise RuleViolation(RuleCode.INVALID_COMMAND,
                        f"{type(command).__name__} is not a lobby command.")


def evolve_lobby(lobby: Lobby | None, event: LobbyEvent) -> Lobby:
    match event:
        case GameCreated():
            return Lobby(event.creator, event.public, event.turn_clock, event.timeout_policy,
                         event.seats, event.spectator_delay, event.rated, event.invited,
                         event.rematch_of)
        case SeatTaken(seat=seat, controller=controller) if lobby is not None:
            return replace(lobby, seats=_put(lobby.seats, seat, controller))
        case SeatLeft(seat=seat) if lobby is not None:
            return replace(lobby, seats=_put(lobby.seats, seat, None))
        case SeatResigned(seat=seat, bot_level=level) if lobby is not None:
            return replace(lobby, seats=_put(lobby.seats, seat, BotSeat(level)))
        case InvitationDeclined(seat=seat) if lobby is not None:
            return replace(lobby, invited=(*lobby.invited[:seat], None,
                                           *lobby.invited[seat + 1:]))
        case RematchOffered(game_id=game_id) if lobby is not None:
            return replace(lobby, rematch=game_id)
        case LobbyExpired(reason=reason) if lobby is not None:
            return replace(lobby, ended="expired", end_reason=reason)
        case GameAbandoned(reason=reason) if lobby is not None:
            return replace(lobby, ended="abandoned", end_reason=reason)
    raise ValueError(f"{type(event).__name__} before game_created")


def _put(seats: tuple[SeatHolder | None, ...], i: int, c: SeatHolder | None
         ) -> tuple[SeatHolder | None, ...]:
    return (*seats[:i], c, *seats[i + 1 :])
