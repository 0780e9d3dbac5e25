"""Resigning a running game: the seat is handed to a bot for the rest of the game.

The rules engine has no resignation (a seat must keep answering challenges), so it is a
lobby-level fact in the game's log, `SeatResigned`, and the seat's controller becomes a bot.
"""

from __future__ import annotations

from service.domain import RuleViolation
from service.pipeline import Outcome, Pipeline
from service.store.codec import AnyEvent
from service.table.game import Game, apply_all
from service.table.lobby import SeatResigned


def decide_resign(game: Game, player_id: str) -> list[AnyEvent]:
    if game.status == "lobby" or game.lobby is None:
        raise RuleViolation("not_started", "The game has not started: leave your seat instead.")
    if game.status == "finished":
        raise RuleViolation("game_over", "The game is over.")
    seat = game.lobby.seat_of(player_id)
    if seat is None:
        raise RuleViolation("not_seated", "You have no seat in this game.")
    return [SeatResigned(seat, player_id, game.lobby.timeout_policy.bot_level)]


async def resign(pipeline: Pipeline, game_id: str, player_id: str,
                 command_id: str | None = None) -> Outcome:
    def decide(game: Game) -> tuple[list[AnyEvent], Game]:
        new = decide_resign(game, player_id)
        return new, apply_all(game, new)

    body = b"resign\0" + player_id.encode()
    return await pipeline.take(game_id, decide, body, f"player:{player_id}", command_id)
