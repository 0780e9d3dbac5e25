"""The shapes of ratings: a player's, and what a rated game did to them."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from cya_rules.docs import doc

RatingFamily = Literal["2p", "3-6p"]
FAMILY_DOC = "Which games: `2p` (2-player games) or `3-6p` (3 to 6 players), rated apart."
_ORDINAL = ("The rating shown and ranked by: OpenSkill's ordinal, mu − 3 sigma (a conservative"
            " estimate; a new player starts at 0).")


class RatingOut(msgspec.Struct):
    """A rating in one family of games (OpenSkill, Plackett–Luce)."""

    family: Annotated[RatingFamily, doc(FAMILY_DOC)]
    rating: Annotated[float, doc(_ORDINAL)]
    mu: Annotated[float, doc("The skill estimate's mean (25 at the start).")]
    sigma: Annotated[float, doc("Its uncertainty (25/3 at the start; shrinks with games).")]
    games: Annotated[int, doc("Rated games counted.")]


class RatingChange(msgspec.Struct):
    """What a finished rated game did to one seat's rating."""

    seat: Annotated[int, doc("The seat.")]
    identity: Annotated[str, doc(
        "Who was rated: `player:<player id>` (the player who held the seat at the deal, also "
        "one who gave it up) or `bot:<level>`.")]
    family: Annotated[RatingFamily, doc(FAMILY_DOC)]
    rank: Annotated[int, doc("The seat's place in the game, 1 the best (a shared place "
                             "shares a rank; a seat given up is last).")]
    before: Annotated[float, doc("The rating (ordinal) before the game.")]
    after: Annotated[float, doc("The rating (ordinal) after it.")]
