"""What every route may depend on: the wired services, the caller, and a game's access facts.

A game's `games` row (kept in the same transaction as its log) says who sits where and
whether it is public; from it follows what the caller may see: their seat's view, the
spectator's, or nothing (403) for a private game they have no part in.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from litestar import Request
from litestar.datastructures import State
from sqlalchemy.ext.asyncio import AsyncConnection

from service.bootstrap import Services
from service.events.tables import games
from service.lobby import Controller, HumanSeat
from service.pipeline import GameNotFound
from service.players import Player, PlayerDirectory

from .feeds import Feeds
from .problems import forbidden, unauthorized
from .settings import HttpSettings

_seats = msgspec.json.Decoder(list[Controller | None])


@dataclass
class Runtime:
    """Everything the app holds for its lifetime (in `app.state.runtime`)."""

    services: Services
    players: PlayerDirectory
    feeds: Feeds
    settings: HttpSettings
    extra_ready: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameAccess:
    game_id: str
    status: str
    creator: str
    public: bool
    seats: list[Controller | None]
    version: int
    deadline: datetime | None
    row: Any

    def seat_of(self, player_id: str) -> int | None:
        for i, c in enumerate(self.seats):
            if isinstance(c, HumanSeat) and c.player_id == player_id:
                return i
        return None

    def viewer(self, player: Player) -> int | None:
        """The caller's seat, None to watch as a spectator, or 403 for a private game."""
        seat = self.seat_of(player.player_id)
        if seat is None and not self.public and player.player_id != self.creator:
            raise forbidden("private_game", "This game is private to its players.")
        return seat

    def seat(self, player: Player) -> int:
        seat = self.seat_of(player.player_id)
        if seat is None:
            self.viewer(player)  # a private game: say so rather than "not seated"
            raise forbidden("not_seated", "You have no seat in this game.")
        return seat


async def game_access(conn: AsyncConnection, game_id: str) -> GameAccess:
    row = (await conn.execute(sa.select(games).where(games.c.game_id == game_id))).first()
    if row is None:
        raise GameNotFound(game_id)
    deadline = row.deadline
    if deadline is not None and deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=UTC)
    return GameAccess(row.game_id, row.status, row.creator, row.public, _seats.decode(row.seats),
                      row.version, deadline, row)


async def provide_runtime(state: State) -> Runtime:
    return state.runtime  # type: ignore[no-any-return]


async def provide_player(request: Request[Any, Any, Any], state: State) -> Player:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized()
    player = await state.runtime.players.by_key(token.strip())
    if player is None:
        raise unauthorized("Unknown API key.")
    return player  # type: ignore[no-any-return]


def rate_limit_identity(request: Request[Any, Any, Any]) -> str:
    """Limits count per API key (its hash: keys never sit in memory longer than a request)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return "key:" + hashlib.sha256(header[7:].strip().encode()).hexdigest()[:32]
    client = request.client
    return "addr:" + (client.host if client else "unknown")
