"""Challenges: `POST /v1/challenges` to a player or to anyone, the open ones, and accept,
decline, cancel (`service/matchmaking/`)."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, get, post
from litestar.params import Body, Parameter

from service.http import examples
from service.http.context import Authed, authenticate, runtime_of
from service.http.openapi import OptionalBodyOperation
from service.http.problems import Problem, problem_responses
from service.http.routes.games import IdempotencyKey
from service.http.schemas.matchmaking import ChallengeOut, DeclineChallenge, NewChallenge
from service.matchmaking.challenges import Challenge

ChallengeId = Annotated[str, Parameter(pattern=r"^[0-9a-f]{1,64}$",
                                       description="The challenge's id.")]
WRITE = problem_responses(400, 401, 403, 404, 409, 413, 422, 429)


def challenge_out(c: Challenge) -> ChallengeOut:
    return ChallengeOut(c.challenge_id, c.challenger, c.challenged, c.ruleset, c.turn_clock,
                        c.rated, c.seat, list(c.bots), c.status, c.accepted_by, c.game_id,
                        c.reason, c.created_at, c.updated_at)


class ChallengesController(Controller):
    path = "/v1/challenges"
    tags = ["matchmaking"]
    before_request = staticmethod(authenticate)

    @post("/", operation_id="createChallenge", summary="Challenge a player, or anyone",
          status_code=201, responses=WRITE,
          description="The challenged player hears it on its news stream (`challenge`). "
          "Accepted, it becomes a game, created and dealt at once; both sides hear "
          "`challenge_accepted` with its id. With an `Idempotency-Key`, the same challenge "
          "again.")
    async def create(self, request: Authed,
                     data: Annotated[NewChallenge, Body(examples=examples.NEW_CHALLENGE)],
                     idempotency_key: IdempotencyKey = None) -> Response[ChallengeOut]:
        runtime, player = runtime_of(request), request.user
        if data.to is not None and data.to != player.player_id \
                and await runtime.players.by_id(data.to) is None:
            raise Problem(404, "player_not_found", "No player has this id.")
        c = await runtime.services.matchmaker.challenge(
            player.player_id, data.to, data.ruleset, data.turn_clock, data.rated, data.seat,
            tuple(data.bots), idempotency_key)
        return Response(challenge_out(c), status_code=201,
                        headers={"Location": f"/v1/challenges/{c.challenge_id}"})

    @get("/", operation_id="listOpenChallenges", summary="Open challenges, oldest first",
         responses=problem_responses(400, 401, 429))
    async def list_open(self, request: Authed, limit: Annotated[int, Parameter(
            ge=1, le=100, description="At most this many.")] = 50) -> list[ChallengeOut]:
        found = await runtime_of(request).services.matchmaker.open_challenges(limit)
        return [challenge_out(c) for c in found]

    @get("/{challenge_id:str}", operation_id="getChallenge", summary="A challenge",
         responses=problem_responses(400, 401, 404, 429))
    async def get_one(self, request: Authed, challenge_id: ChallengeId) -> ChallengeOut:
        return challenge_out(await runtime_of(request).services.matchmaker.get_challenge(
            challenge_id))

    @post("/{challenge_id:str}/accept", operation_id="acceptChallenge",
          summary="Accept a challenge: its game is created and dealt", status_code=200,
          responses=WRITE, description="Yours, or an open one. Accepted again by you, the "
          "same game; accepted by another, declined or cancelled: 409 `challenge_not_open`.")
    async def accept(self, request: Authed, challenge_id: ChallengeId,
                     idempotency_key: IdempotencyKey = None) -> ChallengeOut:
        runtime, player = runtime_of(request), request.user
        return challenge_out(await runtime.services.matchmaker.accept(
            challenge_id, player.player_id))

    @post("/{challenge_id:str}/decline", operation_id="declineChallenge",
          summary="Decline a challenge to you, with a reason", status_code=200,
          responses=WRITE, operation_class=OptionalBodyOperation)
    async def decline(self, request: Authed, challenge_id: ChallengeId,
                      data: DeclineChallenge | None = None,
                      idempotency_key: IdempotencyKey = None) -> ChallengeOut:
        runtime, player = runtime_of(request), request.user
        return challenge_out(await runtime.services.matchmaker.decline(
            challenge_id, player.player_id, (data or DeclineChallenge()).reason))

    @post("/{challenge_id:str}/cancel", operation_id="cancelChallenge",
          summary="Withdraw your challenge", status_code=200, responses=WRITE)
    async def cancel(self, request: Authed, challenge_id: ChallengeId,
                     idempotency_key: IdempotencyKey = None) -> ChallengeOut:
        runtime, player = runtime_of(request), request.user
        return challenge_out(await runtime.services.matchmaker.cancel(
            challenge_id, player.player_id))
