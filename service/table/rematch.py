"""A rematch: the same rules and players, every seat moved one place on (the player of seat s
sits at s + 1), the player who asks seated at once, bots too, and the other players invited
to the seats kept for them. Pure like the rest of the table.
"""

from __future__ import annotations

from collections.abc import Iterable

from cya_rules import Event, RuleCode, RuleViolation
from cya_rules.log.codec import AnyEvent
from cya_rules.table.endings import RematchOffered
from cya_rules.table.lobby import GameCreated, LobbyEvent, evolve_lobby
from cya_rules.table.seats import BotSeat, HumanSeat, SeatHolder
from service.table.game import Game
from service.table.lobby_commands import CreateGame


def seats_at_deal(log: Iterable[AnyEvent]) -> tuple[SeatHolder | None, ...]:
    """Who held each seat when the cards were dealt: the lobby's events up to the first of
    the rules' (a seat given up since is still its player's, for a rematch)."""
    lobby = None
    for event in log:
        if isinstance(event, Event):
            break
        if isinstance(event, LobbyEvent):
            lobby = evolve_lobby(lobby, event)
    if lobby is None:
        raise ValueError("a log without game_created")
    return lobby.seats


def rematch_of(game: Game, created: GameCreated, dealt: tuple[SeatHolder | None, ...],
               player_id: str) -> CreateGame:
    """The new game's creation, asked by `player_id` (one of the players at the deal)."""
    if not game.over:
        raise RuleViolation(RuleCode.GAME_NOT_OVER, "A rematch follows a game that is over.")
    if game.status == "expired":
        raise RuleViolation(RuleCode.GAME_NOT_OVER, "The game was never played.")
    if not any(isinstance(s, HumanSeat) and s.player_id == player_id for s in dealt):
        raise RuleViolation(RuleCode.NOT_SEATED, "Only the game's players ask for a rematch.")
    n = len(dealt)
    seats: list[SeatHolder | None] = [None] * n
    invited: list[str | None] = [None] * n
    for s, holder in enumerate(dealt):
        to = (s + 1) % n
        if isinstance(holder, HumanSeat) and holder.player_id != player_id:
            invited[to] = holder.player_id
        else:
            seats[to] = holder if holder is not None else BotSeat()
    assert game.lobby is not None and game.state is not None
    lobby = game.lobby
    return CreateGame(created.ruleset, tuple(seats), lobby.turn_clock, lobby.timeout_policy,
                      lobby.public, lobby.spectator_delay, lobby.rated, tuple(invited),
                      game.game_id)


def offered(game: Game, new_game_id: str, player_id: str) -> list[AnyEvent]:
    """The decider of the old game's `rematch_offered`: once per game."""
    assert game.lobby is not None
    if game.lobby.rematch is not None:
        raise RuleViolation(RuleCode.GAME_OVER, f"A rematch was offered: {game.lobby.rematch}.")
    return [RematchOffered(new_game_id, player_id)]
