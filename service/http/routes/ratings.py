"""Ratings: the leaderboard of a family of games, and any player's public page with its
ratings (a projection of the finished rated games: `service/projections/ratings.py`)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, get
from litestar.params import Parameter

from cya_rules.docs import doc
from service.http.context import Authed, authenticate_or_watch, runtime_of
from service.http.problems import Problem, problem_responses
from service.http.schemas.players import PlayerOut
from service.http.schemas.ratings import RatingFamily, RatingOut
from service.players.directory import Player, names_of
from service.projections.leaderboard import Accounts, leaderboard, ratings_of


class LeaderboardEntry(msgspec.Struct):
    """One place on the leaderboard."""

    place: Annotated[int, doc("1 for the best rating.")]
    identity: Annotated[str, doc("`player:<player id>` or `bot:<level>`.")]
    name: Annotated[str, doc("The player's display name, or the bot level's.")]
    rating: Annotated[RatingOut, doc("Its rating in this family.")]
    bot: Annotated[bool, doc("A bot: a built-in level, or a player's bot account.")] = False


class Leaderboard(msgspec.Struct):
    """A page of `GET /v1/leaderboard`."""

    family: Annotated[RatingFamily, doc("The family of games ranked.")]
    entries: Annotated[list[LeaderboardEntry], doc("Best first.")]
    next_offset: Annotated[int | None, doc(
        "Pass it as `?offset=` for the next page; null on the last.")]


def rating_out(row: Any) -> RatingOut:
    return RatingOut(row.family, row.ordinal, row.mu, row.sigma, row.games)


def player_out(player: Player, rows: list[Any]) -> PlayerOut:
    return PlayerOut(player.player_id, player.name, player.created_at,
                     [rating_out(r) for r in rows], player.bot, player.arena)


class RatingsController(Controller):
    path = "/v1"
    tags = ["ratings"]
    before_request = staticmethod(authenticate_or_watch)  # public: no key needed

    @get("/leaderboard", operation_id="getLeaderboard", summary="The best rated, by family",
         description="Players and bot levels by rating (OpenSkill's ordinal), best first. "
         "Open without a key.", responses=problem_responses(400, 401, 429))
    async def board(
        self, request: Authed,
        family: Annotated[RatingFamily, Parameter(description=(
            "`2p` (2-player games) or `3-6p` (3 to 6 players), rated apart."))] = "3-6p",
        offset: Annotated[int, Parameter(ge=0, le=100_000, description=(
            "Skip this many: the previous page's `next_offset`."))] = 0,
        limit: Annotated[int, Parameter(ge=1, le=100, description="At most this many.")] = 50,
        accounts: Annotated[Accounts, Parameter(description=(
            "Whom to rank: `people`, `bots` (the built-in levels and players' bot accounts) "
            "or `all`."))] = "all",
    ) -> Leaderboard:
        runtime = runtime_of(request)
        async with runtime.services.store.read() as conn:
            rows, more = await leaderboard(conn, family, offset, limit, accounts)
            names = await names_of(conn, (r.identity.removeprefix("player:") for r in rows
                                          if r.identity.startswith("player:")))
        entries = [LeaderboardEntry(offset + i + 1, r.identity, _name(r.identity, names),
                                    rating_out(r), r.bot) for i, r in enumerate(rows)]
        return Leaderboard(family, entries, offset + limit if more else None)

    @get("/players/{player_id:str}", operation_id="getPlayer", summary="A player and its ratings",
         description="Any player's name and ratings. Open without a key.",
         responses=problem_responses(400, 401, 404, 429))
    async def player(self, request: Authed, player_id: Annotated[str, Parameter(
            max_length=64, pattern=r"^[0-9A-Za-z_-]{1,64}$",
            description="The player's id.")]) -> PlayerOut:
        runtime = runtime_of(request)
        found = await runtime.players.by_id(player_id)
        if found is None:
            raise Problem(404, "player_not_found", "No such player.")
        async with runtime.services.store.read() as conn:
            return player_out(found, await ratings_of(conn, f"player:{player_id}"))


def _name(identity: str, names: dict[str, str]) -> str:
    kind, _, which = identity.partition(":")
    return names.get(which, "?") if kind == "player" else f"{which} bot"
