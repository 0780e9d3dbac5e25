"""Games that end without a result, and rematches: service-level events in the game's own log
(public, hash-chained with the rest), each with its reason.

- `LobbyExpired`: a lobby nobody started within the lobby time limit (a setting).
- `GameAbandoned`: a running game without a turn clock that waited on a human for longer
  than the idle limit (a setting). Nobody wins; ratings leave it out (README, Ratings).
- `RematchOffered`, in a finished (or abandoned) game: the rematch's id, for its players.
- `InvitationDeclined`: an invited player turned a rematch's reserved seat down; it is open
  to anyone since.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec

from cya_rules.docs import doc


class _EndingEvent(msgspec.Struct, frozen=True, gc=False, tag_field="type"):
    SCHEMA_VERSION: ClassVar[int] = 1


class LobbyExpired(_EndingEvent, frozen=True, tag="lobby_expired"):
    """The game was never started and its lobby expired: it is over without a deal."""

    reason: Annotated[str, doc("Why, in words, e.g. `not started within 24 hours`.")]


class GameAbandoned(_EndingEvent, frozen=True, tag="game_abandoned"):
    """A running game without a turn clock waited on a human seat too long: it ended
    abandoned, without winners; ratings leave it out."""

    seat: Annotated[int, doc("The seat whose decision the game waited for.")]
    player_id: Annotated[str, doc("The player who held that seat.")]
    reason: Annotated[str, doc("Why, in words, e.g. `no human acted for 7 days`.")]


class RematchOffered(_EndingEvent, frozen=True, tag="rematch_offered"):
    """One of the game's players asked for a rematch: a new game with the same rules, the
    seats rotated, the other players invited to their new seats."""

    game_id: Annotated[str, doc("The rematch's game id.")]
    player_id: Annotated[str, doc("The player who asked for it.")]


class InvitationDeclined(_EndingEvent, frozen=True, tag="invitation_declined"):
    """Before the start, an invited player declined the seat kept for them; it is open."""

    seat: Annotated[int, doc("The seat that was kept for them.")]
    player_id: Annotated[str, doc("The player who declined.")]


EndingEvent = LobbyExpired | GameAbandoned | RematchOffered | InvitationDeclined
