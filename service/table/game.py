"""One game as the pipeline sees it: its lobby, its rules state, its place in the log.

Pure like the domain (msgspec and the domain only), so the event log and the projections may
fold games without reaching up into the pipeline.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal

import msgspec
from msgspec.structs import replace

from cya_rules import GameState, evolve, new_game
from cya_rules.log.chain import GENESIS_HASH
from cya_rules.log.codec import AnyEvent
from cya_rules.table.lobby import GameCreated, Lobby, LobbyEvent, evolve_lobby
from cya_rules.table.seats import BotSeat, SeatHolder
from cya_rules.table.talk import ReactionSent, Talk
from cya_rules.table.timeouts import ClockRestarted, TimeoutEvent, evolve_seats

GameStatus = Literal["lobby", "playing", "finished", "expired", "abandoned"]


class Game(msgspec.Struct, frozen=True, gc=False):
    """Immutable: the pipeline's cache may hand the same value to many commands at once."""

    game_id: str
    version: int = 0
    last_hash: str = GENESIS_HASH
    lobby: Lobby | None = None
    state: GameState | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    # When the rules last moved (the pending decision's clock starts there): a seat changing
    # hands (a resignation) moves `updated_at`, not this. Set by `clocked`.
    decision_since: datetime | None = None
    # The pending decision's clock has started over once (`ClockRestarted`); it will not again.
    clock_restarted: bool = False
    # Each seat's reactions, for their pace (`cya_rules.table.talk`): set by `apply_at` and the
    # decider, from the times the log records; a reaction changes nothing else.
    talk: Talk = Talk()

    @property
    def status(self) -> GameStatus:
        if self.lobby is not None and self.lobby.ended is not None:
            return self.lobby.ended
        if self.state is None or not self.state.master_seed:
            return "lobby"
        return "finished" if self.state.status == "finished" else "playing"

    @property
    def over(self) -> bool:
        """Finished, or ended without a result (expired, abandoned)."""
        return self.status not in ("lobby", "playing")

    def pending_seat(self) -> tuple[int, SeatHolder | None] | None:
        """The seat whose decision the game waits for, and who controls it."""
        if self.status != "playing" or self.state is None or self.lobby is None:
            return None
        seats = self.state.pending_seats()
        if not seats:
            return None
        return seats[0], self.lobby.seats[seats[0]]

    def held_by(self, seat: int, player_id: str) -> bool:
        """Whether `seat` belongs to that human player in this state of the game."""
        return self.lobby is not None and self.lobby.seat_of(player_id) == seat

    def horizon(self, seat: int | None) -> int:
        """The last version a caller in `seat` (None: watching) may see now."""
        return horizon(self.version, self.status,
                       self.lobby.spectator_delay if self.lobby else 0, seat)

    def is_bot(self, seat: int) -> bool:
        return self.lobby is not None and isinstance(self.lobby.seats[seat], BotSeat)


def apply(game: Game, event: AnyEvent) -> Game:
    """Fold one event in; version and hash are the caller's (they come from the stored row)."""
    if isinstance(event, GameCreated):
        return replace(game, lobby=evolve_lobby(None, event), state=new_game(event.ruleset))
    if isinstance(event, LobbyEvent):
        return replace(game, lobby=evolve_lobby(game.lobby, event))
    if isinstance(event, ClockRestarted):
        return replace(game, clock_restarted=True)
    if isinstance(event, TimeoutEvent):
        return replace(game, lobby=evolve_seats(game.lobby, event))
    if isinstance(event, ReactionSent):
        return game  # its time is `apply_at`'s
    if game.state is None:
        raise ValueError("a rules event before game_created")
    return replace(game, state=evolve(game.state, event))


def clocked(before: Game, after: Game, at: datetime) -> Game:
    """`after`, with the clock of its pending decision started at `at` if the rules moved
    since `before` (a seat changing hands does not move them) or the clock was restarted."""
    if after.state is not before.state:
        return replace(after, decision_since=at, clock_restarted=False)
    if after.clock_restarted and not before.clock_restarted:
        return replace(after, decision_since=at)
    return after


def apply_at(game: Game, event: AnyEvent, at: datetime) -> Game:
    """`apply`, for an event recorded at `at` (`clocked`); a reaction's time sets its
    seat's pace."""
    if isinstance(event, ReactionSent):
        return replace(game, talk=game.talk.heard(event.seat, at))
    return clocked(game, apply(game, event), at)


def apply_all(game: Game, events: Iterable[AnyEvent]) -> Game:
    for event in events:
        game = apply(game, event)
    return game


def advance(game: Game, version: int, last_hash: str, at: datetime) -> Game:
    """The game after a batch of events stored at `at`, ending with `version`."""
    return replace(
        game,
        version=version,
        last_hash=last_hash,
        created_at=game.created_at or at,
        updated_at=at,
    )


def horizon(version: int, status: str, spectator_delay: int, seat: int | None) -> int:
    """The last version a caller in `seat` (None: watching) may see of a game now: a watcher
    trails a running game by its spectator delay; a seat, or anyone once it is over, sees all."""
    if seat is not None or status != "playing" or not spectator_delay:
        return version
    return max(version - spectator_delay, 1)
