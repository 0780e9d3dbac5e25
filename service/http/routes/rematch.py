"""Rematches: a new game with the same rules and players, seats rotated, the others invited;
and an invited player's refusal of the seat kept for them."""

from __future__ import annotations

from dataclasses import dataclass

from litestar import Controller, Response, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIHeader, OpenAPIResponse, OpenAPIType, Schema

from service.http.context import Authed, authenticate, runtime_of, viewer_in
from service.http.routes.games import (
    WRITE_PROBLEMS,
    CreatedOperation,
    IdempotencyKey,
    answer,
    command_id_of,
    people,
    summary,
)
from service.http.schemas.games import GameSummary
from service.http.schemas.parameters import GameId
from service.pipeline.rematch import offer_rematch
from service.players.directory import names_of
from service.projections.games import game_access
from service.table.lobby_commands import DeclineInvitation


@dataclass
class RematchOperation(CreatedOperation):
    """A rematch asked for again answers 200 with the one already made, at its address."""

    def __post_init__(self) -> None:
        super().__post_init__()
        again = (self.responses or {}).get("200")
        if isinstance(again, OpenAPIResponse):
            again.headers = {"Location": OpenAPIHeader(
                description="The rematch: `/v1/games/{game_id}`.", required=True,
                schema=Schema(type=OpenAPIType.STRING))}


class RematchController(Controller):
    path = "/v1/games"
    tags = ["lobby"]
    before_request = staticmethod(authenticate)

    @post("/{game_id:str}/rematch", operation_id="rematchGame",
          summary="A rematch: same rules and players, seats rotated", status_code=201,
          description="Once the game is over, one of its players asks for a new game with its "
          "rules: every seat moves one place on, the asker and the bots are seated at once, "
          "and the other players are invited to the seats kept for them (they take them with "
          "`POST /seats` or decline with `POST /decline`). The old game's log records the "
          "rematch (`rematch_offered`). Asked again, by anyone, it answers the same rematch "
          "(200).", responses={
              200: ResponseSpec(GameSummary, generate_examples=False, description=(
                  "The rematch, asked for before (by this player or another): the same game, "
                  "as it is now; nothing was done.")),
              **WRITE_PROBLEMS}, operation_class=RematchOperation)
    async def rematch(self, request: Authed, game_id: GameId,
                      idempotency_key: IdempotencyKey = None) -> Response[GameSummary]:
        runtime, player = runtime_of(request), request.user
        async with runtime.services.store.read() as conn:
            viewer_in(await game_access(conn, game_id), player)
        found = await offer_rematch(runtime.services.pipeline, game_id, player.player_id,
                                    command_id_of(player, idempotency_key))
        async with runtime.services.store.read() as conn:
            access = await game_access(conn, found.game_id)
            answer = summary(access, await names_of(conn, people(access)))
        return Response(answer, status_code=201 if found.created else 200,
                        headers={"Location": f"/v1/games/{found.game_id}"})

    @post("/{game_id:str}/decline", operation_id="declineInvitation",
          summary="Decline the seat kept for you (a rematch's invitation)", status_code=200,
          responses=WRITE_PROBLEMS)
    async def decline(self, request: Authed, game_id: GameId,
                      idempotency_key: IdempotencyKey = None) -> GameSummary:
        runtime, player = runtime_of(request), request.user
        # A private game's id is its invitation: no access check before the lobby's own.
        outcome = await runtime.services.pipeline.lobby(
            game_id, DeclineInvitation(), player.player_id,
            command_id_of(player, idempotency_key))
        return await answer(runtime, outcome)
