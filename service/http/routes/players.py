"""POST /v1/players, GET /v1/players/me."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.params import Body

from service.http import examples
from service.http.context import Authed, Runtime, authenticate
from service.http.openapi import PublicOptionalBodyOperation
from service.http.problems import problem_responses
from service.http.schemas import NewPlayer, PlayerCreated, PlayerOut


class PlayersController(Controller):
    path = "/v1/players"
    tags = ["players"]

    @post(
        "/", operation_id="createPlayer", summary="Create a player and its API key",
        description="The API key is returned once; send it as `Authorization: Bearer <key>`.",
        responses=problem_responses(400, 413, 429),
        operation_class=PublicOptionalBodyOperation,
    )
    async def create_player(
        self, state: State,
        data: Annotated[NewPlayer | None, Body(
            description="A display name (optional): 1 to 64 characters, none of them a "
                        "control character.", examples=examples.PLAYER)] = None,
    ) -> PlayerCreated:
        runtime: Runtime = state.runtime
        player, api_key = await runtime.players.create((data or NewPlayer()).name)
        return PlayerCreated(player.player_id, player.name, api_key)

    @get("/me", operation_id="getMe", summary="The calling player",
         responses=problem_responses(401, 429), before_request=authenticate)
    async def me(self, request: Authed) -> PlayerOut:
        player = request.user
        return PlayerOut(player.player_id, player.name, player.created_at)
