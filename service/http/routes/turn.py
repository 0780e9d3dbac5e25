"""`GET /turn`: a seat's view and legal commands in one read, waiting until the decision is the
seat's (or the game ends). A bot's loop is this call and `POST /commands`, nothing else."""

from __future__ import annotations

import asyncio
from typing import Annotated

import msgspec
from litestar import Controller, get
from litestar.params import Parameter

from service.http import examples
from service.http.context import Authed, Runtime, authenticate, runtime_of, seated
from service.http.problems import forbidden, problem_responses
from service.http.schemas.parameters import GameId
from service.players.directory import Player
from service.table.game import Game
from service.table.turns import Turn, turn_of

WAITS = {"waits": lambda request: request.query_params.get("timeout") != "0"}


class TurnController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["play"]
    before_request = staticmethod(authenticate)

    @get("/turn", operation_id="getTurn", summary="Your turn: view and legal commands in one read",
         description="Your view, the game's status, whose decision it is, its deadline and "
         "your legal commands, all at one version. Waits (up to `timeout` seconds) until the "
         "decision is yours or the game ends, then answers at once; after the timeout it "
         "answers as the game stands. Waiting calls do not count against your rate limit.",
         responses={200: examples.ok(Turn, "Seat 0 to act", "turn",
                                     "Your turn (the decision is yours when `legal_commands` "
                                     "is not empty)."),
                    **problem_responses(400, 401, 403, 404, 429)}, opt=WAITS)
    async def turn(
        self, request: Authed, game_id: GameId,
        timeout: Annotated[float, Parameter(
            ge=0, le=60, description="The longest to wait for your decision, in seconds (the "
            "server caps it at its long-poll maximum, 30 s unless configured otherwise); 0 "
            "answers at once.")] = 25.0,
    ) -> Turn:
        runtime, player = runtime_of(request), request.user
        pipeline = runtime.services.pipeline
        game, seat = await seated(pipeline, game_id, player)
        fresh = runtime.services.settings.catches_up_first  # other processes write this log
        if fresh:
            game = await _held(runtime, game_id, seat, player, fresh=True)
        turn = turn_of(game, seat)
        wait = min(timeout, runtime.settings.long_poll_max_seconds)
        if _settled(turn) or wait <= 0:
            return signed_turn(runtime, game, turn)
        loop = asyncio.get_running_loop()
        until = loop.time() + wait
        async with runtime.feeds.follow(game_id) as feed:
            seen = turn.version  # each round waits for the feed to pass what it last saw
            while not (_settled(turn) or feed.draining):
                remaining = until - loop.time()
                if remaining <= 0 or not await feed.wait_past(seen, remaining):
                    break
                seen = feed.version
                game = await _held(runtime, game_id, seat, player, fresh=fresh)
                if game.version < seen:  # the cache is updated after the commit the feed
                    game = await _held(runtime, game_id, seat, player, fresh=True)  # has read
                turn = turn_of(game, seat)
                if feed.ended:  # nothing follows: answer as it stands
                    break
        return signed_turn(runtime, game, turn)


def signed_turn(runtime: Runtime, game: Game, turn: Turn) -> Turn:
    """The turn with the receipt for its version: the folded game's own chain head (also the
    `turn` of a command's answer)."""
    return msgspec.structs.replace(
        turn, receipt=runtime.receipt(game.game_id, game.version, game.last_hash))


def _settled(turn: Turn) -> bool:
    """Nothing to wait for: the decision is the seat's, or the game is over."""
    return turn.mine or turn.status not in ("lobby", "playing")


async def _held(runtime: Runtime, game_id: str, seat: int, player: Player, *, fresh: bool
                ) -> Game:
    """The game (as of the log's end when `fresh`), while the seat is still the player's."""
    game = await runtime.services.pipeline.load(game_id, fresh=fresh)
    if not game.held_by(seat, player.player_id):
        raise forbidden("not_seated", "The seat is no longer yours.")
    return game
