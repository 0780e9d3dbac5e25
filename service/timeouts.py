"""Turn-clock outcomes as service-level events in the game's own log, with their reasons.

A human's decision that outlives the turn clock is taken by a bot of the game's
`TimeoutPolicy.bot_level` (`DecisionTimedOut`, followed in the same command by the bot's
domain events); after `hand_over_after` consecutive timeouts the seat becomes that bot's for
good (`SeatHandedToBot`). Both are public: everyone at the table may know why a seat moved.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec
from msgspec.structs import replace

from .lobby import BotLevel, BotSeat, Lobby


class _TimeoutEvent(msgspec.Struct, frozen=True, gc=False, tag_field="type"):
    SCHEMA_VERSION: ClassVar[int] = 1


class DecisionTimedOut(_TimeoutEvent, frozen=True, tag="decision_timed_out"):
    seat: int
    player_id: str
    decision: str  # the pending decision's tag: action, challenge, draft_window, move_directions
    consecutive: int  # this seat's timeouts since it last decided for itself, this one included
    bot_level: BotLevel
    reason: str


class SeatHandedToBot(_TimeoutEvent, frozen=True, tag="seat_handed_to_bot"):
    seat: int
    player_id: str
    level: BotLevel
    reason: str


TimeoutEvent = DecisionTimedOut | SeatHandedToBot


def evolve_seats(lobby: Lobby | None, event: TimeoutEvent) -> Lobby:
    if lobby is None:
        raise ValueError(f"{type(event).__name__} before game_created")
    match event:
        case SeatHandedToBot(seat=seat, level=level):
            seats = (*lobby.seats[:seat], BotSeat(level), *lobby.seats[seat + 1 :])
            return replace(lobby, seats=seats)
        case DecisionTimedOut():
            return lobby  # the bot's move follows as domain events in the same command
