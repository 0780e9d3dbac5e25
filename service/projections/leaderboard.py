"""The ratings read back: a family's leaderboard, an identity's ratings, a game's changes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from service.events.tables import players, rating_changes, ratings

Accounts = Literal["all", "people", "bots"]


async def leaderboard(conn: AsyncConnection, family: str, offset: int, limit: int,
                      accounts: Accounts = "all") -> tuple[list[Any], bool]:
    """A page of a family's ratings, best first (by ordinal), each with whether it is a bot
    (a built-in level, or a player's bot account), and whether more follow."""
    account = players.c.player_id == sa.func.substr(ratings.c.identity, 8)  # after "player:"
    is_bot = sa.or_(ratings.c.identity.like("bot:%"), sa.func.coalesce(players.c.bot, False))
    query = (sa.select(ratings, is_bot.label("bot"))
             .select_from(ratings.outerjoin(players, account))
             .where(ratings.c.family == family))
    if accounts != "all":
        query = query.where(is_bot if accounts == "bots" else sa.not_(is_bot))
    rows = (await conn.execute(
        query.order_by(ratings.c.ordinal.desc(), ratings.c.identity)
        .offset(offset).limit(limit + 1))).all()
    return list(rows[:limit]), len(rows) > limit


async def ratings_of(conn: AsyncConnection, identity: str) -> list[Any]:
    return list((await conn.execute(sa.select(ratings).where(ratings.c.identity == identity)
                                    .order_by(ratings.c.family))).all())


async def changes_of(conn: AsyncConnection, game_ids: Iterable[str]) -> dict[str, list[Any]]:
    """Each rated game's changes, by seat."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    rows = (await conn.execute(sa.select(rating_changes).where(
        rating_changes.c.game_id.in_(ids)).order_by(rating_changes.c.seat))).all()
    found: dict[str, list[Any]] = {}
    for row in rows:
        found.setdefault(row.game_id, []).append(row)
    return found
