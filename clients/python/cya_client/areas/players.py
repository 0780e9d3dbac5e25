"""Players: create one (and its API key), who am I, and my news across all my games."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from cya_client.areas.base import Area, AsyncArea
from cya_client.models import NewPlayer, News, PlayerCreated, PlayerOut
from cya_client.streams import NewsReader, aresumable, resumable
from cya_client.transport import Call

NEWS_WAIT = 60.0  # the longest silence before a stream counts as dropped (heartbeats: 15 s)


def create(name: str | None, bot: bool = False) -> Call[PlayerCreated]:
    """`bot`: a bot account, shown as one in player views and on the leaderboard."""
    if bot:
        return Call("POST", "/v1/players", PlayerCreated,
                    body=NewPlayer(name=name or "bot", bot=True))
    return Call("POST", "/v1/players", PlayerCreated,
                body=NewPlayer(name=name) if name is not None else None)


def me() -> Call[PlayerOut]:
    return Call("GET", "/v1/players/me", PlayerOut)


def news_at(last: str | None) -> Call[bytes]:
    return Call("GET", "/v1/players/me/events", bytes, params={"after": last},
                headers={"Accept": "application/x-ndjson"}, waits=NEWS_WAIT)


class Players(Area):
    def create(self, name: str | None = None, *, bot: bool = False) -> PlayerCreated:
        """A new player and its API key (shown once); `bot`: a bot account. The session keeps
        its own key: set `client.api_key` to play as the new player."""
        return self._s.run(create(name, bot))

    def me(self) -> PlayerOut:
        return self._s.run(me())

    def news(self, after: str | None = None) -> Iterator[News]:
        """Your news (`seated`, `game_started`, `your_turn` with the whole turn,
        `game_finished`) as it happens, forever; resumes after a dropped connection."""
        return resumable(self._s, news_at, NewsReader(), after)


class AsyncPlayers(AsyncArea):
    async def create(self, name: str | None = None, *, bot: bool = False) -> PlayerCreated:
        return await self._s.run(create(name, bot))

    async def me(self) -> PlayerOut:
        return await self._s.run(me())

    def news(self, after: str | None = None) -> AsyncIterator[News]:
        return aresumable(self._s, news_at, NewsReader(), after)
