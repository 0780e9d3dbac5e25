"""Which games a simulation plays, and playing one in memory.

Seats rotate: game n puts the bot in seat n mod players, the whole table turning with it, so
every seat and every neighbour falls to it alike. With duplicate seating each deal (master
seed) is played once per rotation, as the ladder does, so the luck of the deal falls on every
seat alike too. Every seed comes from `seed` and the game's number: a run reproduces, in one
process or many.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from cya_client.bot.runner import Choose, GameResult
from cya_client.simulate.convert import IllegalCommand, engine_command, seat_turn
from cya_rules import (
    GameState,
    RuleSet,
    RuleViolation,
    StartGame,
    execute,
    legal_commands,
    new_game,
)
from cya_rules import player_view as rules_view
from cya_rules.bots import POLICIES

MAX_COMMANDS = 100_000


@dataclass(frozen=True)
class Settings:
    """A simulation: `games` games of `ruleset` with the bot against the levels `against`,
    which take the other seats in turn (greedy, expert, greedy for `greedy,expert` and four
    seats)."""

    ruleset: RuleSet
    against: tuple[str, ...]
    games: int
    duplicate: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        unknown = [level for level in self.against if level not in POLICIES]
        if not self.against or unknown:
            named = f"unknown levels {', '.join(unknown)}" if unknown else "no levels"
            raise ValueError(f"{named}: choose from {', '.join(POLICIES)}")

    @property
    def total(self) -> int:
        """Games played: with duplicate seating, whole deals (a multiple of the seats)."""
        players = self.ruleset.players
        return -(-self.games // players) * players if self.duplicate else self.games

    @property
    def field(self) -> tuple[str, ...]:
        """The levels in the seats after the bot's, in seat order."""
        return tuple(self.against[i % len(self.against)]
                     for i in range(self.ruleset.players - 1))


@dataclass(frozen=True)
class Game:
    """Game `number`: deal `deal`, the bot in `seat`; `levels[s]` plays seat s (None: the bot)."""

    number: int
    deal: int
    seat: int
    levels: tuple[str | None, ...]


def schedule(settings: Settings) -> list[Game]:
    players = settings.ruleset.players
    table = (None, *settings.field)
    games = []
    for n in range(settings.total):
        seat = n % players
        levels = tuple(table[(s - seat) % players] for s in range(players))
        games.append(Game(n, n // players if settings.duplicate else n, seat, levels))
    return games


def _seed(settings: Settings, what: str, n: int) -> bytes:
    return hashlib.sha256(f"cya-bot simulate:{settings.seed}:{what}:{n}".encode()).digest()


def deal_seed(settings: Settings, game: Game) -> bytes:
    """The game's master seed: the same for every rotation of a deal."""
    return _seed(settings, "deal", game.deal)


def play(settings: Settings, game: Game, choose: Choose) -> GameResult:
    """Play one game: the bot's function with the SDK's models, the levels as the service
    runs them. An illegal command, or an exception from the function, stops it."""
    rng_seed = int.from_bytes(_seed(settings, "rng", game.number)[:8], "big")
    rng = random.Random(rng_seed)
    random.seed(rng_seed)  # the function's own `random`: its games reproduce too
    _, state = execute(new_game(settings.ruleset), StartGame(deal_seed(settings, game)), None)
    decisions = 0
    for _ in range(MAX_COMMANDS):
        if state.status == "finished":
            return GameResult(f"simulated-{game.number}", game.seat, list(state.winners),
                              list(state.totals), decisions, 0)
        seat = state.pending_seats()[0]
        level = game.levels[seat]
        if level is not None:
            command = POLICIES[level](rules_view(state, seat), legal_commands(state, seat), rng)
            _, state = execute(state, command, seat)
            continue
        where = f"game {game.number} (--seed {settings.seed}), seat {seat}"
        try:
            state = _bot_step(state, seat, choose)
        except IllegalCommand as error:
            raise IllegalCommand(f"{where}: {error}") from None
        except Exception as error:
            error.add_note(f"in choose(), {where}")
            raise
        decisions += 1
    raise RuntimeError(f"game {game.number} did not finish within {MAX_COMMANDS} commands")


def _bot_step(state: GameState, seat: int, choose: Choose) -> GameState:
    view, offered, legal = seat_turn(state, seat)
    chosen = engine_command(choose(view, offered), offered, legal)
    try:
        return execute(state, chosen, seat)[1]
    except RuleViolation as refused:
        raise IllegalCommand(f"choose() returned {chosen!r}, which the rules refuse "
                             f"({refused.code}: {refused.message.rstrip('.')}). Return one "
                             "of the legal commands it is given.") from None
