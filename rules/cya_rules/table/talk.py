"""Table talk without moderation: a seated player sends one of a few preset reactions ("Good
game", "Well played", "Nice steal!", "Oops"), never free text, so there is nothing to moderate.
A reaction is a service-level event in the game's own log (public, hash-chained with the rest,
seen by the table and by watchers alike); it moves no card and no clock.

Each seat is held to one reaction per `REACTION_INTERVAL_S` seconds, by the times the log
records, and to `REACTIONS_PER_SEAT` in a game, so a log cannot be flooded. Pure like the domain.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, ClassVar, Literal

import msgspec

from cya_rules import RuleCode, RuleViolation
from cya_rules.docs import doc

Reaction = Literal["good_game", "well_played", "nice_steal", "oops"]
REACTIONS: tuple[Reaction, ...] = ("good_game", "well_played", "nice_steal", "oops")
REACTION_INTERVAL_S = 5.0
REACTIONS_PER_SEAT = 60

REACTION_DOC = (
    "One of the preset reactions (no free text, so nothing to moderate): `good_game`,"
    " `well_played`, `nice_steal` or `oops`. Clients show them in the reader's language.")


class ReactionSent(msgspec.Struct, frozen=True, gc=False, tag="reaction_sent",
                   tag_field="type"):
    """A seated player sent a preset reaction to the table (and its watchers). It changes
    nothing in the game: no card, no turn, no clock."""

    SCHEMA_VERSION: ClassVar[int] = 1

    seat: Annotated[int, doc("The seat that sent it, 0-based.")]
    reaction: Annotated[Reaction, doc(REACTION_DOC)]


TalkEvent = ReactionSent


class Talk(msgspec.Struct, frozen=True, gc=False):
    """Each seat's reactions so far in a game, by seat: how many, and when the last was
    recorded (None: never). Empty tuples: no reaction yet."""

    counts: tuple[int, ...] = ()
    last_at: tuple[datetime | None, ...] = ()

    def heard(self, seat: int, at: datetime) -> Talk:
        """After `seat`'s reaction recorded at `at`."""
        n = max(len(self.counts), seat + 1)
        counts = (*self.counts, *(0,) * (n - len(self.counts)))
        last = (*self.last_at, *(None,) * (n - len(self.last_at)))
        return Talk((*counts[:seat], counts[seat] + 1, *counts[seat + 1:]),
                    (*last[:seat], at, *last[seat + 1:]))


class ReactionTooSoon(RuleViolation):
    """A seat's reaction within `REACTION_INTERVAL_S` of its last, or past the game's cap:
    answered 429 with `Retry-After` (the seconds left; none for the cap, which is final)."""

    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(RuleCode.TOO_MANY_REACTIONS, message)
        self.retry_after = retry_after


def check_pace(talk: Talk, seat: int, now: datetime) -> None:
    """Refuses a reaction of `seat` at `now` that comes too soon after its last, or past the
    cap (`ReactionTooSoon`)."""
    count = talk.counts[seat] if seat < len(talk.counts) else 0
    if count >= REACTIONS_PER_SEAT:
        raise ReactionTooSoon(f"A seat sends at most {REACTIONS_PER_SEAT} reactions a game.",
                              None)
    last = talk.last_at[seat] if seat < len(talk.last_at) else None
    if last is None:
        return
    left = REACTION_INTERVAL_S - (now - last).total_seconds()
    if left > 0:
        raise ReactionTooSoon(f"One reaction per {REACTION_INTERVAL_S:g} seconds per seat: "
                              f"the next in {left:.1f} s.", left)
