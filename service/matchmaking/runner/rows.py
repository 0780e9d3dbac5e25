"""Challenges and seeks as rows (`service/events/tables.py`): read, written, and moved on by a
conditional UPDATE from `open` / `waiting` only, so of two racing changes exactly one wins."""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from cya_rules import RuleSet
from cya_rules.table.seats import BotLevel
from service.events.tables import challenges, seeks
from service.matchmaking.challenges import Challenge, ChallengeStatus
from service.matchmaking.seeks import Kind, Seek, SeekStatus

_rules = msgspec.json.Decoder(RuleSet)
_bots = msgspec.json.Decoder(tuple[BotLevel, ...])
_encode = msgspec.json.Encoder().encode


def _text(value: Any) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def challenge_of(row: Any) -> Challenge:
    return Challenge(row.challenge_id, row.challenger, row.challenged,
                     _rules.decode(_text(row.ruleset)), row.turn_clock, row.rated, row.seat,
                     _bots.decode(_text(row.bots)), ChallengeStatus(row.status),
                     row.created_at, row.updated_at, row.accepted_by, row.game_id, row.reason)


def seek_of(row: Any) -> Seek:
    return Seek(row.seek_id, row.player_id, Kind(row.players, row.edition, row.rated,
                                                 row.end_mode),
                row.rating, row.rating_range, row.created_at, SeekStatus(row.status),
                row.game_id, row.match_id)


async def insert_challenge(conn: AsyncConnection, c: Challenge, request: str) -> None:
    await conn.execute(challenges.insert().values(
        challenge_id=c.challenge_id, challenger=c.challenger, challenged=c.challenged,
        ruleset=_encode(c.ruleset).decode(), turn_clock=c.turn_clock, rated=c.rated,
        seat=c.seat, bots=_encode(c.bots).decode(), status=c.status, request_sha256=request,
        created_at=c.created_at, updated_at=c.updated_at))


async def challenge_row(conn: AsyncConnection, challenge_id: str) -> Any:
    return (await conn.execute(sa.select(challenges)
                               .where(challenges.c.challenge_id == challenge_id))).first()


async def move_challenge(conn: AsyncConnection, challenge_id: str, to: ChallengeStatus,
                         at: datetime, **fields: Any) -> bool:
    """open → `to`; False when it was no longer open (another change won)."""
    done = await conn.execute(
        challenges.update().where(challenges.c.challenge_id == challenge_id,
                                  challenges.c.status == ChallengeStatus.OPEN)
        .values(status=to, updated_at=at, **fields))
    return done.rowcount == 1


async def set_challenge_game(conn: AsyncConnection, challenge_id: str, game_id: str,
                             at: datetime) -> None:
    await conn.execute(challenges.update().where(challenges.c.challenge_id == challenge_id)
                       .values(game_id=game_id, updated_at=at))


async def open_challenges(conn: AsyncConnection, limit: int) -> list[Challenge]:
    """Open challenges to anyone, oldest first."""
    rows = await conn.execute(sa.select(challenges).where(
        challenges.c.status == ChallengeStatus.OPEN, challenges.c.challenged.is_(None))
        .order_by(challenges.c.created_at).limit(limit))
    return [challenge_of(r) for r in rows]


async def challenges_of(conn: AsyncConnection, player_id: str, since: datetime | None
                        ) -> list[Challenge]:
    """The challenges that concern a player and changed since `since`; with None, the open
    ones to it, whatever their age."""
    c = challenges.c
    if since is None:
        query = sa.select(challenges).where(c.challenged == player_id,
                                            c.status == ChallengeStatus.OPEN)
        return [challenge_of(r) for r in await conn.execute(query.order_by(c.updated_at))]
    found: dict[str, Challenge] = {}
    for who in (c.challenged, c.challenger, c.accepted_by):
        query = sa.select(challenges).where(who == player_id, c.updated_at >= since)
        for row in await conn.execute(query.order_by(c.updated_at)):
            found[row.challenge_id] = challenge_of(row)
    return sorted(found.values(), key=lambda x: x.updated_at)


async def unopened_accepts(conn: AsyncConnection, before: datetime) -> list[Challenge]:
    """Accepted before `before` and still without a game (its process stopped in between)."""
    rows = await conn.execute(sa.select(challenges).where(
        challenges.c.status == ChallengeStatus.ACCEPTED, challenges.c.game_id.is_(None),
        challenges.c.updated_at < before))
    return [challenge_of(r) for r in rows]


