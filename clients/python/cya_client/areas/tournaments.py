"""Tournaments (`client.tournaments`): create one (round robin, Swiss or duplicate; players and
built-in bots), list and read them, their standings, and verify a finished one."""

from __future__ import annotations

from cya_client.areas.base import Area, AsyncArea
from cya_client.models import (
    NewTournament,
    StandingsOut,
    TournamentOut,
    TournamentPage,
    TournamentVerifyReport,
)
from cya_client.transport import Call


def _path(tournament_id: str, rest: str = "") -> str:
    return f"/v1/tournaments/{tournament_id}{rest}"


def create(tournament: NewTournament) -> Call[TournamentOut]:
    return Call("POST", "/v1/tournaments", TournamentOut, body=tournament, idempotent=True)


def listing(status: str | None, limit: int | None) -> Call[TournamentPage]:
    return Call("GET", "/v1/tournaments", TournamentPage,
                params={"status": status, "limit": limit})


def get(tournament_id: str) -> Call[TournamentOut]:
    return Call("GET", _path(tournament_id), TournamentOut)


def standings(tournament_id: str) -> Call[StandingsOut]:
    return Call("GET", _path(tournament_id, "/standings"), StandingsOut)


def verify(tournament_id: str) -> Call[TournamentVerifyReport]:
    return Call("GET", _path(tournament_id, "/verify"), TournamentVerifyReport)


class Tournaments(Area):
    def create(self, tournament: NewTournament) -> TournamentOut:
        return self._s.run(create(tournament))

    def list(self, status: str | None = None, limit: int | None = None) -> TournamentPage:
        return self._s.run(listing(status, limit))

    def get(self, tournament_id: str) -> TournamentOut:
        return self._s.run(get(tournament_id))

    def standings(self, tournament_id: str) -> StandingsOut:
        return self._s.run(standings(tournament_id))

    def verify(self, tournament_id: str) -> TournamentVerifyReport:
        return self._s.run(verify(tournament_id))


class AsyncTournaments(AsyncArea):
    async def create(self, tournament: NewTournament) -> TournamentOut:
        return await self._s.run(create(tournament))

    async def list(self, status: str | None = None, limit: int | None = None
                   ) -> TournamentPage:
        return await self._s.run(listing(status, limit))

    async def get(self, tournament_id: str) -> TournamentOut:
        return await self._s.run(get(tournament_id))

    async def standings(self, tournament_id: str) -> StandingsOut:
        return await self._s.run(standings(tournament_id))

    async def verify(self, tournament_id: str) -> TournamentVerifyReport:
        return await self._s.run(verify(tournament_id))
