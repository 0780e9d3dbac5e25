"""An in-process LRU of folded games, each at the version it was folded to.

It only saves reads: a command runs on the cached game and its append fails if the log has
moved on (another process wrote), and the pipeline then reloads from the log.

It also knows which games a feed of this process follows, and the last version that feed took
(`follow`): such a game's cached copy at that version is the log's end but for a commit whose
publish is still on its way (`current`), so a command is decided on it without a catch-up read.
"""

from __future__ import annotations

from collections import OrderedDict

from service.table.game import Game


class StateCache:
    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._followed: dict[str, int] = {}  # game id: the last version its feed here took

    def get(self, game_id: str) -> Game | None:
        game = self._games.get(game_id)
        if game is not None:
            self._games.move_to_end(game_id)
        return game

    def put(self, game: Game) -> None:
        current = self._games.get(game.game_id)
        if current is not None and current.version > game.version:
            return  # never step a game back: a slower command may finish later
        self._games[game.game_id] = game
        self._games.move_to_end(game.game_id)
        while len(self._games) > self._size:
            self._games.popitem(last=False)

    def discard(self, game_id: str) -> None:
        self._games.pop(game_id, None)

    def clear(self) -> None:
        self._games.clear()

    def follow(self, game_id: str, version: int) -> None:
        self._followed[game_id] = version

    def unfollow(self, game_id: str) -> None:
        self._followed.pop(game_id, None)

    def current(self, game_id: str) -> Game | None:
        """The cached game, if a feed here follows it and it is at the version the feed took
        last."""
        followed = self._followed.get(game_id)
        if followed is None:
            return None
        game = self._games.get(game_id)
        return game if game is not None and game.version >= followed else None
