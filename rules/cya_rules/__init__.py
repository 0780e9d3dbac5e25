"""The rules of Cover Your Assets as a pure decider: no I/O, no clock, no hidden randomness.

`decide(state, command, actor)` returns events or raises `RuleViolation`; `evolve` folds an
event into state; `legal_commands` lists what a seat may do; views and `redact` are the only
paths by which hidden cards leave this package.
"""

from .cards import Edition
from .commands import Command, SeatCommand, StartGame
from .decide import decide, execute, preview
from .errors import RuleCode, RuleViolation
from .events import Event
from .evolve import evolve, fold
from .legal import legal_commands
from .ruleset import AdvancedOptions, EndMode, RuleSet, preset
from .state import GameState, new_game
from .views import GameView, player_view, redact, spectator_view, visibility

__all__ = [
    "AdvancedOptions",
    "Command",
    "Edition",
    "EndMode",
    "Event",
    "GameState",
    "GameView",
    "RuleCode",
    "RuleSet",
    "RuleViolation",
    "SeatCommand",
    "StartGame",
    "decide",
    "evolve",
    "execute",
    "fold",
    "legal_commands",
    "new_game",
    "player_view",
    "preset",
    "preview",
    "redact",
    "spectator_view",
    "visibility",
]
