"""Who plays in a tournament: players and the built-in bot levels.

Extension point for bots on webhooks: such a bot is a *player* (a player with a registered
endpoint), so it enters as a `PlayerEntrant` and its seats are ordinary human seats, played by
the webhooks package. A new kind of entrant is a new tagged struct here and a case in
`runner.tables.seat_holder_for`.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from cya_rules.docs import doc


class PlayerEntrant(msgspec.Struct, frozen=True, gc=False, tag="player", tag_field="kind",
                    forbid_unknown_fields=True):
    """A player (a person, or a bot that plays through the API or a webhook)."""

    player_id: Annotated[str, doc("The player's id.")]


class BotEntrant(msgspec.Struct, frozen=True, gc=False, tag="bot", tag_field="kind",
                 forbid_unknown_fields=True):
    """One of the server's built-in bots. Several entrants may share a level."""

    level: Annotated[str, doc("The bot level: `random`, `greedy`, `expert` or `ismcts`; "
                              "GET /v1/rulesets describes each.")]


Entrant = PlayerEntrant | BotEntrant


def identity_of(entrant: Entrant) -> str:
    return (f"player:{entrant.player_id}" if isinstance(entrant, PlayerEntrant)
            else f"bot:{entrant.level}")


def is_busy_alone(entrant: Entrant) -> bool:
    """A player sits at one table at a time; a built-in bot at any number at once."""
    return isinstance(entrant, PlayerEntrant)
