"""Quick play: `POST /v1/matchmaking` seeks a game, `DELETE` cancels the seek
(`service/matchmaking/`)."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, delete, get, post
from litestar.params import Body, Parameter

from service.http import examples
from service.http.context import Authed, authenticate, runtime_of
from service.http.problems import forbidden, problem_responses
from service.http.routes.games import IdempotencyKey
from service.http.schemas.matchmaking import NewSeek, SeekOut
from service.matchmaking.seeks import Kind, Seek

SeekId = Annotated[str, Parameter(pattern=r"^[0-9a-f]{1,64}$", description="The seek's id.")]


def seek_out(s: Seek) -> SeekOut:
    return SeekOut(s.seek_id, s.player_id, s.kind.players, s.kind.edition,  # type: ignore[arg-type]
                   s.kind.rated, s.kind.end_mode, s.rating,  # type: ignore[arg-type]
                   s.rating_range, s.status, s.game_id, s.created_at)


class MatchmakingController(Controller):
    path = "/v1/matchmaking"
    tags = ["matchmaking"]
    before_request = staticmethod(authenticate)

    @post("/", operation_id="seekGame", summary="Seek a game (quick play)", status_code=201,
          responses=problem_responses(400, 401, 409, 413, 422, 429),
          description="Seekers of the same kind (players, edition, rated, end mode) are "
          "paired oldest first, within each other's rating range, which widens the longer they "
          "wait. A match becomes a game, created and dealt; the news stream says `matched` "
          "with its id (and `game_started`). Bots may seek too. Answered `matched` at once "
          "when a compatible seeker was waiting.")
    async def seek(self, request: Authed,
                   data: Annotated[NewSeek, Body(examples=examples.NEW_SEEK)],
                   idempotency_key: IdempotencyKey = None) -> Response[SeekOut]:
        runtime, player = runtime_of(request), request.user
        s = await runtime.services.matchmaker.seek(
            player.player_id, Kind(data.players, data.edition, data.rated, data.end_mode),
            data.rating_range, idempotency_key)
        return Response(seek_out(s), status_code=201,
                        headers={"Location": f"/v1/matchmaking/{s.seek_id}"})

    @get("/{seek_id:str}", operation_id="getSeek", summary="A seek of yours",
         responses=problem_responses(400, 401, 403, 404, 429))
    async def get_one(self, request: Authed, seek_id: SeekId) -> SeekOut:
        s = await runtime_of(request).services.matchmaker.get_seek(seek_id)
        if s.player_id != request.user.player_id:
            raise forbidden("not_your_seek", "The seek is another player's.")
        return seek_out(s)

    @delete("/{seek_id:str}", operation_id="cancelSeek", summary="Stop seeking",
            status_code=200, responses=problem_responses(400, 401, 403, 404, 409, 429),
            description="409 `seek_not_waiting` once matched (its game is dealt).")
    async def cancel(self, request: Authed, seek_id: SeekId) -> SeekOut:
        runtime, player = runtime_of(request), request.user
        return seek_out(await runtime.services.matchmaker.cancel_seek(seek_id,
                                                                      player.player_id))
