"""Follow a game: its log as you may see it, by page or as a live stream that resumes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

from cya_client.areas.base import Area, AsyncArea, path
from cya_client.models import EventPage
from cya_client.streams import EventReader, StreamEvent, aresumable, resumable
from cya_client.transport import Call

STREAM_WAIT = 60.0  # the longest silence before a stream counts as dropped (heartbeats: 15 s)


def page(game_id: str, after: int, limit: int | None) -> Call[EventPage]:
    return Call("GET", path(game_id, "/events"), EventPage,
                params={"after": after, "limit": limit})


def _opener(game_id: str, after: int) -> Callable[[str | None], Call[bytes]]:
    def open_at(last: str | None) -> Call[bytes]:
        return Call("GET", path(game_id, "/events"), bytes,
                    headers={"Accept": "text/event-stream",
                             "Last-Event-ID": last or str(after)},
                    waits=STREAM_WAIT)
    return open_at


class Follow(Area):
    def events(self, game_id: str, after: int = 0, limit: int | None = None) -> EventPage:
        """A page of the log after version `after`."""
        return self._s.run(page(game_id, after, limit))

    def stream(self, game_id: str, after: int = 0) -> Iterator[StreamEvent]:
        """The events after version `after` as they happen, until `game_ended`; resumes with
        `Last-Event-ID` after a dropped connection."""
        return resumable(self._s, _opener(game_id, after), EventReader())


class AsyncFollow(AsyncArea):
    async def events(self, game_id: str, after: int = 0, limit: int | None = None
                     ) -> EventPage:
        return await self._s.run(page(game_id, after, limit))

    def stream(self, game_id: str, after: int = 0) -> AsyncIterator[StreamEvent]:
        return aresumable(self._s, _opener(game_id, after), EventReader())
