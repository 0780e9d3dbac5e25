"""POST /v1/players, GET /v1/players/me."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get, post
from litestar.params import Body

from service.players import Player

from . import examples
from .context import Runtime
from .problems import problem_responses
from .schemas import NewPlayer, PlayerCreated, PlayerOut


class PlayersController(Controller):
    path = "/v1/players"
    tags = ["players"]

    @post(
        "/", operation_id="createPlayer", summary="Create a player and its API key",
        description="The API key is returned once; send it as `Authorization: Bearer <key>`.",
        security=[], responses=problem_responses(400, 413, 429),
    )
    async def create_player(
        self, runtime: Runtime,
        data: Annotated[NewPlayer | None, Body(description="A display name (optional).",
                                                 examples=examples.PLAYER)] = None,
    ) -> PlayerCreated:
        player, api_key = await runtime.players.create((data or NewPlayer()).name)
        return PlayerCreated(player.player_id, player.name, api_key)

    @get("/me", operation_id="getMe", summary="The calling player",
         responses=problem_responses(401, 429))
    async def me(self, player: Player) -> PlayerOut:
        return PlayerOut(player.player_id, player.name, player.created_at)
