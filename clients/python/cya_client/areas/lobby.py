"""The lobby (`client.games`): list and create games, take seats, add bots, start, leave and
resign. Every write carries an `Idempotency-Key`, so a retry never does it twice."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import msgspec

from cya_client.areas.base import Area, AsyncArea, path
from cya_client.models import (
    AddBotBody,
    GameDetail,
    GamePage,
    GameSummary,
    JoinSeat,
    NewGame,
)
from cya_client.transport import Call

Filters = dict[str, Any]


def listing(mine: bool | None, status: str | None, edition: str | None,
            end_mode: str | None, players: int | None, cursor: str | None,
            limit: int | None) -> Call[GamePage]:
    return Call("GET", "/v1/games", GamePage, params={
        "mine": mine, "status": status, "edition": edition, "end_mode": end_mode,
        "players": players, "cursor": cursor, "limit": limit})


def create(game: NewGame) -> Call[GameSummary]:
    return Call("POST", "/v1/games", GameSummary, body=game, idempotent=True)


def get(game_id: str) -> Call[GameDetail]:
    return Call("GET", path(game_id), GameDetail)


def bot(level: str, seat: int | None) -> AddBotBody:
    return msgspec.convert({"level": level, "seat": seat}, AddBotBody)  # checks the level


def write(game_id: str, rest: str, body: Any = None) -> Call[GameSummary]:
    return Call("POST", path(game_id, rest), GameSummary, body=body, idempotent=True)


class Games(Area):
    def list(self, *, mine: bool | None = None, status: str | None = None,
             edition: str | None = None, end_mode: str | None = None,
             players: int | None = None, cursor: str | None = None,
             limit: int | None = None) -> GamePage:
        """One page of the lobby (public games, or with `mine=True` yours), newest first."""
        return self._s.run(listing(mine, status, edition, end_mode, players, cursor, limit))

    def iterate(self, **filters: Any) -> Iterator[GameSummary]:
        """Every game `list` finds, page after page."""
        cursor = None
        while True:
            page = self.list(**filters, cursor=cursor)
            yield from page.games
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def create(self, game: NewGame, *, idempotency_key: str | None = None) -> GameSummary:
        return self._s.run(create(game), idempotency_key)

    def get(self, game_id: str) -> GameDetail:
        return self._s.run(get(game_id))

    def join(self, game_id: str, seat: int | None = None, *,
             idempotency_key: str | None = None) -> GameSummary:
        """Take a seat (the lowest open one by default)."""
        return self._s.run(write(game_id, "/seats", JoinSeat(seat=seat)), idempotency_key)

    def add_bot(self, game_id: str, level: str = "random", seat: int | None = None, *,
                idempotency_key: str | None = None) -> GameSummary:
        return self._s.run(write(game_id, "/bots", bot(level, seat)), idempotency_key)

    def start(self, game_id: str, *, idempotency_key: str | None = None) -> GameSummary:
        return self._s.run(write(game_id, "/start"), idempotency_key)

    def leave(self, game_id: str, *, idempotency_key: str | None = None) -> GameSummary:
        return self._s.run(write(game_id, "/leave"), idempotency_key)

    def resign(self, game_id: str, *, idempotency_key: str | None = None) -> GameSummary:
        """Hand your seat to a bot for the rest of the game."""
        return self._s.run(write(game_id, "/resign"), idempotency_key)

    def rematch(self, game_id: str, *, idempotency_key: str | None = None) -> GameSummary:
        """Once a game is over: a new one, same rules and players, seats rotated, the other
        players invited (or the rematch already asked for)."""
        return self._s.run(write(game_id, "/rematch"), idempotency_key)

    def decline(self, game_id: str, *, idempotency_key: str | None = None) -> GameSummary:
        """Turn down the seat kept for you in a rematch."""
        return self._s.run(write(game_id, "/decline"), idempotency_key)


class AsyncGames(AsyncArea):
    async def list(self, *, mine: bool | None = None, status: str | None = None,
                   edition: str | None = None, end_mode: str | None = None,
                   players: int | None = None, cursor: str | None = None,
                   limit: int | None = None) -> GamePage:
        return await self._s.run(listing(mine, status, edition, end_mode, players, cursor,
                                         limit))

    async def iterate(self, **filters: Any) -> AsyncIterator[GameSummary]:
        cursor = None
        while True:
            page = await self.list(**filters, cursor=cursor)
            for game in page.games:
                yield game
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def create(self, game: NewGame, *, idempotency_key: str | None = None
                     ) -> GameSummary:
        return await self._s.run(create(game), idempotency_key)

    async def get(self, game_id: str) -> GameDetail:
        return await self._s.run(get(game_id))

    async def join(self, game_id: str, seat: int | None = None, *,
                   idempotency_key: str | None = None) -> GameSummary:
        return await self._s.run(write(game_id, "/seats", JoinSeat(seat=seat)),
                                 idempotency_key)

    async def add_bot(self, game_id: str, level: str = "random", seat: int | None = None, *,
                      idempotency_key: str | None = None) -> GameSummary:
        return await self._s.run(write(game_id, "/bots", bot(level, seat)), idempotency_key)

    async def start(self, game_id: str, *, idempotency_key: str | None = None) -> GameSummary:
        return await self._s.run(write(game_id, "/start"), idempotency_key)

    async def leave(self, game_id: str, *, idempotency_key: str | None = None) -> GameSummary:
        return await self._s.run(write(game_id, "/leave"), idempotency_key)

    async def resign(self, game_id: str, *, idempotency_key: str | None = None
                     ) -> GameSummary:
        return await self._s.run(write(game_id, "/resign"), idempotency_key)

    async def rematch(self, game_id: str, *, idempotency_key: str | None = None
                      ) -> GameSummary:
        return await self._s.run(write(game_id, "/rematch"), idempotency_key)

    async def decline(self, game_id: str, *, idempotency_key: str | None = None
                      ) -> GameSummary:
        return await self._s.run(write(game_id, "/decline"), idempotency_key)
