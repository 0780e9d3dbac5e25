"""The tournaments' read model: a `tournaments` row per tournament (what the API serves of it,
`tournaments.tournament_out`, and its standings) and a `tournament_games` row per game it
opened. Written in the transaction that appends to the tournament's log
(`tournaments.runner.log`), so they never lag it; every read of them is here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.event_store import EventStore
from service.events.tables import tournament_games, tournaments
from service.tournaments.events import Format, TableOpened, TournamentEvent
from service.tournaments.state import Tournament
from service.tournaments.tournament_out import TournamentOut, tournament_out

_encode = msgspec.json.Encoder().encode
_decode_out = msgspec.json.Decoder(TournamentOut).decode


def tournament_row(t: Tournament, created_at: datetime, updated_at: datetime) -> dict[str, Any]:
    """The `tournaments` row of a folded tournament (its public state and standings)."""
    out = tournament_out(t, created_at, updated_at)
    return {"name": out.name, "creator": out.creator, "format": out.format,
            "status": out.status, "public": out.public, "version": t.version,
            "summary": _encode(out).decode(), "standings": _encode(out.standings).decode(),
            "updated_at": updated_at}


@dataclass(frozen=True)
class TournamentRows:
    """What one append to a tournament's log writes beside it."""

    tournament_id: str
    created: bool  # the log's first append: the `tournaments` row is inserted, not updated
    row: dict[str, Any]
    opened: list[dict[str, Any]]  # `tournament_games` rows of the tables it opened


def rows_of(before: Tournament, after: Tournament, events: Sequence[TournamentEvent],
            created_at: datetime | None, at: datetime) -> TournamentRows:
    """The rows of `after`, the tournament `before` became by `events` appended `at`."""
    row = tournament_row(after, created_at or at, at)
    if before.version == 0:
        row["created_at"] = at
    opened = [{"game_id": e.game_id, "tournament_id": after.tournament_id, "table_no": e.table}
              for e in events if isinstance(e, TableOpened)]
    return TournamentRows(after.tournament_id, before.version == 0, row, opened)


async def write(conn: AsyncConnection, rows: TournamentRows) -> None:
    """Write an append's rows, in the log's write transaction on `conn`."""
    if rows.created:
        await conn.execute(tournaments.insert().values(tournament_id=rows.tournament_id,
                                                       **rows.row))
    else:
        await conn.execute(tournaments.update().where(
            tournaments.c.tournament_id == rows.tournament_id).values(**rows.row))
    if rows.opened:
        await conn.execute(tournament_games.insert(), rows.opened)


@dataclass(frozen=True)
class Folded:
    """A tournament folded from its whole log, with when the log began and last grew."""

    tournament: Tournament
    created_at: datetime
    updated_at: datetime


async def rewrite_all(store: EventStore, folded: Sequence[Folded]) -> None:
    """Replace every row with those of `folded` (a rebuild from the logs), in one transaction."""
    rows = [{"tournament_id": f.tournament.tournament_id, "created_at": f.created_at,
             **tournament_row(f.tournament, f.created_at, f.updated_at)} for f in folded]
    tables = [{"game_id": g, "tournament_id": f.tournament.tournament_id, "table_no": n}
              for f in folded for n, g in f.tournament.games.items()]
    async with store.write() as conn:
        await conn.execute(sa.delete(tournament_games))
        await conn.execute(sa.delete(tournaments))
        if rows:
            await conn.execute(tournaments.insert(), rows)
        if tables:
            await conn.execute(tournament_games.insert(), tables)


async def tournament(store: EventStore, tournament_id: str) -> TournamentOut | None:
    """The tournament as its row keeps it; None if there is no such tournament."""
    async with store.read() as conn:
        raw = await conn.scalar(sa.select(tournaments.c.summary).where(
            tournaments.c.tournament_id == tournament_id))
    return None if raw is None else _decode_out(raw)


@dataclass(frozen=True)
class TournamentListing:
    """A tournament as a list shows it."""

    tournament_id: str
    name: str
    format: Format
    status: str
    creator: str
    created_at: datetime


async def public_tournaments(store: EventStore, status: str | None, limit: int
                             ) -> list[TournamentListing]:
    """Public tournaments (in `status`, if given), newest first."""
    c = tournaments.c
    q = sa.select(c.tournament_id, c.name, c.format, c.status, c.creator, c.created_at) \
        .where(c.public.is_(True))
    if status is not None:
        q = q.where(c.status == status)
    async with store.read() as conn:
        rows = (await conn.execute(q.order_by(c.created_at.desc(), c.tournament_id.desc())
                                   .limit(limit))).all()
    return [TournamentListing(r.tournament_id, r.name, r.format, r.status, r.creator,
                              r.created_at) for r in rows]


async def tournament_of_game(store: EventStore, game_id: str) -> str | None:
    """The tournament that opened the game, if one did."""
    async with store.read() as conn:
        found = await conn.scalar(sa.select(tournament_games.c.tournament_id)
                                  .where(tournament_games.c.game_id == game_id))
    return None if found is None else str(found)


async def stale_running(store: EventStore, older_than_s: float) -> list[str]:
    """Running tournaments whose log has not grown for a while: the sweepers wake them, in
    case the wake-up after a game's end was lost."""
    cutoff = datetime.now(UTC).timestamp() - older_than_s
    async with store.read() as conn:
        rows = (await conn.execute(sa.select(tournaments.c.tournament_id, tournaments.c.updated_at)
                                   .where(tournaments.c.status == "running"))).all()
    return [r.tournament_id for r in rows if r.updated_at.timestamp() < cutoff]
