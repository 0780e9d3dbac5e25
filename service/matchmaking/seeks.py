"""Quick play: a seek asks for any game of a kind (player count, edition, rated or not) against
seekers of a similar rating; the range it accepts widens the longer it waits.

`pair` is the whole pairing decision: seekers of one kind, oldest first, each group the oldest
seeker still waiting with the oldest others all within range of one another. The runner calls
it inside one transaction per kind, so no seeker is matched twice.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import datetime, timedelta

import msgspec


class SeekStatus(enum.StrEnum):
    """`waiting` for a match, then `matched` (with its game) or `cancelled`."""

    CANCELLED = "cancelled"
    MATCHED = "matched"
    WAITING = "waiting"


class Kind(msgspec.Struct, frozen=True, order=True):
    """What a seeker will play: only seekers of the same kind are paired."""

    players: int
    edition: str
    rated: bool
    end_mode: str = "to_million"  # `cya_rules.EndMode`: how the game ends

    @property
    def key(self) -> str:
        return f"{self.players}:{self.edition}:{int(self.rated)}:{self.end_mode}"


class Seek(msgspec.Struct, frozen=True):
    seek_id: str
    player_id: str
    kind: Kind
    rating: float  # the seeker's ordinal in the kind's family when it sought
    rating_range: float  # ± accepted at first
    created_at: datetime
    status: SeekStatus = SeekStatus.WAITING
    game_id: str | None = None
    match_id: str | None = None


def range_at(seek: Seek, now: datetime, widen_per_s: float) -> float:
    """± the seeker accepts at `now`: its range, widened by `widen_per_s` each second waited."""
    waited = max(0.0, (now - seek.created_at).total_seconds())
    return seek.rating_range + widen_per_s * waited


def compatible(a: Seek, b: Seek, now: datetime, widen_per_s: float) -> bool:
    """Each is within the other's range (the narrower range decides), and two seekers are two
    players: one player's seeks never meet."""
    if a.player_id == b.player_id or a.kind != b.kind:
        return False
    reach = min(range_at(a, now, widen_per_s), range_at(b, now, widen_per_s))
    return abs(a.rating - b.rating) <= reach


def pair(waiting: Sequence[Seek], now: datetime, widen_per_s: float) -> list[tuple[Seek, ...]]:
    """Groups of `kind.players` seekers, all pairwise compatible; the oldest seeker first, then
    its oldest compatible others. A seeker is in at most one group."""
    queue = sorted(waiting, key=lambda s: (s.created_at, s.seek_id))
    taken: set[str] = set()
    groups: list[tuple[Seek, ...]] = []
    for anchor in queue:
        if anchor.seek_id in taken:
            continue
        group = [anchor]
        for other in queue:
            if len(group) == anchor.kind.players:
                break
            if other.seek_id in taken or any(
                    not compatible(member, other, now, widen_per_s) for member in group):
                continue
            group.append(other)
        if len(group) == anchor.kind.players:
            groups.append(tuple(group))
            taken.update(s.seek_id for s in group)
    return groups


def compatible_since(group: Sequence[Seek], widen_per_s: float) -> datetime | None:
    """When `group` first became a compatible group: its last seeker's arrival, or later when
    a range had to widen to reach another seeker (the benchmark's start of the wait it
    measures); None when no widening ever gets there."""
    at = max(s.created_at for s in group)
    for s in group:
        for other in group:
            short = abs(s.rating - other.rating) - s.rating_range
            if short <= 0:
                continue
            if widen_per_s <= 0:
                return None
            at = max(at, s.created_at + timedelta(seconds=short / widen_per_s))
    return at
