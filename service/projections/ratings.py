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
games finished since, and starts again from nothing when one of them finished before a game
already counted (two processes committing at once). `rebuild` is the same from nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.event_store import EventStore
from service.events.records import StoredEvent
from service.events.tables import games, rating_changes, ratings
from service.table.game import Game, apply_at
from service.table.lobby import SeatResigned
from service.table.seats import BotSeat, HumanSeat
from service.table.timeouts import SeatHandedToBot

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
            await _clear(conn)
            pending = await _finished(conn, counted=None)
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
    if counted is False:
        q = q.where(~sa.exists().where(rating_changes.c.game_id == games.c.game_id))
    rows = (await conn.execute(q.order_by(games.c.updated_at, games.c.game_id))).all()
    return [(r.updated_at, r.game_id) for r in rows]


async def _last_counted(conn: AsyncConnection) -> tuple[datetime, str] | None:
    row = (await conn.execute(
        sa.select(games.c.updated_at, games.c.game_id)
        .where(games.c.game_id.in_(sa.select(rating_changes.c.game_id)))
        .order_by(games.c.updated_at.desc(), games.c.game_id.desc()).limit(1))).first()
    return None if row is None else (row.updated_at, row.game_id)


async def _clear(conn: AsyncConnection) -> None:
    await conn.execute(sa.delete(rating_changes))
    await conn.execute(sa.delete(ratings))


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
