"""A rematch through the pipeline: the new game's creation (`table.rematch.rematch_of`), then
`rematch_offered` in the old game's log, so its players, following it, learn the new id."""

from __future__ import annotations

from typing import NamedTuple

from cya_rules import RuleViolation
from cya_rules.table.lobby import GameCreated
from service.events.records import GameNotFound
from service.pipeline.deciders import Decided
from service.pipeline.pipeline import Pipeline
from service.table.game import Game, apply_all
from service.table.rematch import offered, rematch_of, seats_at_deal


class Rematch(NamedTuple):
    game_id: str
    created: bool  # False: one was offered before, and this is it


async def offer_rematch(pipeline: Pipeline, game_id: str, player_id: str,
                        command_id: str | None = None) -> Rematch:
    game = await pipeline.load(game_id, fresh=True)
    stored = await pipeline.store.read_events(game_id)
    if not stored or not isinstance(stored[0].event, GameCreated):
        raise GameNotFound(game_id)
    command = rematch_of(game, stored[0].event, seats_at_deal(s.event for s in stored),
                         player_id)  # refuses whoever was not at the table
    if game.lobby is not None and game.lobby.rematch is not None:
        return Rematch(game.lobby.rematch, False)
    new = await pipeline.create_game(command, player_id, command_id)

    def decide(g: Game) -> Decided:
        events = offered(g, new.game_id, player_id)
        return Decided(list(events), apply_all(g, events))

    try:
        await pipeline.take(game_id, decide, f"rematch\0{new.game_id}".encode(),
                            f"player:{player_id}",
                            None if command_id is None else f"{command_id}:rematch")
    except RuleViolation:  # another player's rematch was offered first: theirs stands
        game = await pipeline.load(game_id, fresh=True)
        assert game.lobby is not None and game.lobby.rematch is not None
        return Rematch(game.lobby.rematch, False)
    return Rematch(new.game_id, True)
