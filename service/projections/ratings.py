"""Ratings: a projection of the finished rated games, replayed in the order they finished.

Each game is a match of OpenSkill's Plackett–Luce model (the `openskill` package), one team
per seat. A seat's identity is the human who held it when the cards were dealt (one who gave
it up, by resigning or to the clock, is ranked last: a loss), else the bot level that played
it (`bot:greedy`, a player of its own). Ranks follow the game's own result: its winners first,
then the others by their totals. Two families are rated apart: 2-player games and 3–6. Only
finished games count: one that ended without a result (abandoned by its humans, or a lobby
that expired) has no ranking, so it changes nobody's rating.

Ratings depend on the order of the games, so the table is always what replaying every
finished rated game in order of (finish time, game id) gives: `catch_up` extends it with the
games finished since. When one of them finished before a game already counted (two processes
committing at once), it takes back the games counted after it (each change keeps the rating
before it) and counts them again after it. `rebuild` is the same from nothing. What is left to
count, and the last game counted, are found by the games rows' `rating_counted` flag and its
partial indexes (`tables.RATING_DUE`), so a count costs the same however many came before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncConnection

from cya_rules.table.lobby import SeatResigned
from cya_rules.table.seats import BotSeat, HumanSeat
from cya_rules.table.timeouts import SeatHandedToBot
from service.events.event_store import EventStore
from service.events.records import StoredEvent
from service.events.tables import RATING_COUNTED, RATING_DUE, games, rating_changes, ratings
from service.table.game import Game, apply_at

MODEL = PlackettLuce()
RATINGS_LOCK = 0x43594152  # "CYAR": one ratings writer at a time (PostgreSQL advisory lock)


def family_of(players: int) -> str:
    return "2p" if players == 2 else "3-6p"


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    identity: str
    rank: int  # 1 is best; seats with the same rank shared that place


def match_of(game: Game, gave_up: dict[int, str]) -> list[Seat]:
    """The seats of a finished game as a rated match. `gave_up`: seat → the player who held
    it at the deal and gave it up."""
    assert game.state is not None and game.lobby is not None
    totals, n = game.state.totals, len(game.state.totals)
    winners = set(game.state.winners) - gave_up.keys()
    others = [s for s in range(n) if s not in winners and s not in gave_up]
    seats = []
    for seat, holder in enumerate(game.lobby.seats):
        if seat in gave_up:
            identity, rank = f"player:{gave_up[seat]}", n
        else:
            identity = (f"player:{holder.player_id}" if isinstance(holder, HumanSeat)
                        else f"bot:{holder.level if isinstance(holder, BotSeat) else 'none'}")
            rank = 1 if seat in winners else 1 + len(winners) + sum(
                1 for s in others if totals[s] > totals[seat])
        seats.append(Seat(seat, identity, rank))
    return seats


@dataclass
class Rating:
    mu: float
    sigma: float
    games: int = 0


def rate(match: Sequence[Seat], current: dict[str, Rating]) -> dict[int, Rating]:
    """Each seat's rating after the match. An identity in several seats (two bots of one
    level) is rated once per seat from the same prior; it keeps the mean of their outcomes."""
    priors = [current.get(s.identity) or Rating(MODEL.mu, MODEL.sigma) for s in match]
    teams = [[MODEL.rating(mu=p.mu, sigma=p.sigma)] for p in priors]
    after = MODEL.rate(teams, ranks=[s.rank for s in match])
    return {s.seat: Rating(team[0].mu, team[0].sigma, prior.games + 1)
            for s, team, prior in zip(match, after, priors, strict=True)}


def combined(match: Sequence[Seat], after: dict[int, Rating]) -> dict[str, Rating]:
    by_identity: dict[str, list[Rating]] = {}
    for s in match:
        by_identity.setdefault(s.identity, []).append(after[s.seat])
    return {identity: Rating(sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs),
                             rs[0].games) for identity, rs in by_identity.items()}


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma  # OpenSkill's ordinal: a conservative estimate


async def catch_up(store: EventStore) -> int:
    """Count the rated games finished since the last count; returns how many."""
    async with store.write() as conn:
        await store.exclusive(conn, RATINGS_LOCK)
        pending = await _finished(conn, counted=False)
        if not pending:
            return 0
        last = await _last_counted(conn)
        if last is not None and pending[0] < last:  # one finished before a counted game
            await _take_back_after(conn, pending[0])
            pending = await _finished(conn, counted=False)
        await _count(store, conn, [game_id for _, game_id in pending])
        return len(pending)


class RateFinishedGames:
    """A commit listener (`service.pipeline.hooks.CommitListener`): a rated game that finishes
    is counted at once. When this fails, the sweepers count it (`catch_up`)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def committed(self, before: Game, after: Game, stored: Sequence[StoredEvent]
                        ) -> None:
        if after.lobby is not None and after.lobby.rated and before.status != after.status == (
                "finished"):
            await catch_up(self.store)


async def rebuild(store: EventStore) -> int:
    """Every rating again from the logs: the table `catch_up` keeps, from nothing."""
    async with store.write() as conn:
        await store.exclusive(conn, RATINGS_LOCK)
        await _clear(conn)
        ids = [game_id for _, game_id in await _finished(conn, counted=None)]
        await _count(store, conn, ids)
        return len(ids)


async def _finished(conn: AsyncConnection, *, counted: bool | None
                    ) -> list[tuple[datetime, str]]:
    """Finished rated games in the order they count: (finish time, game id); `counted`
    False: only those not counted yet."""
    q = sa.select(games.c.game_id, games.c.updated_at).where(
        games.c.rated.is_(True), games.c.status == "finished")
    if counted is False:  # as `tables.RATING_DUE` says it, for its index
        q = q.where(sa.text(RATING_DUE))
    rows = (await conn.execute(q.order_by(games.c.updated_at, games.c.game_id))).all()
    return [(r.updated_at, r.game_id) for r in rows]


