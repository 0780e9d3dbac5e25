"""What a game waits for, and by when: the pending decision's deadline under a turn clock, the
work that makes due (a bot's move at once, an expiring clock at its deadline), and whom a
command gives news.

A function of the folded game alone, like every read model: the log replayed gives the same.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final, Literal

import msgspec

from cya_rules.table.seats import BotSeat, HumanSeat
from service.table.game import Game

DueKind = Literal["bot_turn", "deadline"]
BOT_TURN: Final = "bot_turn"  # a bot's seat is to decide: at once
DEADLINE: Final = "deadline"  # a human's turn clock runs out at `due_at`


class DueWork(msgspec.Struct, frozen=True, gc=False):
    """The one decision a game waits for that the service itself must take or time out (a
    row of `due_work`): as of `version`, `seat` decides, by `due_at`."""

    game_id: str
    version: int
    kind: DueKind
    seat: int
    due_at: datetime


def deadline(game: Game) -> datetime | None:
    """A human's decision under a turn clock expires `turn_clock` seconds after the command
    that made it pending (every command of the rules restarts the clock of the decision it
    leaves; another seat's resignation does not)."""
    pending = game.pending_seat()
    if pending is None or game.lobby is None or game.lobby.turn_clock is None:
        return None
    if not isinstance(pending[1], HumanSeat) or game.decision_since is None:
        return None
    return game.decision_since + timedelta(seconds=game.lobby.turn_clock)


def due_work_of(game: Game) -> DueWork | None:
    """What the workers must do next for this game, if anything."""
    pending = game.pending_seat()
    if pending is None or game.updated_at is None:
        return None
    seat, controller = pending
    if isinstance(controller, BotSeat):
        return DueWork(game.game_id, game.version, BOT_TURN, seat, game.updated_at)
    at = deadline(game)
    return None if at is None else DueWork(game.game_id, game.version, DEADLINE, seat, at)


def players_to_tell(before: Game, after: Game) -> tuple[str, ...]:
    """The human players whose news a command may have changed (for their own event streams):
    every player at the table when seats changed hands or the game started or ended, and the
    player whose decision the game now awaits."""
    lobbies = [g.lobby for g in (before, after) if g.lobby is not None]
    if before.lobby is not after.lobby or before.status != after.status:
        return tuple(dict.fromkeys(s.player_id for lobby in lobbies for s in lobby.seats
                                   if isinstance(s, HumanSeat)))
    pending = after.pending_seat()
    if pending is not None and isinstance(pending[1], HumanSeat):
        return (pending[1].player_id,)
    return ()