async def insert_seek(conn: AsyncConnection, s: Seek, request: str) -> None:
    await conn.execute(seeks.insert().values(
        seek_id=s.seek_id, player_id=s.player_id, players=s.kind.players,
        edition=s.kind.edition, rated=s.kind.rated, end_mode=s.kind.end_mode, rating=s.rating,
        rating_range=s.rating_range, status=s.status, request_sha256=request,
        created_at=s.created_at, updated_at=s.created_at))


async def seek_row(conn: AsyncConnection, seek_id: str) -> Any:
    return (await conn.execute(sa.select(seeks).where(seeks.c.seek_id == seek_id))).first()


async def cancel_seek(conn: AsyncConnection, seek_id: str, at: datetime) -> bool:
    done = await conn.execute(seeks.update().where(
        seeks.c.seek_id == seek_id, seeks.c.status == SeekStatus.WAITING)
        .values(status=SeekStatus.CANCELLED, updated_at=at))
    return done.rowcount == 1


async def waiting_kinds(conn: AsyncConnection) -> list[Kind]:
    rows = await conn.execute(sa.select(seeks.c.players, seeks.c.edition, seeks.c.rated,
                                        seeks.c.end_mode)
                              .where(seeks.c.status == SeekStatus.WAITING).distinct())
    return sorted(Kind(r.players, r.edition, r.rated, r.end_mode) for r in rows)


async def lock(conn: AsyncConnection, name: str) -> None:
    """One holder of `name` at a time until this transaction ends (PostgreSQL; SQLite's
    writes are one at a time already)."""
    if conn.dialect.name == "postgresql":
        key = zlib.crc32(name.encode())
        await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))


async def latest_seeks(conn: AsyncConnection, player_ids: list[str]) -> dict[str, Seek]:
    """Each player's latest seek."""
    if not player_ids:
        return {}
    rows = await conn.execute(sa.select(seeks).where(seeks.c.player_id.in_(player_ids))
                              .order_by(seeks.c.created_at))
    return {r.player_id: seek_of(r) for r in rows}


async def lock_waiting(conn: AsyncConnection, kind: Kind) -> list[Seek]:
    """The kind's waiting seeks, held for this transaction: on PostgreSQL one pairer per kind
    at a time (a transaction-scoped advisory lock), and each row locked, so a cancel waits for
    the pairing to commit and then finds the seek matched (or the pairing finds it cancelled).
    SQLite's writes are one at a time already (`BEGIN IMMEDIATE`)."""
    await lock(conn, f"cya:seeks:{kind.key}")
    query = sa.select(seeks).where(
        seeks.c.status == SeekStatus.WAITING, seeks.c.players == kind.players,
        seeks.c.edition == kind.edition, seeks.c.rated == kind.rated,
        seeks.c.end_mode == kind.end_mode,
    ).order_by(seeks.c.created_at)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return [seek_of(r) for r in await conn.execute(query)]


async def mark_matched(conn: AsyncConnection, group: tuple[Seek, ...], match_id: str,
                       at: datetime) -> None:
    done = await conn.execute(seeks.update().where(
        seeks.c.seek_id.in_([s.seek_id for s in group]), seeks.c.status == SeekStatus.WAITING)
        .values(status=SeekStatus.MATCHED, match_id=match_id, updated_at=at))
    # The rows are locked and were waiting: anything else is a broken invariant, and the
    # transaction must not commit a partial match.
    if done.rowcount != len(group):
        raise RuntimeError(f"match {match_id}: {done.rowcount} of {len(group)} seeks waiting")


async def set_match_game(conn: AsyncConnection, match_id: str, game_id: str,
                         at: datetime) -> None:
    await conn.execute(seeks.update().where(seeks.c.match_id == match_id)
                       .values(game_id=game_id, updated_at=at))


async def unopened_matches(conn: AsyncConnection, before: datetime) -> dict[str, list[Seek]]:
    rows = await conn.execute(sa.select(seeks).where(
        seeks.c.status == SeekStatus.MATCHED, seeks.c.game_id.is_(None),
        seeks.c.updated_at < before))
    found: dict[str, list[Seek]] = {}
    for row in rows:
        found.setdefault(row.match_id, []).append(seek_of(row))
    return found


async def seeks_of(conn: AsyncConnection, player_id: str, since: datetime
                   ) -> list[tuple[Seek, datetime]]:
    """A player's seeks changed since `since`, with when they changed."""
    rows = await conn.execute(sa.select(seeks).where(
        seeks.c.player_id == player_id, seeks.c.updated_at >= since)
        .order_by(seeks.c.updated_at))
    return [(seek_of(r), r.updated_at) for r in rows]
