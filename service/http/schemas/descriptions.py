"""The descriptions that fields of several shapes share."""

from __future__ import annotations

GAME_ID_DOC = "The game's id."
SEAT_DOC = "Your seat; null: you watch as a spectator."
VERSION_DOC = "The game's version: the number of events in its log."
AWAITING_DOC = "The seats whose decision the game waits for; empty when it waits for none."
DEADLINE_DOC = ("When the pending decision times out (turn clock); null without a clock, for a"
                " bot's decision, or when no decision is pending.")
