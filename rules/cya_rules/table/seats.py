"""Who holds a seat: a human player or one of the server's bots; and the bot that takes a human
seat's decisions that are not taken in time, and the seat of a player who resigns
(`TimeoutPolicy`). Pure like the domain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec

from cya_rules.docs import doc

# The levels of cya_rules.bots.LEVELS (tests/bots/test_wiring.py holds the two together).
BotLevel = Literal["random", "greedy", "expert", "ismcts"]

BOT_LEVEL_DOC = (
    "How the bot plays: `random` (any legal move), `greedy` (the legal move its heuristics"
    " score best), `expert` (a hand-written player that counts cards) or `ismcts` (a search"
    " over the cards it cannot see: the strongest). GET /v1/rulesets describes each."
)


class HumanSeat(msgspec.Struct, frozen=True, gc=False, tag="human", tag_field="kind"):
    """A seat held by a human player."""

    player_id: Annotated[str, doc("The id of the player who holds the seat.")]


class BotSeat(msgspec.Struct, frozen=True, gc=False, tag="bot", tag_field="kind"):
    """A seat played by one of the server's bots."""

    level: Annotated[BotLevel, doc(BOT_LEVEL_DOC)] = "random"


SeatHolder = HumanSeat | BotSeat


def seat_of(seats: Sequence[SeatHolder | None], player_id: str) -> int | None:
    """The seat a human player holds, if any (a player holds at most one)."""
    for i, c in enumerate(seats):
        if isinstance(c, HumanSeat) and c.player_id == player_id:
            return i
    return None


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


class TimeoutPolicy(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    __doc__ = TIMEOUT_POLICY_DOC

    bot_level: Annotated[BotLevel, doc(TIMEOUT_BOT_LEVEL_DOC)] = "random"
    # Its bounds are checked when a game is created (`create`, and the HTTP body's type), not
    # here: a bound here would also apply to decoding the games already logged.
    hand_over_after: Annotated[int | None, doc(HAND_OVER_AFTER_DOC)] = 3
