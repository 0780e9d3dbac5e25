"""Per-game, in-process fan-out of the log for streams and long polls.

However many clients follow a game in this process, one task listens for its publishes and
reads each new stretch of the log once (or takes it from the publish, when the publish carries
the events that follow the feed's); every follower then redacts the shared events for its
own seat. A publish is only a hint: every `poll` seconds one task of the process also reads
the recorded version of every game followed here, in one query, and the feeds behind it read
their logs, so a lost message delays a stream by at most `poll` seconds and never loses an
event. (A timer per feed read each game's log every `poll` seconds: 5,000 games followed in
a process were 2,500 queries a second, changed or not.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from cya_rules.table.seats import SeatHolder
from service.events.event_store import EventStore
from service.events.records import StoredEvent
from service.pipeline.hooks import Publisher
from service.table.clock import deadline
from service.table.game import Game, apply_at

log = logging.getLogger("cya.http.feeds")

FINAL_EVENT = "game_ended"  # only talk and a rematch's offer follow it in a game's log

BEHIND_BATCH = 1000  # games per query of the recorded versions
STOP_WAIT_S = 1.0  # how long a request waits for its feed's pump to end
_ending: set[asyncio.Task[Any]] = set()  # tasks told to end: held until they have


async def end_task(task: asyncio.Task[Any]) -> None:
    """Cancels `task` and waits `STOP_WAIT_S` at most for it to end, quietly."""
    task.cancel()
    await asyncio.wait({task}, timeout=STOP_WAIT_S)
    if not task.done():
        log.warning("%s did not end within %.1f s of its cancellation; left to end by itself",
                    task.get_name(), STOP_WAIT_S)
        _ending.add(task)
        task.add_done_callback(_ending.discard)
    elif not task.cancelled() and task.exception() is not None:
        log.debug("task %s ended with %r", task.get_name(), task.exception())


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class After(NamedTuple):
    """A game after one of its events: whose decision it waits for and until when (for the
    stream's `awaiting` and `deadline`), and who holds each seat (a seat's events are shown
    to its player only while the seat is theirs)."""

    awaiting: list[int]
    deadline: datetime | None
    seats: tuple[SeatHolder | None, ...]


class FollowedGames(Protocol):
    """Told what each feed takes, and when a game is no longer followed here: the pipeline,
    whose cached games then need no catch-up read before a command (`Pipeline.heard`)."""

    def heard(self, game_id: str, events: Sequence[StoredEvent]) -> None: ...

    def unfollowed(self, game_id: str) -> None: ...


class Feed:
    def __init__(self, game_id: str, store: EventStore, publisher: Publisher, poll: float,
                 followed: FollowedGames | None = None) -> None:
        self.game_id, self.store, self.publisher, self.poll = game_id, store, publisher, poll
        self.followed = followed
        self.events: list[StoredEvent] = []
        self.after_each: list[After] = []  # the game after each event
        self._game: Game | None = Game(game_id)  # the events folded, for `after_each`
        self.version = 0
        # The latest stretch's events as its followers encoded them, by (version, viewer), when
        # it has several: a public event encoded once for every follower, a seat's once for
        # its streams. Cleared when the next stretch comes (followers are rarely further back).
        self.frames: dict[tuple[int, object], bytes] = {}
        self.users = 0
        self.draining = False  # the process is stopping: waiters return, streams end
        self._over = False  # `game_ended` is in the feed
        self._waiters: set[asyncio.Future[None]] = set()  # `wait_past`'s, woken by news
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._pump())
        await asyncio.sleep(0)  # let the subscription register before the first read
        await self.refresh()

    async def stop(self) -> None:
        """Ends the pump, waiting for it a moment at most: the caller is a long poll or a
        stream that owes its client an answer now (a pump that takes longer ends by itself
        at its subscription's next read)."""
        # Let go of the task: it holds this feed (its coroutine's frame, and the frames of
        # the cancellation's traceback), so holding it was a cycle that only a full
        # collection frees (`service/wiring/paced_gc.py`): a feed's whole log, kept.
        task, self._task = self._task, None
        if task is not None:
            await end_task(task)

    async def refresh(self) -> None:
        async with self._lock:
            # The store's catch-up read (PostgreSQL: a prepared statement on a pool of its
            # own, no transaction around it): read by every process at every commit of a
            # followed game, it cost more than the command did through SQLAlchemy.
            read = await self.store.tail(self.game_id, after=self.version)
            self._extend([s for s in read if s.version > self.version])  # `take` may have

    def take(self, stored: Sequence[StoredEvent]) -> None:
        """Events just committed (by this process, or carried by a publish), when they follow
        the feed's: no read."""
        if stored and stored[0].version == self.version + 1:
            self._extend(stored)

    def _extend(self, new: Sequence[StoredEvent]) -> None:
        if new:
            self.frames.clear()
            self.after_each.extend(self._fold(s) for s in new)
            self.events.extend(new)
            self._over = self._over or any(s.type == FINAL_EVENT for s in new)
            self.version = new[-1].version
            if self.followed is not None:
                self.followed.heard(self.game_id, new)
            self.wake()

    def _fold(self, stored: StoredEvent) -> After:
        """The game after this event; nothing known once the rules cannot replay the log (a
        damaged log: its events are still shown)."""
        if self._game is not None:
            try:
                self._game = apply_at(self._game, stored.event, stored.recorded_at)
            except Exception:
                log.exception("game %s cannot be replayed at version %d; its stream goes on "
                              "without who is awaited", self.game_id, stored.version)
                self._game = None
        game = self._game
        if game is None or game.lobby is None:
            return After([], None, ())
        pending = game.pending_seat()
        if pending is None:
            return After([], None, game.lobby.seats)
        return After([pending[0]], deadline(game), game.lobby.seats)

    @property
    def ended(self) -> bool:
        """The game is over: no move will ever follow (a reaction or a rematch's offer may:
        they are read as pages, not waited for)."""
        return self._over

    async def wait_past(self, version: int, timeout: float) -> bool:
        """Until the feed holds events after `version` or the game has ended (True), or
        `timeout` passes (False).

        It always suspends at least once, even when it can answer at once: a caller's wait
        loop then cannot spin without letting the rest of the process run (a `/turn` poll
        whose reload kept answering a stale game used to hold the event loop for its whole
        timeout, and with it the very commit that would have freshened the game)."""
        if self._past(version):
            await asyncio.sleep(0)  # answered at once: suspended all the same
            return True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            # A future and a timer that resolves it, not `wait_for` (a task per wait, of every
            # stream at every event of a game a crowd follows) nor `asyncio.timeout` (two
            # exceptions raised and caught at each of 10,000 streams' heartbeats).
            waiter = loop.create_future()
            self._waiters.add(waiter)
            timer = loop.call_at(deadline, _resolve, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiters.discard(waiter)
            if self._past(version):
                return True
            if deadline <= loop.time():
                return False

    def _past(self, version: int) -> bool:
        """Nothing more to wait for: events after `version`, the game over, or draining."""
        return self.version > version or self.draining or self.ended

    def wake(self) -> None:
        """Every `wait_past` looks again (news came, or the process is draining)."""
        waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            _resolve(waiter)

    def after(self, version: int) -> list[StoredEvent]:
        return self.events[version:] if version >= 0 else self.events  # versions are 1, 2, …

    async def _pump(self) -> None:
        sub = self.publisher.subscribe(self.game_id)
        loop, last_loss = asyncio.get_running_loop(), float("-inf")
        try:
            while True:
                try:
                    # Awaited here, not in a task of its own: a subscription only waits on a
                    # queue (`redis_channels` reads Redis), so a cancellation reaches it.
                    published = await anext(sub)
                    if published.version <= self.version:  # taken already: this commit's own
                        continue
                    self.take(published.events)
                    if published.version <= self.version:
                        continue
                except Exception:
                    # The subscription failed (a publisher's connection lost): the pump used
                    # to die here and every waiter sharing this feed slept out its whole
                    # timeout. Resubscribe; the process's timer reads for it meanwhile.
                    log.warning("feed subscription lost for %s; resubscribing",
                                self.game_id, exc_info=True)
                    with contextlib.suppress(Exception):
                        await sub.aclose()  # type: ignore[attr-defined]
                    now = loop.time()
                    if now - last_loss < self.poll:  # the publisher is away: wait for it
                        await asyncio.sleep(self.poll)
                    last_loss = now
                    sub = self.publisher.subscribe(self.game_id)
                try:
                    await self.refresh()
                except Exception:  # the database may be away for a moment: the timer retries
                    log.exception("feed refresh failed for %s", self.game_id)
        finally:
            # Quietly: with Redis away, ending the subscription fails as well, and that was
            # the 500 of the long poll whose feed this was.
            with contextlib.suppress(Exception):
                await sub.aclose()  # type: ignore[attr-defined]


class Feeds:
    def __init__(self, store: EventStore, publisher: Publisher, poll: float = 2.0,
                 followed: FollowedGames | None = None) -> None:
        self.store, self.publisher, self.poll, self.followed = store, publisher, poll, followed
        self._feeds: dict[str, Feed] = {}
        self.draining = False
        self._timer: asyncio.Task[None] | None = None

    def drain(self) -> None:
        """Wake every waiter for good: the server waits for open requests before it stops,
        and a long poll (up to 30 s) or an event stream (endless) would hold it."""
        self.draining = True
        for feed in self._feeds.values():
            feed.draining = True
            feed.wake()

    @contextlib.asynccontextmanager
    async def follow(self, game_id: str) -> AsyncIterator[Feed]:
        if self._timer is None or self._timer.done():
            self._timer = asyncio.create_task(self._read_behind(), name="feeds-timer")
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = Feed(game_id, self.store, self.publisher, self.poll,
                                               self.followed)
            feed.draining = self.draining
            feed.users += 1
            try:
                await feed.start()
            except BaseException:
                await self._release(feed)
                raise
        else:
            feed.users += 1
        try:
            yield feed
        finally:
            await self._release(feed)

    async def _release(self, feed: Feed) -> None:
        feed.users -= 1
        if feed.users == 0:
            if self._feeds.get(feed.game_id) is feed:
                del self._feeds[feed.game_id]
                if self.followed is not None:
                    self.followed.unfollowed(feed.game_id)
            await feed.stop()

    async def committed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                        ) -> None:
        """A commit of this process (a `CommitListener`): its game's feed here takes the
        events as committed, without reading them back; the publish that follows finds the
        feed there already (elsewhere it reads them)."""
        feed = self._feeds.get(after.game_id)
        if feed is not None:
            feed.take(stored)

    async def _read_behind(self) -> None:
        """Every `poll` seconds, the feeds whose game's recorded version is past theirs read
        their logs: what a lost publish would have told them."""
        while True:
            await asyncio.sleep(self.poll)
            try:
                followed = list(self._feeds)
                for i in range(0, len(followed), BEHIND_BATCH):
                    recorded = await self.store.recorded_versions(followed[i:i + BEHIND_BATCH])
                    behind = [feed for game_id, version in recorded.items()
                              if (feed := self._feeds.get(game_id)) is not None
                              and version > feed.version]
                    for feed in behind:
                        await feed.refresh()
            except Exception:  # the database may be away for a moment: the next round
                log.exception("reading the feeds' recorded versions failed")

    async def close(self) -> None:
        if self._timer is not None:
            await end_task(self._timer)
            self._timer = None
        for feed in list(self._feeds.values()):
            await feed.stop()
        self._feeds.clear()
