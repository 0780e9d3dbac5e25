"""Players' news, fanned out in this process: one reader of every player's news (one Redis
subscription, or the in-process publisher), and an inbox per open stream.

News is a hint like every publish: (game, version) for a player, which its stream reads the
game for. While the subscription is down news may be lost; each loss is counted (`losses`),
and a stream that sees the count move looks again at every game of its player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator

from service.http.feeds import end_task
from service.pipeline.hooks import Publisher

log = logging.getLogger("cya.http.player_feeds")

Inbox = asyncio.Queue[tuple[str, int]]  # (game id, version)
RESUBSCRIBE_S = 1.0


class PlayerFeeds:
    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher
        self._inboxes: dict[str, set[Inbox]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self.losses = 0
        self.draining = False
        self._drained = asyncio.Event()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump())

    @contextlib.asynccontextmanager
    async def follow(self, player_id: str) -> AsyncIterator[Inbox]:
        self.start()
        inbox: Inbox = asyncio.Queue()
        self._inboxes[player_id].add(inbox)
        try:
            yield inbox
        finally:
            self._inboxes[player_id].discard(inbox)
            if not self._inboxes[player_id]:
                del self._inboxes[player_id]

    async def next(self, inbox: Inbox, timeout: float) -> tuple[str, int] | None:
        """The next news, or None after `timeout` seconds or once the process is stopping."""
        getting = asyncio.ensure_future(inbox.get())
        stopping = asyncio.ensure_future(self._drained.wait())
        try:
            await asyncio.wait({getting, stopping}, timeout=timeout,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not getting.done():
                getting.cancel()
        return getting.result() if getting.done() and not getting.cancelled() else None

    def drain(self) -> None:
        """End every stream: the process is stopping (their clients resume elsewhere)."""
        self.draining = True
        self._drained.set()

    async def _pump(self) -> None:
        while True:
            news = self.publisher.subscribe_players()
            try:
                async for game_id, version, players in news:
                    if not players:  # `NEWS_MAY_BE_LOST`: Redis came back
                        self.losses += 1
                        log.warning("players' news subscribed again; news may have been lost")
                    for player_id in players:
                        for inbox in self._inboxes.get(player_id, ()):
                            inbox.put_nowait((game_id, version))
            except Exception:
                self.losses += 1
                log.warning("players' news subscription lost; resubscribing", exc_info=True)
                await asyncio.sleep(RESUBSCRIBE_S)
            finally:
                with contextlib.suppress(Exception):
                    await news.aclose()  # type: ignore[attr-defined]

    async def close(self) -> None:
        self.drain()
        if self._task is not None:
            await end_task(self._task)
            self._task = None
