"""The lobby as service-level events in the game's own log: who sits where, before the deal,
and the lobby as those events fold (`Lobby`, `evolve_lobby`). What a player asks of it is in
`lobby_commands.py`; who may hold a seat, in `seats.py`.

The rules engine knows nothing of players, bots or clocks; these facts live in the same log as
the domain events (same versions, same hash chain) so one fold rebuilds the whole game.
Pure like the domain.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from cya_rules import RuleSet
from cya_rules.docs import doc
from cya_rules.table.endings import (
    EndingEvent,
    GameAbandoned,
    InvitationDeclined,
    LobbyExpired,
    RematchOffered,
)
from cya_rules.table.seats import (
    BOT_LEVEL_DOC,
    BotLevel,
    BotSeat,
    SeatHolder,
    TimeoutPolicy,
    seat_of,
)
from cya_rules.table.seeds import ClientSeedSet

SPECTATOR_DELAY_DOC = (
    "While the game runs, watchers (anyone without a seat) see it this many events behind the"
    " table, as broadcasts of card games are delayed, so that nobody watching can tell a"
    " player the cards as they fall; 0: live. The seated players see their game live, and"
    " once it is over everyone sees all of it.")


RATED_DOC = (
    "Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each"
    " bot level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up"
    " a seat, by resigning or to the clock, is ranked last.")


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
    seed_sha256: Annotated[str | None, doc(
        "SHA-256 (hex) of the game's secret master seed, committed to before any seat sends a"
        " client seed; the seed itself is revealed in `GET /history` (game_started.seed) once"
        " the game is over (rules version 4, docs/fair-shuffle.md §7). Null in games created"
        " before, whose seed was drawn at the deal.")] = None
    client_seeds: Annotated[bool, doc(
        "Whether the deal mixes in every seat's client seed (rules version 4); false at a"
        " tournament's table, dealt from the seed the tournament committed to, and in games"
        " of older rules versions.")] = False
    master_seed: Annotated[bytes | None, doc(
        "The secret master seed behind `seed_sha256`: null but in `GET /history`.")] = None
    client_seed: Annotated[bytes | None, doc(
        "The creator's seat's client seed, when the creator sits and sent one: null but to"
        " the server (history), until game_started names it.")] = None


class SeatTaken(_LobbyEvent, frozen=True, tag="seat_taken", omit_defaults=True):
    """Before the game started, a seat was filled: a human player took it, or the creator
    added a bot."""

    seat: Annotated[int, doc("The seat taken, 0-based.")]
    controller: Annotated[SeatHolder, doc("Who now controls the seat.")]
    client_seed: Annotated[bytes | None, doc(
        "The client seed its player sent with it (rules version 4): to that seat only; null"
        " to everyone else, until game_started names it.")] = None


class SeatLeft(_LobbyEvent, frozen=True, tag="seat_left"):
    """Before the game started, a human player left their seat; it is open again."""

    seat: Annotated[int, doc("The seat left, 0-based.")]
    player_id: Annotated[str, doc("The id of the player who left it.")]


class SeatResigned(_LobbyEvent, frozen=True, tag="seat_resigned"):
    """A player gave up a running game: a bot of `bot_level` plays the seat to the end."""

    seat: Annotated[int, doc("The seat given up.")]
    player_id: Annotated[str, doc("The id of the player who resigned.")]
    bot_level: Annotated[BotLevel, doc(BOT_LEVEL_DOC)]


LobbyEvent = GameCreated | SeatTaken | SeatLeft | SeatResigned | EndingEvent | ClientSeedSet


# The lobby's events that may carry a seed of the deal (table/seeds.py): not public then.
SeedCarrier = GameCreated | SeatTaken | ClientSeedSet


def seed_visibility(event: SeedCarrier) -> str:
    """Who sees it in full: the server alone while it holds the master seed, the seat alone
    while it holds the seat's client seed; everyone else sees it with the seed null."""
    if isinstance(event, GameCreated):
        return "public" if event.master_seed is None and event.client_seed is None else "server"
    seed = event.client_seed if isinstance(event, SeatTaken) else event.seed
    return "public" if seed is None else str(event.seat)


def without_seeds(event: SeedCarrier) -> SeedCarrier:
    if isinstance(event, GameCreated):
        return replace(event, master_seed=None, client_seed=None)
    if isinstance(event, SeatTaken):
        return replace(event, client_seed=None)
    return replace(event, seed=None)


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
    # The deal's seeds (table/seeds.py): server-side only, never served as they stand here.
    mixes_client_seeds: bool = False
    master_seed: bytes = b""  # empty: drawn at the deal (a game created before version 4)
    client_seeds: tuple[bytes, ...] = ()  # by seat; empty: none sent

    def seat_of(self, player_id: str) -> int | None:
        return seat_of(self.seats, player_id)

    def open_seats(self) -> list[int]:
        return [i for i, c in enumerate(self.seats) if c is None]

    def kept_for(self, seat: int) -> str | None:
        """The invited player the seat is kept for, if any."""
        return self.invited[seat] if seat < len(self.invited) else None

    def invitation_of(self, player_id: str) -> int | None:
        return next((i for i, p in enumerate(self.invited) if p == player_id), None)


def evolve_lobby(lobby: Lobby | None, event: LobbyEvent) -> Lobby:
    match event:
        case GameCreated():
            return Lobby(event.creator, event.public, event.turn_clock, event.timeout_policy,
                         event.seats, event.spectator_delay, event.rated, event.invited,
                         event.rematch_of, mixes_client_seeds=event.client_seeds,
                         master_seed=event.master_seed or b"",
                         client_seeds=_opening_seeds(event))
        case SeatTaken(seat=seat, controller=controller) if lobby is not None:
            return replace(lobby, seats=_put(lobby.seats, seat, controller),
                           client_seeds=_sent(lobby.client_seeds, seat,
                                              event.client_seed or b""))
        case SeatLeft(seat=seat) if lobby is not None:  # its client seed leaves with it
            return replace(lobby, seats=_put(lobby.seats, seat, None),
                           client_seeds=_sent(lobby.client_seeds, seat, b""))
        case ClientSeedSet(seat=seat, seed=seed) if lobby is not None:
            return replace(lobby, client_seeds=_sent(lobby.client_seeds, seat, seed or b""))
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


def _opening_seeds(created: GameCreated) -> tuple[bytes, ...]:
    mine = seat_of(created.seats, created.creator)
    return tuple(created.client_seed or b"" if i == mine else b""
                 for i in range(len(created.seats)))


def _sent(seeds: tuple[bytes, ...], i: int, seed: bytes) -> tuple[bytes, ...]:
    return (*seeds[:i], seed, *seeds[i + 1:]) if i < len(seeds) else seeds


def _put(seats: tuple[SeatHolder | None, ...], i: int, c: SeatHolder | None
         ) -> tuple[SeatHolder | None, ...]:
    return (*seats[:i], c, *seats[i + 1 :])
