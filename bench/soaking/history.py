"""A finished game's log (`GET /history`, unredacted), folded version by version with the
service's own rules: what each caller may see of each version. The reads the soak's clients
made are judged against it (`checks.py`).

Redaction is the store's (`redacted_for`) and views are the domain's (`player_view`,
`spectator_view`), not a second implementation: what is checked is that every read path
delivers what the log says, not what the rules are.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

import msgspec

from cya_rules import player_view, spectator_view
from cya_rules.log.codec import EventCodec
from cya_rules.log.history import HistoryLine
from cya_rules.table.lobby import SeatResigned
from cya_rules.table.timeouts import SeatHandedToBot
from service.events.records import StoredEvent, redacted_for
from service.table.game import Game, apply, horizon

CARD_ID = re.compile(r"[a-z_]+#\d+")
_codec = EventCodec()
_encode = msgspec.json.Encoder().encode


def plain(value: Any) -> Any:
    """JSON data as a client decodes it (lists, dicts, strings), to compare with a read."""
    return msgspec.json.decode(_encode(value))


def card_ids(value: Any) -> set[str]:
    return set(CARD_ID.findall(_encode(value).decode()))


class Replay:
    def __init__(self, game_id: str, ndjson: bytes) -> None:
        self.game_id = game_id
        self.lines = [msgspec.json.decode(raw, type=HistoryLine)
                      for raw in ndjson.splitlines() if raw.strip()]
        self.stored = [StoredEvent(game_id, x.version, x.type, x.schema_version,
                                   _codec.decode(x.type, x.schema_version, bytes(x.data)),
                                   x.visibility, x.command_id, x.actor, x.recorded_at, x.hash)
                       for x in self.lines]
        self.games = [Game(game_id)]  # the game after each version; [0] before the first
        for s in self.stored:
            self.games.append(msgspec.structs.replace(apply(self.games[-1], s.event),
                                                      version=s.version))
        self.times = [x.recorded_at.timestamp() for x in self.lines]
        self.delay = self.final.lobby.spectator_delay if self.final.lobby else 0
        self.lobby_end = max((v for v, g in enumerate(self.games) if g.status == "lobby"),
                             default=0)
        self._views: dict[tuple[int, int | None], Any] = {}

    @property
    def version(self) -> int:
        return len(self.stored)

    @property
    def final(self) -> Game:
        return self.games[-1]

    @property
    def over(self) -> bool:
        return self.final.over

    # -- who sees what ----------------------------------------------------------------------

    def seat_of(self, player_id: str) -> int | None:
        """The seat the player holds as the game stands (None: a watcher)."""
        lobby = self.final.lobby
        return lobby.seat_of(player_id) if lobby is not None else None

    def seated_from(self, player_id: str) -> int:
        """The version whose commit seated the player (0: never seated)."""
        return next((v for v, g in enumerate(self.games)
                     if g.lobby is not None and g.lobby.seat_of(player_id) is not None), 0)

    def gave_up_seat(self, player_id: str) -> bool:
        """Resigned, or handed to a bot: its viewer changed during the game."""
        return any(isinstance(s.event, SeatResigned | SeatHandedToBot)
                   and s.event.player_id == player_id for s in self.stored)

    def event(self, version: int, seat: int | None) -> Any:
        return plain(redacted_for(self.stored[version - 1], seat))

    def view(self, version: int, seat: int | None) -> Any:
        key = (version, seat)
        if key not in self._views:
            state = self.games[version].state
            if state is None or not state.master_seed:
                self._views[key] = None
            else:
                self._views[key] = plain(spectator_view(state) if seat is None
                                         else player_view(state, seat))
        return self._views[key]

    def awaiting(self, version: int) -> list[int]:
        pending = self.games[version].pending_seat()
        return [pending[0]] if pending else []

    def status(self, version: int) -> str:
        return self.games[version].status

    # -- time ---------------------------------------------------------------------------------

    def recorded_by(self, at: float) -> int:
        """How many events were recorded by `at` (an upper bound of the version then live)."""
        return bisect.bisect_right(self.times, at)

    def watcher_bound(self, at: float) -> int:
        """The most a watcher may have seen at `at`: an upper bound of the horizon then."""
        live = self.recorded_by(at)
        if live >= self.version:
            return self.version
        return max(min(live, self.lobby_end), horizon(live, "playing", self.delay, None))

    def decided_at(self, actor: str) -> list[int]:
        """The versions at which `actor`'s decisions were taken (each command by it that the
        rules acted on, the version before its first event)."""
        return [x.version - 1 for x in self.lines
                if x.actor == actor and x.command_id is not None
                and self.games[x.version - 1].status == "playing"]

    def first_awaiting(self, seat: int, after: int) -> int | None:
        """The first version after `after` at which the game waits for `seat`."""
        return next((v for v in range(after + 1, self.version + 1)
                     if seat in self.awaiting(v)), None)
