"""The shapes of the player routes (`routes/players.py`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from cya_rules.docs import doc
from service.http.schemas.ratings import RatingOut

# A name is shown to other players: something visible, on one line, without control characters
# (PostgreSQL refuses a NUL in text). `(?![\s\S])` is the end of the string in Python and
# ECMAScript alike: Python's `$` would let a final newline through.
DISPLAY_NAME = r"^(?=[\s\S]*\S)[^\x00-\x1f\x7f-\x9f\u2028\u2029]*(?![\s\S])"


_BOT = ("A bot account, played by a program (as Lichess's BOT accounts): shown in player views "
        "and the leaderboard, which can list people, bots or both. Set at creation, for good.")


_ARENA = ("A bot account in the standing arena: when the operator runs one "
          "(`CYA_BOT_ARENA_PLAYERS`), it is paired continuously in rated games against the "
          "arena's other bots. `true` makes the player a bot account.")


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    """The optional body of `POST /v1/players`: the new player's display name, and whether it
    is a bot account."""

    name: Annotated[
        str,
        msgspec.Meta(min_length=1, max_length=64, pattern=DISPLAY_NAME),
        doc("Display name, shown in `GET /v1/players/me` and in the summaries of your games:"
            " 1 to 64 characters, not all blank, no control characters or line breaks."),
    ] = "player"
    bot: Annotated[bool, doc(_BOT)] = False
    arena: Annotated[bool, doc(_ARENA)] = False


class PlayerOut(msgspec.Struct):
    """A player, as `GET /v1/players/me` (and, for anyone, `GET /v1/players/{player_id}`)
    returns it."""

    player_id: Annotated[str, doc("The player's id; a game names its creator and players by it.")]
    name: Annotated[str, doc("Display name.")]
    created_at: Annotated[datetime, doc("When the player was created.")]
    ratings: Annotated[list[RatingOut], doc(
        "Its ratings, one per family it played rated games in.")] = []
    bot: Annotated[bool, doc(_BOT)] = False
    arena: Annotated[bool, doc(_ARENA)] = False


class PlayerCreated(msgspec.Struct):
    """A new player and its API key, as `POST /v1/players` returns it."""

    player_id: Annotated[str, doc("The player's id; a game names its creator and players by it.")]
    name: Annotated[str, doc("Display name.")]
    api_key: Annotated[
        str,
        doc("Send it as `Authorization: Bearer <key>`. Shown only this once: the server keeps"
            " only its SHA-256."),
    ]
    bot: Annotated[bool, doc(_BOT)] = False
    arena: Annotated[bool, doc(_ARENA)] = False