async def _counted_after(conn: AsyncConnection, since: tuple[datetime, str] | None = None,
                         limit: int | None = None) -> list[tuple[datetime, str]]:
    """Counted games, the last first (`ix_games_rating_counted`): those after `since`."""
    q = sa.select(games.c.updated_at, games.c.game_id).where(sa.text(RATING_COUNTED))
    if since is not None:
        q = q.where(sa.tuple_(games.c.updated_at, games.c.game_id) > sa.tuple_(*map(
            sa.literal, since)))
    q = q.order_by(games.c.updated_at.desc(), games.c.game_id.desc()).limit(limit)
    return [(r.updated_at, r.game_id) for r in (await conn.execute(q)).all()]


async def _last_counted(conn: AsyncConnection) -> tuple[datetime, str] | None:
    last = await _counted_after(conn, limit=1)
    return last[0] if last else None


async def _take_back_after(conn: AsyncConnection, since: tuple[datetime, str]) -> None:
    """Undo the counting of every game counted after `since`: each rating goes back to what it
    was before the first of them that changed it (the change keeps it), or away if it was new."""
    later = [game_id for _, game_id in await _counted_after(conn, since)]
    changes = (await conn.execute(sa.select(rating_changes).where(
        rating_changes.c.game_id.in_(later)))).all()
    order = {game_id: n for n, game_id in enumerate(reversed(later))}  # finish order
    first: dict[tuple[str, str], Any] = {}
    games_of: dict[tuple[str, str], set[str]] = {}
    for c in sorted(changes, key=lambda c: (order[c.game_id], c.seat)):
        key = (c.family, c.identity)
        first.setdefault(key, c)
        games_of.setdefault(key, set()).add(c.game_id)
    for (family, identity), c in first.items():
        row = ratings.c.family == family, ratings.c.identity == identity
        before = (await conn.execute(sa.select(ratings.c.games).where(*row))).scalar_one()
        games_before = before - len(games_of[(family, identity)])
        if games_before == 0:
            await conn.execute(sa.delete(ratings).where(*row))
        else:
            await conn.execute(ratings.update().where(*row).values(
                mu=c.mu_before, sigma=c.sigma_before, games=games_before,
                ordinal=ordinal(c.mu_before, c.sigma_before)))
    await conn.execute(sa.delete(rating_changes).where(rating_changes.c.game_id.in_(later)))
    await conn.execute(games.update().where(games.c.game_id.in_(later))
                       .values(rating_counted=False))


async def _clear(conn: AsyncConnection) -> None:
    await conn.execute(sa.delete(rating_changes))
    await conn.execute(sa.delete(ratings))
    await conn.execute(games.update().where(games.c.rating_counted.is_(True))
                       .values(rating_counted=False))


async def _count(store: EventStore, conn: AsyncConnection, game_ids: Iterable[str]) -> None:
    current: dict[tuple[str, str], Rating] = {}  # (family, identity), as read or rated here
    for game_id in game_ids:
        game, gave_up = await _folded(store, conn, game_id)
        assert game.state is not None
        family = family_of(game.state.players)
        match = match_of(game, gave_up)
        known = {s.identity: await _rating(conn, current, family, s.identity) for s in match}
        after = rate(match, {k: v for k, v in known.items() if v is not None})
        await conn.execute(rating_changes.insert(), [{
            "game_id": game_id, "seat": s.seat, "identity": s.identity, "family": family,
            "rank": s.rank, "mu_before": (known[s.identity] or _fresh()).mu,
            "sigma_before": (known[s.identity] or _fresh()).sigma,
            "mu_after": after[s.seat].mu, "sigma_after": after[s.seat].sigma} for s in match])
        for identity, r in combined(match, after).items():
            current[(family, identity)] = r
            await _save(conn, family, identity, r, exists=known[identity] is not None)
        await conn.execute(games.update().where(games.c.game_id == game_id)
                           .values(rating_counted=True))


def _fresh() -> Rating:
    return Rating(MODEL.mu, MODEL.sigma)


async def _rating(conn: AsyncConnection, current: dict[tuple[str, str], Rating], family: str,
                  identity: str) -> Rating | None:
    if (family, identity) in current:
        return current[(family, identity)]
    row = (await conn.execute(sa.select(ratings).where(
        ratings.c.family == family, ratings.c.identity == identity))).first()
    return None if row is None else Rating(row.mu, row.sigma, row.games)


async def _save(conn: AsyncConnection, family: str, identity: str, r: Rating, *,
                exists: bool) -> None:
    values = {"mu": r.mu, "sigma": r.sigma, "ordinal": ordinal(r.mu, r.sigma), "games": r.games}
    if exists:
        await conn.execute(ratings.update().where(
            ratings.c.family == family, ratings.c.identity == identity).values(values))
    else:
        await conn.execute(ratings.insert().values(family=family, identity=identity, **values))


async def _folded(store: EventStore, conn: AsyncConnection, game_id: str
                  ) -> tuple[Game, dict[int, str]]:
    """The game folded from its log, and who gave up which seat."""
    stored: list[StoredEvent] = await store.load(conn, game_id)
    game, gave_up = Game(game_id), {}
    for s in stored:
        game = apply_at(game, s.event, s.recorded_at)
        if isinstance(s.event, SeatResigned | SeatHandedToBot):
            gave_up[s.event.seat] = s.event.player_id
    return game, gave_up
