"""The lobby (`client.games`): list and create games, take seats, add bots, start, leave and
resign. Every write carries an `Idempotency-Key`, so a retry never does it twice.

Taking a seat (creating a game you join, or joining one) sends your seat's client seed, 32
bytes from the operating system's CSPRNG unless you give one (`None`: send none), so that your
seat adds to the randomness of the deal (docs/fair-shuffle.md §7)."""

from __future__ import annotations

import base64
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import replace

from cya_client.areas.base import Area, AsyncArea, path
from cya_client.models import (
    AddBotBody,
    ClientSeedBody,
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


Seed = bytes | None | UnsetType  # UNSET: a fresh random one; None: none


def fresh_seed() -> bytes:
    """A client seed from the CSPRNG: 32 bytes, as many as the server's own master seed."""
    return secrets.token_bytes(32)


def _b64(seed: Seed) -> str | None:
    seed = fresh_seed() if seed is UNSET else seed
    return None if seed is None else base64.b64encode(seed).decode()


def seeded(game: NewGame) -> NewGame:
    """`game`, with a fresh client seed for the creator's seat unless it names one (or
    does not join)."""
    if game.client_seed is not UNSET or game.join is False:
        return game
    return replace(game, client_seed=_b64(UNSET))


def create(game: NewGame) -> Call[GameSummary]:
    return Call("POST", "/v1/games", GameSummary, body=seeded(game), idempotent=True)


def joining(seat: int | None, client_seed: Seed) -> JoinSeat:
    return JoinSeat(seat=seat, client_seed=_b64(client_seed))


def seed_body(seed: Seed) -> ClientSeedBody:
    return ClientSeedBody(seed=_b64(seed) or "")


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

    def join(self, game_id: str, seat: int | None = None, *, client_seed: Seed = UNSET,
             idempotency_key: str | None = None) -> GameSummary:
        """Take a seat (the lowest open one by default), with your client seed (a fresh
        random one by default)."""
        return self._s.run(write(game_id, "/seats", joining(seat, client_seed)),
                           idempotency_key)

    def set_client_seed(self, game_id: str, seed: Seed = UNSET, *,
                        idempotency_key: str | None = None) -> GameSummary:
        """Set or replace your seat's client seed before the deal (a fresh random one by
        default; None: the empty value)."""
        return self._s.run(write(game_id, "/client-seed", seed_body(seed)), idempotency_key)

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

    async def join(self, game_id: str, seat: int | None = None, *, client_seed: Seed = UNSET,
                   idempotency_key: str | None = None) -> GameSummary:
        return await self._s.run(write(game_id, "/seats", joining(seat, client_seed)),
                                 idempotency_key)

    async def set_client_seed(self, game_id: str, seed: Seed = UNSET, *,
                              idempotency_key: str | None = None) -> GameSummary:
        return await self._s.run(write(game_id, "/client-seed", seed_body(seed)),
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
