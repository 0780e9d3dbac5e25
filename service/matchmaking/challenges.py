"""A challenge: one player offers a game to another (by id) or to anyone (open). Data and the
pure decisions on it; the runner stores it and opens its game.

A challenge seats two people, the challenger and whoever accepts; the rule set's other seats
go to the bots it names.
"""

from __future__ import annotations

import enum
from datetime import datetime

import msgspec

from cya_rules import RuleSet
from cya_rules.table.seats import BotLevel, BotSeat, HumanSeat, SeatHolder


class ChallengeStatus(enum.StrEnum):
    """`open` until someone accepts (`accepted`, with its game), the challenged player
    declines (`declined`, with a reason), or the challenger withdraws it (`cancelled`)."""

    ACCEPTED = "accepted"
    CANCELLED = "cancelled"
    DECLINED = "declined"
    OPEN = "open"


class ChallengeRefused(Exception):
    """What a challenge cannot do: `code` is stable (the HTTP problem's), `status` its HTTP
    status (403 for who the caller is, 409 for where the challenge stands, 422 for what it
    asks)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Challenge(msgspec.Struct, frozen=True):
    challenge_id: str
    challenger: str
    challenged: str | None  # None: open, anyone may accept
    ruleset: RuleSet
    turn_clock: int | None
    rated: bool
    seat: int  # the challenger's seat
    bots: tuple[BotLevel, ...]  # the other seats', in order
    status: ChallengeStatus
    created_at: datetime
    updated_at: datetime
    accepted_by: str | None = None
    game_id: str | None = None
    reason: str | None = None


def check_new(challenger: str, challenged: str | None, ruleset: RuleSet, seat: int,
              bots: tuple[BotLevel, ...]) -> None:
    """A challenge that can become a game: two people, the rest bots, the challenger's seat on
    the table."""
    if challenged == challenger:
        raise ChallengeRefused(422, "challenge_yourself", "You cannot challenge yourself.")
    if 2 + len(bots) != ruleset.players:
        raise ChallengeRefused(422, "seats_mismatch",
                               f"A challenge seats two players and its bots: {ruleset.players}"
                               f" seats need {ruleset.players - 2} bot(s), not {len(bots)}.")
    if not 0 <= seat < ruleset.players:
        raise ChallengeRefused(422, "seats_mismatch",
                               f"Seat {seat} is not on a {ruleset.players}-seat table.")


def _open(c: Challenge) -> None:
    if c.status != ChallengeStatus.OPEN:
        raise ChallengeRefused(409, "challenge_not_open", f"The challenge is {c.status}.")


def check_accept(c: Challenge, player_id: str) -> None:
    if player_id == c.challenger:
        raise ChallengeRefused(403, "own_challenge", "You cannot accept your own challenge.")
    if c.challenged is not None and player_id != c.challenged:
        raise ChallengeRefused(403, "not_challenged", "The challenge is to another player.")
    _open(c)


def check_decline(c: Challenge, player_id: str) -> None:
    if c.challenged is None:
        raise ChallengeRefused(409, "open_challenge",
                               "An open challenge cannot be declined: leave it to others.")
    if player_id != c.challenged:
        raise ChallengeRefused(403, "not_challenged", "Only the challenged player declines.")
    _open(c)


def check_cancel(c: Challenge, player_id: str) -> None:
    if player_id != c.challenger:
        raise ChallengeRefused(403, "not_challenger", "Only the challenger cancels.")
    _open(c)


def seats_of(c: Challenge, taker: str) -> tuple[SeatHolder, ...]:
    """The challenger at its seat, the taker at the lowest other seat, then the bots."""
    seats: list[SeatHolder | None] = [None] * c.ruleset.players
    seats[c.seat] = HumanSeat(c.challenger)
    others: list[SeatHolder] = [HumanSeat(taker), *(BotSeat(level) for level in c.bots)]
    for holder in others:
        seats[seats.index(None)] = holder
    return tuple(s for s in seats if s is not None)
