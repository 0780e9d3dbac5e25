"""The two streams as generators that resume: a player's news (NDJSON) and a game's events
(Server-Sent Events). A dropped connection is reopened after the last item's id (`?after=` /
`Last-Event-ID`); heartbeats are skipped; a 429 or 503 on reopening waits its `Retry-After`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

import httpx

from cya_client.errors import ProblemError
from cya_client.models import EventOut, GameEnded, News, Receipt
from cya_client.transport import RETRYABLE_STATUS, AsyncSession, Call, RetryPolicy, Session, decoder

T = TypeVar("T")


class StreamEvent(EventOut, kw_only=True):
    """One event of a game's stream: the event, and whose decision the game waits for after
    it."""

    #: The seats whose decision the game waits for after this event.
    awaiting: list[int]
    #: When that decision times out (turn clock); null without a clock, or for a bot's decision.
    deadline: datetime | None
    #: The server's signed receipt for the log at this event's version (docs/receipts.md).
    receipt: Receipt | None = None


class StreamLost(ConnectionError):
    """A stream could not be reopened within the retry policy's attempts."""


@dataclass
class SseMessage:
    id: str | None
    event: str
    data: str


@dataclass
class SseParser:
    """Server-Sent Events, line by line (the WHATWG rules a client needs: comments, `id`,
    `event`, multi-line `data`, dispatch on a blank line)."""

    _data: list[str] = field(default_factory=list)
    _event: str = ""
    _id: str | None = None

    def feed(self, line: str) -> SseMessage | None:
        if not line:
            if not self._data:
                self._event = ""
                return None
            message = SseMessage(self._id, self._event or "message", "\n".join(self._data))
            self._data, self._event = [], ""
            return message
        if line.startswith(":"):
            return None  # a comment: the heartbeat
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        return None


class Reader(Protocol[T]):
    """Turns one connection's lines into items (`feed`: an item and its resume id, or None for
    a line that completes none); knows the item after which a stream ends."""

    def connected(self) -> None: ...
    def feed(self, line: str) -> tuple[T, str] | None: ...
    def done(self, item: T) -> bool: ...


class NewsReader:
    _decode = staticmethod(decoder(News).decode)

    def connected(self) -> None:
        pass

    def feed(self, line: str) -> tuple[News, str] | None:
        if not line.strip():
            return None  # a heartbeat
        news: News = self._decode(line)
        return news, news.id

    def done(self, item: News) -> bool:
        return False


class EventReader:
    _decode = staticmethod(decoder(StreamEvent).decode)

    def __init__(self) -> None:
        self.parser = SseParser()

    def connected(self) -> None:
        self.parser = SseParser()

    def feed(self, line: str) -> tuple[StreamEvent, str] | None:
        message = self.parser.feed(line)
        if message is None or message.event != "message":
            return None
        item: StreamEvent = self._decode(message.data)
        return item, message.id or str(item.version)

    def done(self, item: StreamEvent) -> bool:
        return isinstance(item.event, GameEnded)


@dataclass
class _Reconnects:
    policy: RetryPolicy
    failures: int = 0

    def wait(self, error: BaseException | None) -> float:
        """After a lost connection: how long to wait before reopening (raises when it is
        time to give up, or the error is not one to retry)."""
        retry_after: float | None = None
        if isinstance(error, ProblemError):
            if error.status not in RETRYABLE_STATUS:
                raise error
            retry_after = error.retry_after
        self.failures += 1
        if self.failures >= self.policy.attempts:
            raise StreamLost(f"gave up after {self.failures} attempts") from error
        if retry_after is not None:
            return min(retry_after, self.policy.max_retry_after)
        return 0.0 if self.failures == 1 else self.policy.wait(self.failures - 1)


_LOST = (httpx.TransportError, ProblemError)


def resumable(session: Session, open_at: Callable[[str | None], Call[Any]],
              reader: Reader[T], last: str | None = None) -> Iterator[T]:
    reconnects = _Reconnects(session.retry)
    while True:
        error: BaseException | None = None
        try:
            with session.stream(open_at(last)) as response:
                reader.connected()
                for line in response.iter_lines():
                    if (found := reader.feed(line)) is None:
                        continue
                    (item, last), reconnects.failures = found, 0
                    if isinstance(item, StreamEvent) and session.receipts is not None:
                        session.receipts.keep(item.receipt)
                    yield item
                    if reader.done(item):
                        return
        except _LOST as lost:
            error = lost
        time.sleep(reconnects.wait(error))


async def aresumable(session: AsyncSession, open_at: Callable[[str | None], Call[Any]],
                     reader: Reader[T], last: str | None = None) -> AsyncIterator[T]:
    reconnects = _Reconnects(session.retry)
    while True:
        error: BaseException | None = None
        try:
            async with session.stream(open_at(last)) as response:
                reader.connected()
                async for line in response.aiter_lines():
                    if (found := reader.feed(line)) is None:
                        continue
                    (item, last), reconnects.failures = found, 0
                    if isinstance(item, StreamEvent) and session.receipts is not None:
                        session.receipts.keep(item.receipt)
                    yield item
                    if reader.done(item):
                        return
        except _LOST as lost:
            error = lost
        await asyncio.sleep(reconnects.wait(error))
