"""Table talk: a seated player's preset reaction, a command like any other
(`cya_rules.table.talk`)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, post
from litestar.params import Body

from cya_rules.docs import doc
from cya_rules.table.talk import (
    REACTION_DOC,
    REACTION_INTERVAL_S,
    REACTIONS_PER_SEAT,
    Reaction,
)
from service.events.records import redacted_for
from service.http import examples
from service.http.context import Authed, authenticate, runtime_of, seated
from service.http.problems import problem_responses
from service.http.routes.games import IdempotencyKey, command_id_of
from service.http.schemas.events import EventOut
from service.http.schemas.parameters import GameId
from service.http.schemas.play import CommandResult


class ReactionBody(msgspec.Struct, forbid_unknown_fields=True):
    """A preset reaction to send to the table."""

    reaction: Annotated[Reaction, doc(REACTION_DOC)]


class TalkController(Controller):
    path = "/v1/games"
    tags = ["play"]
    before_request = staticmethod(authenticate)

    @post("/{game_id:str}/reactions", operation_id="sendReaction",
          summary="Send a preset reaction to the table (\"Good game\", \"Oops\"…)",
          status_code=200, description=(
              "A seated player's reaction, from the deal on and after the end: one of a few "
              "presets, never free text, so there is nothing to moderate. It becomes a "
              "`reaction_sent` event in the game's log, seen by the table and its watchers "
              "(stream, events, history) like any other, and changes nothing in the game "
              "(it does move the game's version: a command sent with `If-Match` after it is "
              "a `stale_version`). Each seat may send one every "
              f"{REACTION_INTERVAL_S:g} seconds and {REACTIONS_PER_SEAT} in a game: one "
              "sooner is refused with 429 `too_many_reactions` and `Retry-After` (past the "
              "cap, without it: that refusal is final)."),
          responses=problem_responses(400, 401, 403, 404, 409, 413, 422, 429))
    async def react(self, request: Authed, game_id: GameId,
                    data: Annotated[ReactionBody, Body(examples=examples.REACTION)],
                    idempotency_key: IdempotencyKey = None) -> CommandResult:
        runtime, player = runtime_of(request), request.user
        pipeline = runtime.services.pipeline
        _, seat = await seated(pipeline, game_id, player)
        outcome = await pipeline.react(game_id, player.player_id, data.reaction,
                                       command_id_of(player, idempotency_key))
        events = [EventOut(s.version, redacted_for(s, seat)) for s in outcome.events]
        last = outcome.events[-1] if outcome.events else None
        receipt = (runtime.receipt(game_id, last.version, last.hash)
                   if last is not None and last.version == outcome.version
                   else await runtime.receipt_at(game_id, outcome.version))
        return CommandResult(game_id, outcome.version, events, outcome.replayed, True, False,
                             receipt)
