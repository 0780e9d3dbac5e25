"""The pipeline's deciders: each a pure function from a game, as loaded, to the events a command
causes and the game they lead to (`Decided`), or a `RuleViolation`. The pipeline gives each
the same transaction, idempotency, retries and after-commit hooks (`pipeline.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import NamedTuple

from msgspec.structs import replace

from cya_rules import RuleCode, RuleViolation, StartGame, execute, preview
from cya_rules.commands import SeatCommand
from cya_rules.log.codec import AnyEvent
from cya_rules.table.lobby import GameCreated, SeatResigned
from cya_rules.table.seeds import client_seeds_at_deal
from cya_rules.table.talk import Reaction, ReactionSent, check_pace
from cya_rules.table.timeouts import ClockRestarted
from service.table.game import Game, apply, apply_all
from service.table.lobby_commands import LobbyCommand, Start, decide_lobby


class Decided(NamedTuple):
    events: list[AnyEvent]
    game: Game  # the game the events lead to (its version and hash are the pipeline's)
    partial: bool = False  # a preview that stopped before a step hidden from its seat


Decider = Callable[[Game], Decided]


def creation(game: Game, created: GameCreated) -> Decided:
    """A new game: its first event (`table.lobby_commands.create` made it from the command),
    with the master seed it commits to and the creator's client seed."""
    return Decided([created], apply(game, created))


def lobby_command(game: Game, command: LobbyCommand, player_id: str,
                  master_seed: Callable[[], bytes]) -> Decided:
    """A seat change before the deal; `Start` deals, from the master seed committed to at
    creation and every seat's client seed (a game created before rules version 4: a fresh
    secret seed, `master_seed`, alone)."""
    if game.lobby is not None and game.lobby.ended is not None:
        raise RuleViolation(RuleCode.GAME_OVER, f"The game is over ({game.lobby.ended}: "
                            f"{game.lobby.end_reason}).")
    if game.status != "lobby" or game.lobby is None:
        raise RuleViolation(RuleCode.ALREADY_STARTED, "The game has already started (to give up a "
                            "seat in a running game, POST /resign).")
    new: list[AnyEvent] = list(decide_lobby(game.lobby, command, player_id))
    if not isinstance(command, Start):
        return Decided(new, apply_all(game, new))
    assert game.state is not None
    lobby = game.lobby
    start = StartGame(master_seed()) if not lobby.master_seed else StartGame(
        lobby.master_seed, client_seeds_at_deal(lobby.master_seed, lobby.seats,
                                                lobby.client_seeds)
        if lobby.mixes_client_seeds else None)
    events, state = execute(game.state, start, None)
    return Decided(new + list(events), replace(apply_all(game, new), state=state))


def _playing(game: Game, seat: int, player_id: str | None) -> None:
    """`player_id`: the player the seat must still belong to, checked on the state the command
    is decided on (a retry's fresh state included): another process may have handed the seat
    to a bot since the caller looked."""
    if game.status == "lobby" or game.state is None:
        raise RuleViolation(RuleCode.NOT_STARTED, "The game has not started.")
    if game.lobby is not None and game.lobby.ended is not None:  # the rules would play on
        raise RuleViolation(RuleCode.GAME_OVER, f"The game is over ({game.lobby.ended}: "
                            f"{game.lobby.end_reason}).")
    if player_id is not None and not game.held_by(seat, player_id):
        raise RuleViolation(RuleCode.NOT_SEATED, "The seat is no longer yours.")


def seat_command(game: Game, seat: int, command: SeatCommand, player_id: str | None) -> Decided:
    """A seat's command to the rules engine."""
    _playing(game, seat, player_id)
    assert game.state is not None
    events, state = execute(game.state, command, seat)
    return Decided(list(events), replace(game, state=state))


def seat_command_preview(game: Game, seat: int, command: SeatCommand, player_id: str | None
                         ) -> Decided:
    """A dry run, only as far as the seat may see (`domain.preview`): it must not become a
    peek at other hands or hidden piles. The game stays as it was."""
    _playing(game, seat, player_id)
    assert game.state is not None
    shown, partial = preview(game.state, command, seat)
    return Decided(list(shown), game, partial)


def resignation(game: Game, player_id: str) -> Decided:
    """A player gives up a running game: the rules engine has no resignation (a seat must
    keep answering challenges), so the seat is handed to a bot of the game's timeout policy
    for the rest of the game (`SeatResigned`)."""
    if game.status == "lobby" or game.lobby is None:
        raise RuleViolation(RuleCode.NOT_STARTED,
                            "The game has not started: leave your seat instead.")
    if game.over:
        raise RuleViolation(RuleCode.GAME_OVER, "The game is over.")
    seat = game.lobby.seat_of(player_id)
    if seat is None:
        raise RuleViolation(RuleCode.NOT_SEATED, "You have no seat in this game.")
    new: list[AnyEvent] = [SeatResigned(seat, player_id, game.lobby.timeout_policy.bot_level)]
    return Decided(new, apply_all(game, new))


def reaction(game: Game, player_id: str, reaction: Reaction, now: datetime) -> Decided:
    """A seated player's preset reaction, from the deal on (after the end too: "Good game"),
    at the pace `cya_rules.table.talk` allows. Nothing but the talk changes."""
    if game.status == "lobby" or game.lobby is None:
        raise RuleViolation(RuleCode.NOT_STARTED, "Reactions start with the deal.")
    if game.lobby.ended is not None:
        raise RuleViolation(RuleCode.GAME_OVER, f"The game is over ({game.lobby.ended}).")
    seat = game.lobby.seat_of(player_id)
    if seat is None:
        raise RuleViolation(RuleCode.NOT_SEATED, "Only the players at the table react.")
    check_pace(game.talk, seat, now)
    return Decided([ReactionSent(seat, reaction)], replace(game, talk=game.talk.heard(seat, now)))


def expired_clock(game: Game, seat: int, marks: Sequence[AnyEvent], command: SeatCommand
                  ) -> Decided:
    """A turn clock ran out: its marks (`table.timeouts`), then the bot's command for the
    seat, in one command."""
    assert game.state is not None
    events, state = execute(game.state, command, seat)
    return Decided([*marks, *events], replace(apply_all(game, marks), state=state))


def restarted_clock(game: Game, restart: ClockRestarted) -> Decided:
    """A turn clock ran out while the service could not act on it: it starts over."""
    return Decided([restart], apply_all(game, [restart]))
