"""A publish that failed, or that the pause after a failure skipped, is made once the pause is
over: a player's news stream hears of a game only from a publish (found by bench/soak.py: a
`cya-bot` runner waited for good for news skipped in the pause after Redis came back)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from service.pipeline.hooks import CommitHints, NoScheduler
from service.pipeline.publishers import PlayerNews

PAUSE_S = 0.2


class RedisComingBack:
    """A publisher whose Redis is away for its first `away` publishes."""

    def __init__(self, away: int) -> None:
        self.away = away
        self.published: list[tuple[str, int, frozenset[str]]] = []

    async def publish(self, game_id: str, version: int, players: Sequence[str] = (),
                      events: Sequence[object] = ()) -> None:
        if self.away > 0:
            self.away -= 1
            raise ConnectionError("Redis is away")
        self.published.append((game_id, version, frozenset(players)))

    def subscribe(self, game_id: str) -> AsyncIterator[int]:
        raise NotImplementedError

    def subscribe_players(self) -> AsyncIterator[PlayerNews]:
        raise NotImplementedError

    async def close(self) -> None:
        pass


async def test_given_a_failed_publish_and_one_skipped_in_the_pause_then_both_are_made_after():
    publisher = RedisComingBack(away=1)
    hints = CommitHints(publisher, NoScheduler(), pause_s=PAUSE_S)

    await hints.after_commit("g1", 5, None, ["ann"])  # fails: Redis away
    await hints.after_commit("g1", 6, None, ["bob"])  # skipped: paused
    await hints.after_commit("g2", 9, None, ["cid"])  # skipped: paused
    assert publisher.published == []

    await asyncio.sleep(PAUSE_S + 0.1)

    assert publisher.published == [("g1", 6, frozenset({"ann", "bob"})),
                                   ("g2", 9, frozenset({"cid"}))]


async def test_given_redis_still_away_after_the_pause_then_the_owed_wait_for_the_next():
    publisher = RedisComingBack(away=2)
    hints = CommitHints(publisher, NoScheduler(), pause_s=PAUSE_S)

    await hints.after_commit("g1", 5, None, ["ann"])  # fails
    await asyncio.sleep(PAUSE_S + 0.1)  # tried again: fails again
    assert publisher.published == []
    await asyncio.sleep(PAUSE_S + 0.1)

    assert publisher.published == [("g1", 5, frozenset({"ann"}))]


async def test_given_redis_answering_then_a_publish_is_made_once():
    publisher = RedisComingBack(away=0)
    hints = CommitHints(publisher, NoScheduler(), pause_s=PAUSE_S)

    await hints.after_commit("g1", 5, None, ["ann"])
    await asyncio.sleep(PAUSE_S + 0.1)

    assert publisher.published == [("g1", 5, frozenset({"ann"}))]
