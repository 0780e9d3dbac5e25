"""Ratings: the leaderboard of a family of games, and any player's page with its ratings."""

from __future__ import annotations

from cya_client.areas.base import Area, AsyncArea
from cya_client.models import Leaderboard, PlayerOut
from cya_client.transport import Call


def leaderboard(family: str, offset: int, limit: int) -> Call[Leaderboard]:
    return Call("GET", "/v1/leaderboard", Leaderboard,
                params={"family": family, "offset": offset, "limit": limit})


def player(player_id: str) -> Call[PlayerOut]:
    return Call("GET", f"/v1/players/{player_id}", PlayerOut)


class Ratings(Area):
    def leaderboard(self, family: str = "3-6p", offset: int = 0, limit: int = 50
                    ) -> Leaderboard:
        return self._s.run(leaderboard(family, offset, limit))

    def player(self, player_id: str) -> PlayerOut:
        return self._s.run(player(player_id))


class AsyncRatings(AsyncArea):
    async def leaderboard(self, family: str = "3-6p", offset: int = 0, limit: int = 50
                          ) -> Leaderboard:
        return await self._s.run(leaderboard(family, offset, limit))

    async def player(self, player_id: str) -> PlayerOut:
        return await self._s.run(player(player_id))
