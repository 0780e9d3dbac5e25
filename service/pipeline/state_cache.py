"""An in-process LRU of folded games, each at the version it was folded to.

It only saves reads: a command runs on the cached game and its append fails if the log has
moved on (another process wrote), and the pipeline then reloads from the log.
"""

from __future__ import annotations

from collections import OrderedDict

from service.table.game import Game


class StateCache:
    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._games: OrderedDict[str, Game] = OrderedDict()

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
