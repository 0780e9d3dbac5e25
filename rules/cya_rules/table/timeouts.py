"""Turn-clock outcomes as service-level events in the game's own log, with their reasons.

A human's decision that outlives the turn clock is taken by a bot of the game's
`TimeoutPolicy.bot_level` (`DecisionTimedOut`, followed in the same command by the bot's
domain events); after `hand_over_after` consecutive timeouts the seat becomes that bot's for
good (`SeatHandedToBot`). A clock whose expiry the service took too late to be fair (it could
not time it out, and perhaps not take the player's command either: the database or every
worker down) starts again once instead (`ClockRestarted`). All are public: everyone at the
table may know why a seat moved or a clock started over.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec
from msgspec.structs import replace

from cya_rules.docs import doc
from cya_rules.table.lobby import Lobby
from cya_rules.table.seats import BotLevel, BotSeat


class _TimeoutEvent(msgspec.Struct, frozen=True, gc=False, tag_field="type"):
    SCHEMA_VERSION: ClassVar[int] = 1


class DecisionTimedOut(_TimeoutEvent, frozen=True, tag="decision_timed_out"):
    """A human seat's turn clock ran out: a bot takes this one decision for it (the game's
    timeout_policy), and the bot's move follows at once as game events."""

    seat: Annotated[int, doc("The seat whose clock ran out.")]
    player_id: Annotated[str, doc("The id of the player who holds the seat.")]
    decision: Annotated[
        str,
        doc(
            "The decision that timed out, as the pending decision's `type`: `action`,"
            " `challenge`, `draft_window` or `move_directions`."
        ),
    ]
    consecutive: Annotated[
        int,
        doc(
            "This seat's timeouts since its player last decided for themselves, this one"
            " included."
        ),
    ]
    bot_level: Annotated[
        BotLevel, doc("How the bot that decides instead plays: `random`, `greedy`, `expert` or"
                      " `ismcts`.")
    ]
    reason: Annotated[
        str, doc("Why, in words, e.g. `no decision within the 60-second turn clock`.")
    ]


class SeatHandedToBot(_TimeoutEvent, frozen=True, tag="seat_handed_to_bot"):
    """After too many consecutive timeouts (the game's timeout_policy), a bot plays the seat
    for the rest of the game. It follows the decision_timed_out that set it off."""

    seat: Annotated[int, doc("The seat handed over.")]
    player_id: Annotated[str, doc("The id of the player who held the seat.")]
    level: Annotated[
        BotLevel, doc("How the bot that now plays the seat plays: `random`, `greedy`, `expert`"
                      " or `ismcts`.")
    ]
    reason: Annotated[
        str,
        doc("Why, in words, e.g. `3 consecutive timeouts (the game hands a seat over after 3)`."),
    ]


class ClockRestarted(_TimeoutEvent, frozen=True, tag="clock_restarted"):
    """The pending decision's turn clock ran out while the service could not act on it (its
    expiry was taken more than the outage grace late): the clock starts again, in full, from
    this event, once per decision; the next expiry of this decision is final."""

    seat: Annotated[int, doc("The seat whose clock starts again.")]
    player_id: Annotated[str, doc("The id of the player who holds the seat.")]
    late_s: Annotated[
        float, doc("How many seconds after its deadline the service took the expiry.")
    ]
    reason: Annotated[
        str, doc("Why, in words, e.g. `the 60-second turn clock ran out 17.2 s before the"
                 " service could act on it`.")
    ]


TimeoutEvent = DecisionTimedOut | SeatHandedToBot | ClockRestarted


def evolve_seats(lobby: Lobby | None, event: TimeoutEvent) -> Lobby:
    if lobby is None:
        raise ValueError(f"{type(event).__name__} before game_created")
    match event:
        case SeatHandedToBot(seat=seat, level=level):
            seats = (*lobby.seats[:seat], BotSeat(level), *lobby.seats[seat + 1 :])
            return replace(lobby, seats=seats)
        case DecisionTimedOut() | ClockRestarted():
            return lobby  # the bot's move follows as domain events in the same command
