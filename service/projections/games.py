"""The games rows read back: one game's access facts and recorded version, a page of the lobby,
the spectator's stored view, and the games the sweepers look at (maybe idle, waiting on a bot
endpoint). What the API, the sweepers and the tests read alike."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from cya_rules.table.seats import SeatHolder, seat_of
from service.events.event_store import EventStore
from service.events.records import GameNotFound
from service.events.tables import SPECTATOR, game_views, games
from service.table.game import horizon

decode_seats = msgspec.json.Decoder(list[SeatHolder | None]).decode  # the row's `seats`
decode_awaiting = msgspec.json.Decoder(list[int]).decode  # the row's `pending_seats`


@dataclass(frozen=True, slots=True)
class GameAccess:
    """Who may do what in a game, as its games row (kept with each command) says."""

    game_id: str
    status: str
    creator: str
    public: bool
    seats: list[SeatHolder | None]
    version: int
    awaiting: list[int]  # the seats whose decision the game waits for
    deadline: datetime | None
    spectator_delay: int
    row: Any  # the whole row, for a summary

    def seat_of(self, player_id: str) -> int | None:
        return seat_of(self.seats, player_id)

    def horizon(self, seat: int | None) -> int:
        """The last version a caller in `seat` may see now (`table.clock.horizon`)."""
        return horizon(self.version, self.status, self.spectator_delay, seat)


def access_of(row: Any) -> GameAccess:
    """A `games` row's access facts."""
    return GameAccess(row.game_id, row.status, row.creator, row.public, decode_seats(row.seats),
                      row.version, decode_awaiting(row.pending_seats), row.deadline,
                      row.spectator_delay, row)


async def game_access(conn: AsyncConnection, game_id: str) -> GameAccess:
    row = (await conn.execute(sa.select(games).where(games.c.game_id == game_id))).first()
    if row is None:
        raise GameNotFound(game_id)
    return access_of(row)


async def spectator_view_json(conn: AsyncConnection, game_id: str) -> str | None:
    """The spectator's view as stored (null before the deal)."""
    found: str | None = await conn.scalar(sa.select(game_views.c.view).where(
        game_views.c.game_id == game_id, game_views.c.viewer == SPECTATOR))
    return found


@dataclass(frozen=True, slots=True)
class LobbyFilter:
    """Which games a lobby page lists: public ones, or (`mine`) a player's own."""

    mine: str | None = None  # a player id: the games it holds a seat in or created
    status: str | None = None
    edition: str | None = None
    end_mode: str | None = None
    players: int | None = None


async def lobby_page(store: EventStore, conn: AsyncConnection, which: LobbyFilter, *,
                     after: tuple[datetime, str] | None = None, limit: int = 20
                     ) -> tuple[list[GameAccess], bool]:
    """Games newest first, and whether more follow. `after` is the (created_at, game_id) of
    the previous page's last game (keyset paging: stable while games are created)."""
    if which.mine is not None:
        q = sa.select(games).where(sa.or_(games.c.creator == which.mine,
                                          store.seats_hold(which.mine)))
    else:
        q = sa.select(games).where(games.c.public.is_(True))
    if which.status is not None:
        q = q.where(games.c.status == which.status)
    if which.players is not None:
        q = q.where(games.c.players == which.players)
    # The rule set is stored as msgspec's compact JSON, so a field is an exact substring.
    for name, value in (("edition", which.edition), ("end_mode", which.end_mode)):
        if value is not None:
            q = q.where(sa.cast(games.c.ruleset, sa.Text).contains(f'"{name}":"{value}"'))
    if after is not None:
        q = q.where(sa.or_(games.c.created_at < after[0], sa.and_(
            games.c.created_at == after[0], games.c.game_id < after[1])))
    q = q.order_by(games.c.created_at.desc(), games.c.game_id.desc()).limit(limit + 1)
    rows = (await conn.execute(q)).all()
    return [access_of(r) for r in rows[:limit]], len(rows) > limit


async def games_of_player(store: EventStore, conn: AsyncConnection, player_id: str, *,
                          since: datetime | None, limit: int = 500) -> list[str]:
    """The ids of the games a player sits in (or created): those changed since `since`, or
    (None) those not finished; the least recently changed first."""
    q = sa.select(games.c.game_id).where(sa.or_(games.c.creator == player_id,
                                                store.seats_hold(player_id)))
    q = (q.where(games.c.status.in_(("lobby", "playing"))) if since is None
         else q.where(games.c.updated_at >= since))
    return list((await conn.scalars(q.order_by(games.c.updated_at).limit(limit))).all())


async def unfinished_of(conn: AsyncConnection, game_ids: list[str]) -> set[str]:
    """Which of these games are in the lobby or being played."""
    if not game_ids:
        return set()
    rows = await conn.scalars(sa.select(games.c.game_id).where(
        games.c.game_id.in_(game_ids), games.c.status.in_(("lobby", "playing"))))
    return set(rows.all())


def _unclocked_since(cutoff: datetime) -> sa.ColumnElement[bool]:
    """Running games without a turn clock whose row has not changed since `cutoff`."""
    return sa.and_(games.c.status == "playing", games.c.turn_clock.is_(None),
                   games.c.updated_at <= cutoff)


async def idle_game_ids(store: EventStore, *, lobby_created_before: datetime,
                        unclocked_unchanged_before: datetime, limit: int) -> list[str]:
    """Lobbies created before `lobby_created_before` and running games without a clock
    unchanged since `unclocked_unchanged_before`, the least recently changed first."""
    c = games.c
    stale_lobby = sa.and_(c.status == "lobby", c.created_at <= lobby_created_before)
    async with store.read() as conn:
        found = await conn.scalars(
            sa.select(c.game_id)
            .where(sa.or_(stale_lobby, _unclocked_since(unclocked_unchanged_before)))
            .order_by(c.updated_at).limit(limit))
        return list(found.all())


async def unclocked_games_of(store: EventStore, conn: AsyncConnection, players: Iterable[str],
                             *, unchanged_before: datetime, limit: int) -> list[GameAccess]:
    """Running games without a clock, unchanged since `unchanged_before`, in which one of
    `players` holds a seat."""
    q = (sa.select(games)
         .where(_unclocked_since(unchanged_before), sa.or_(*(store.seats_hold(p) for p in players)))
         .limit(limit))
    return [access_of(r) for r in await conn.execute(q)]
