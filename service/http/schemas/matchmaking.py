"""The shapes of the challenge and quick-play routes (`routes/challenges.py`,
`routes/matchmaking.py`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from cya_rules import EndMode, RuleSet
from cya_rules.cards import Edition
from cya_rules.docs import doc
from cya_rules.table.lobby import RATED_DOC
from cya_rules.table.seats import BotLevel
from service.http.schemas.games import SeatNo
from service.matchmaking.challenges import ChallengeStatus
from service.matchmaking.seeks import SeekStatus

_PLAYER_ID = r"^[0-9A-Za-z_-]{1,64}$"


class NewChallenge(msgspec.Struct, forbid_unknown_fields=True):
    """The body of `POST /v1/challenges`: a game offered to one player, or to anyone."""

    ruleset: Annotated[RuleSet, doc("How the game is played.")]
    to: Annotated[str, msgspec.Meta(pattern=_PLAYER_ID), doc(
        "The challenged player's id; null: an open challenge anyone may accept.")] | None = None
    turn_clock: Annotated[
        int, msgspec.Meta(ge=1, le=86_400),
        doc("Seconds a human seat has for each decision, 1 to 86,400; null: no clock."),
    ] | None = None
    rated: Annotated[bool, doc(RATED_DOC)] = False
    seat: Annotated[SeatNo, doc("Your seat; the one who accepts takes the lowest other.")] = 0
    bots: Annotated[list[BotLevel], msgspec.Meta(max_length=4), doc(
        "The levels of the bots in the other seats: a challenge seats two players, so a "
        "rule set of n seats needs n − 2 bots.")] = []


class DeclineChallenge(msgspec.Struct, forbid_unknown_fields=True):
    """The optional body of `POST /v1/challenges/{challenge_id}/decline`."""

    reason: Annotated[str, msgspec.Meta(max_length=200), doc(
        "Why, in a few words; the challenger hears it.")] | None = None


class ChallengeOut(msgspec.Struct):
    """A challenge as it stands."""

    challenge_id: Annotated[str, doc("The challenge's id.")]
    challenger: Annotated[str, doc("The challenging player's id.")]
    to: Annotated[str | None, doc("The challenged player's id; null: open to anyone.")]
    ruleset: Annotated[RuleSet, doc("How the game is played.")]
    turn_clock: Annotated[int | None, doc("Seconds a decision; null: no clock.")]
    rated: Annotated[bool, doc(RATED_DOC)]
    seat: Annotated[int, doc("The challenger's seat.")]
    bots: Annotated[list[BotLevel], doc("The bots in the other seats.")]
    status: Annotated[ChallengeStatus, doc(
        "`open`, `accepted` (with `game_id`), `declined` (with `reason`) or `cancelled`.")]
    accepted_by: Annotated[str | None, doc("Who accepted it.")]
    game_id: Annotated[str | None, doc("The game it became, once accepted: already dealt.")]
    reason: Annotated[str | None, doc("Why it was declined.")]
    created_at: Annotated[datetime, doc("When it was made.")]
    updated_at: Annotated[datetime, doc("When it last changed.")]


class NewSeek(msgspec.Struct, forbid_unknown_fields=True):
    """The body of `POST /v1/matchmaking`: the kind of game you will play, and how far from
    your rating your opponents may be."""

    players: Annotated[int, msgspec.Meta(ge=2, le=6), doc("Seats, 2 to 6.")] = 2
    edition: Annotated[Edition, doc("The edition.")] = Edition.EN_2022
    rated: Annotated[bool, doc(RATED_DOC)] = False
    end_mode: Annotated[EndMode, doc(
        "How the game ends (§12): only seekers of the same end are paired.")] = \
        EndMode.TO_MILLION
    rating_range: Annotated[float, msgspec.Meta(ge=0, le=1_000), doc(
        "± rating (ordinal) you accept at first; it widens by the server's "
        "`CYA_MATCH_WIDEN_PER_S` each second you wait.")] = 5.0


class SeekOut(msgspec.Struct):
    """A seek as it stands."""

    seek_id: Annotated[str, doc("The seek's id: cancel with `DELETE /v1/matchmaking/{id}`.")]
    player_id: Annotated[str, doc("The seeker.")]
    players: Annotated[int, doc("Seats.")]
    edition: Annotated[Edition, doc("The edition.")]
    rated: Annotated[bool, doc(RATED_DOC)]
    end_mode: Annotated[EndMode, doc("How the game ends (§12).")]
    rating: Annotated[float, doc("Your rating (ordinal) in the family when you sought.")]
    rating_range: Annotated[float, doc("± rating accepted at first.")]
    status: Annotated[SeekStatus, doc(
        "`waiting`, `matched` (with `game_id`) or `cancelled`.")]
    game_id: Annotated[str | None, doc("The game it became, once matched.")]
    created_at: Annotated[datetime, doc("When you sought.")]
