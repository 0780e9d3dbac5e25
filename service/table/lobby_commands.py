"""What a player asks of the lobby before the deal (commands, imperative), and the lobby
events each one decides (`create`, `decide_lobby`). Pure like the domain.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from cya_rules import RuleCode, RuleSet, RuleViolation
from cya_rules.table.endings import InvitationDeclined
from cya_rules.table.lobby import GameCreated, Lobby, LobbyEvent, SeatLeft, SeatTaken
from cya_rules.table.seats import (
    BotLevel,
    BotSeat,
    HumanSeat,
    SeatHolder,
    TimeoutPolicy,
    seat_of,
)
from cya_rules.table.seeds import (
    ClientSeedSet,
    checked_client_seed,
    commitment_of,
)

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
    client_seed: bytes | None = None  # the creator's seat's, when it takes one


class TakeSeat(_LobbyCommand, frozen=True, tag="take_seat"):
    seat: int | None = None  # None: the lowest open seat
    client_seed: bytes | None = None


class SetClientSeed(_LobbyCommand, frozen=True, tag="set_client_seed"):
    """Sets (or replaces) the caller's seat's client seed, before the deal."""

    seed: bytes


class AddBot(_LobbyCommand, frozen=True, tag="add_bot"):
    level: BotLevel = "random"
    seat: int | None = None


class LeaveSeat(_LobbyCommand, frozen=True, tag="leave_seat"):
    pass


class DeclineInvitation(_LobbyCommand, frozen=True, tag="decline_invitation"):
    pass


class Start(_LobbyCommand, frozen=True, tag="start"):
    """The pipeline answers it with the domain's `StartGame` and a fresh secret seed."""


LobbyCommand = (CreateGame | TakeSeat | AddBot | LeaveSeat | DeclineInvitation | Start
                | SetClientSeed)


def create(command: CreateGame, creator: str, master_seed: bytes, *,
           client_seeds: bool = True) -> GameCreated:
    """The game's first event, committing to `master_seed` (drawn by the caller, secret; the
    event keeps it for the server) with the creator's client seed if it sits.
    `client_seeds` False: the deal is the master seed's alone (a tournament's table)."""
    created = _created(command, creator)
    mixes = client_seeds and created.ruleset.since(4)
    mine = seat_of(created.seats, creator)
    seed = checked_client_seed(command.client_seed) if command.client_seed else None
    return replace(created, seed_sha256=commitment_of(master_seed), client_seeds=mixes,
                   master_seed=master_seed,
                   client_seed=seed if mixes and mine is not None else None)


def _created(command: CreateGame, creator: str) -> GameCreated:
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
            seed = command.client_seed
            if seed is not None:
                checked_client_seed(seed)
            return [SeatTaken(_pick_seat(lobby, seat, player_id), HumanSeat(player_id),
                              seed if lobby.mixes_client_seeds else None)]
        case SetClientSeed(seed=seed):
            mine = lobby.seat_of(player_id)
            if mine is None:
                raise RuleViolation(RuleCode.NOT_SEATED, "You have no seat in this game.")
            if not lobby.mixes_client_seeds:
                raise RuleViolation(RuleCode.INVALID_SEED, "This game's deal takes no client "
                                    "seeds: a tournament's table, or a game of rules version 3"
                                    " or older.")
            return [ClientSeedSet(mine, checked_client_seed(seed))]
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
