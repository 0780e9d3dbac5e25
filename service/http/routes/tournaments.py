"""Tournaments: create one, list and read them, their standings and their verify. Thin: the
tournament's decider and runner (`service/tournaments`) do the work."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Annotated, Literal

import msgspec
from litestar import Controller, Response, get, post
from litestar.params import Parameter

from cya_rules.docs import doc
from service.http.context import Authed, authenticate, authenticate_or_watch, runtime_of
from service.http.problems import Problem, forbidden, malformed, problem_responses
from service.http.routes.games import IdempotencyKey, command_id_of
from service.http.schemas.tournaments import NewTournament
from service.players.directory import Player
from service.projections.tournaments import public_tournaments, tournament
from service.tournaments.decide import SpecError
from service.tournaments.entrants import PlayerEntrant
from service.tournaments.events import Format
from service.tournaments.runner.log import TournamentNotFound
from service.tournaments.runner.verify import TournamentVerifyReport, verify
from service.tournaments.standings import Standing
from service.tournaments.tournament_out import TournamentOut

TournamentId = Annotated[str, Parameter(max_length=64, pattern=r"^[0-9A-Za-z_-]{1,64}$",
                                        description="The tournament's id.")]
_standings = msgspec.json.Decoder(list[Standing])


class TournamentItem(msgspec.Struct):
    """A tournament in a list."""

    tournament_id: Annotated[str, doc("Its id.")]
    name: Annotated[str, doc("Its name.")]
    format: Annotated[Format, doc("Its format.")]
    status: Annotated[str, doc("`running` or `finished`.")]
    creator: Annotated[str, doc("Who created it.")]
    created_at: Annotated[datetime, doc("When.")]


class TournamentPage(msgspec.Struct):
    """A page of `GET /v1/tournaments`, newest first."""

    tournaments: Annotated[list[TournamentItem], doc("The tournaments.")]


class StandingsOut(msgspec.Struct):
    """`GET /v1/tournaments/{id}/standings`."""

    tournament_id: Annotated[str, doc("The tournament's id.")]
    status: Annotated[str, doc("`running` or `finished`.")]
    standings: Annotated[list[Standing], doc("Best first.")]


def _may_read(out: TournamentOut, player: Player) -> None:
    if out.public or player.player_id == out.creator or any(
            isinstance(e, PlayerEntrant) and e.player_id == player.player_id
            for e in out.entrants):
        return
    raise forbidden("private_tournament", "This tournament is private to its players.")


def _not_found() -> Problem:
    return Problem(404, "tournament_not_found", "No such tournament.")


class TournamentsController(Controller):
    path = "/v1/tournaments"
    tags = ["tournaments"]
    before_request = staticmethod(authenticate_or_watch)

    @post("/", operation_id="createTournament", summary="Create a tournament", status_code=201,
          description="Its seeds are drawn now and their SHA-256 published; its games are "
          "created and played by the service (built-in bots at once, players as in any game).",
          responses=problem_responses(400, 401, 413, 429), before_request=authenticate)
    async def create(self, request: Authed, data: NewTournament,
                     idempotency_key: IdempotencyKey = None) -> Response[TournamentOut]:
        runtime, player = runtime_of(request), request.user
        key = command_id_of(player, idempotency_key)  # a retry finds the same tournament
        tournament_id = None if key is None else hashlib.sha256(key.encode()).hexdigest()[:32]
        for i, e in enumerate(data.entrants):
            if isinstance(e, PlayerEntrant) and await runtime.players.by_id(e.player_id) is None:
                raise malformed(request, "body", f"entrants[{i}].player_id", "No such player.")
        try:
            t = await runtime.services.tournaments.runner.create(
                data.name, player.player_id, data.format, data.ruleset, tuple(data.entrants),
                deals=data.deals, rounds=data.rounds, rated=data.rated, public=data.public,
                tournament_id=tournament_id)
        except SpecError as exc:
            raise malformed(request, "body", exc.key, str(exc)) from None
        out = await self._read(request, t.tournament_id)
        return Response(out, status_code=201,
                        headers={"Location": f"/v1/tournaments/{t.tournament_id}"})

    @get("/", operation_id="listTournaments", summary="Public tournaments, newest first",
         description="Open without a key.", responses=problem_responses(400, 401, 429))
    async def list_tournaments(
        self, request: Authed,
        status: Annotated[Literal["running", "finished"] | None, Parameter(
            description="Only tournaments in this state.")] = None,
        limit: Annotated[int, Parameter(ge=1, le=100, description="At most this many.")] = 20,
    ) -> TournamentPage:
        found = await public_tournaments(runtime_of(request).services.store, status, limit)
        return TournamentPage([TournamentItem(t.tournament_id, t.name, t.format, t.status,
                                              t.creator, t.created_at) for t in found])

    @get("/{tournament_id:str}", operation_id="getTournament", summary="A tournament",
         description="Its rules, entrants, committed seeds (revealed at its end), every table "
         "with its game and result, and the standings. Open without a key (public ones).",
         responses=problem_responses(400, 401, 403, 404, 429))
    async def get_one(self, request: Authed, tournament_id: TournamentId) -> TournamentOut:
        return await self._read(request, tournament_id)

    @get("/{tournament_id:str}/standings", operation_id="getTournamentStandings",
         summary="A tournament's standings", description="Points by place in each game; for "
         "duplicate play also each entrant's result against the field on the same deal.",
         responses=problem_responses(400, 401, 403, 404, 429))
    async def standings(self, request: Authed, tournament_id: TournamentId) -> StandingsOut:
        out = await self._read(request, tournament_id)
        return StandingsOut(out.tournament_id, out.status, out.standings)

    @get("/{tournament_id:str}/verify", operation_id="verifyTournament",
         summary="Verify a finished tournament",
         description="Its log's hash chain, every revealed seed against the hash published at "
         "creation, its tables against its format, the same cards at every table of a deal, "
         "and every game's own verify. 403 `tournament_not_finished` before its end.",
         responses=problem_responses(400, 401, 403, 404, 429))
    async def verify(self, request: Authed, tournament_id: TournamentId
                     ) -> TournamentVerifyReport:
        out = await self._read(request, tournament_id)
        if out.status != "finished":
            raise forbidden("tournament_not_finished", "Its seeds are revealed at its end: "
                            "verify it then.")
        try:
            return await verify(runtime_of(request).services.store, tournament_id)
        except TournamentNotFound:
            raise _not_found() from None

    async def _read(self, request: Authed, tournament_id: str) -> TournamentOut:
        out = await tournament(runtime_of(request).services.store, tournament_id)
        if out is None:
            raise _not_found()
        _may_read(out, request.user)
        return out
