"""The pairing decision, pure: oldest first, within each other's widening range, each seeker
in one group at most, one player never against itself."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import combinations

from service.matchmaking.seeks import Kind, Seek, compatible, compatible_since, pair

T0 = datetime(2026, 1, 1, tzinfo=UTC)
TWO = Kind(2, "en_2022", False)


def _seek(n: int, rating: float, *, kind: Kind = TWO, at: float = 0.0, span: float = 5.0,
          player: str | None = None) -> Seek:
    return Seek(f"s{n:04d}", player or f"p{n}", kind, rating, span, T0 + timedelta(seconds=at))


def test_given_three_compatible_seekers_then_the_two_oldest_are_paired() -> None:
    a, b, c = _seek(1, 10, at=0), _seek(2, 12, at=1), _seek(3, 11, at=2)

    assert pair([c, b, a], T0 + timedelta(seconds=2), 0.0) == [(a, b)]


def test_given_ratings_apart_when_ranges_widen_with_time_then_they_are_paired() -> None:
    a, b = _seek(1, 0, span=2), _seek(2, 10, span=2)

    assert pair([a, b], T0, 1.0) == []
    assert pair([a, b], T0 + timedelta(seconds=8), 1.0) == [(a, b)]
    assert compatible_since([a, b], 1.0) == T0 + timedelta(seconds=8)


def test_one_players_two_seeks_never_meet_and_kinds_never_mix() -> None:
    mine = [_seek(1, 0, player="me"), _seek(2, 0, player="me")]
    rated = _seek(3, 0, kind=Kind(2, "en_2022", True))

    assert pair([*mine, rated], T0, 1.0) == []


def test_given_many_random_seekers_then_no_one_is_matched_twice_and_no_compatible_group_is_left(
        ) -> None:
    rng = random.Random(7)
    kinds = [Kind(n, "en_2022", r) for n in (2, 3, 4) for r in (False, True)]
    seeks = [_seek(i, rng.uniform(0, 30), kind=rng.choice(kinds), at=rng.uniform(0, 10))
             for i in range(300)]
    now = T0 + timedelta(seconds=10)

    groups = pair(seeks, now, 0.5)

    matched = [s.seek_id for g in groups for s in g]
    assert len(matched) == len(set(matched))
    assert all(compatible(a, b, now, 0.5) for g in groups for a, b in combinations(g, 2))
    left = [s for s in seeks if s.seek_id not in set(matched)]
    for a, b in combinations(left, 2):  # two-seat kinds: no compatible pair stays waiting
        assert a.kind.players != 2 or not compatible(a, b, now, 0.5)
