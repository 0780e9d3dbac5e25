"""The tournament's decider: commands in, events out, nothing else. The runner supplies what is
not pure (the seeds, the games' ids and results) inside the commands.
"""

from __future__ import annotations

import hashlib
import math

import msgspec

from cya_rules import RuleSet
from cya_rules.bots.levels import LEVEL_NAMES
from service.tournaments.entrants import BotEntrant, Entrant, PlayerEntrant
from service.tournaments.events import (
    Format,
    RoundPaired,
    SeedsDrawn,
    Table,
    TableFinished,
    TableOpened,
    TableResult,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
)
from service.tournaments.pairing import (
    duplicate_tables,
    round_robin_count,
    round_robin_tables,
    swiss_round,
)
from service.tournaments.standings import points_by_entrant
from service.tournaments.state import Tournament, evolve

MAX_ENTRANTS = 256
MAX_TABLES = 2048
MAX_DEALS = 64


class SpecError(ValueError):
    """A new tournament's parts contradict each other: `key` names the field."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class TournamentConflict(ValueError):
    """A command the tournament as it stands refuses (a table already opened, finished…)."""


class CreateTournament(msgspec.Struct, frozen=True):
    name: str
    creator: str
    format: Format
    ruleset: RuleSet
    entrants: tuple[Entrant, ...]
    seeds: tuple[bytes, ...]  # drawn by the caller: as many as `seeds_needed` says
    rated: bool = False
    public: bool = True
    deals: int = 1  # duplicate: deals
    rounds: int | None = None  # swiss: rounds (None: ceil(log2(entrants)))


class OpenTable(msgspec.Struct, frozen=True):
    table: int
    game_id: str


class RecordResult(msgspec.Struct, frozen=True):
    table: int
    game_id: str
    result: TableResult


Command = CreateTournament | OpenTable | RecordResult


def swiss_rounds(entrants: int, rounds: int | None) -> int:
    return rounds if rounds is not None else max(1, math.ceil(math.log2(max(entrants, 2))))


def seeds_needed(format: Format, entrants: int, players: int, deals: int,
                 rounds: int | None) -> int:
    """One seed per deal: duplicate deals are shared by their tables; every round-robin and
    Swiss table has its own. Raises `SpecError` for a tournament that cannot be paired."""
    if not 2 <= entrants <= MAX_ENTRANTS:
        raise SpecError("entrants", f"A tournament has 2 to {MAX_ENTRANTS} entrants.")
    if entrants < players:
        raise SpecError("entrants", f"{entrants} entrants cannot fill a {players}-seat table.")
    match format:
        case "duplicate":
            if entrants % players:
                raise SpecError("entrants", f"Duplicate play seats every entrant at every "
                                f"table of a deal: {entrants} entrants do not fill "
                                f"{players}-seat tables.")
            if not 1 <= deals <= MAX_DEALS:
                raise SpecError("deals", f"Duplicate play has 1 to {MAX_DEALS} deals.")
            tables, needed = deals * entrants, deals
        case "round_robin":
            tables = needed = round_robin_count(entrants, players)
        case "swiss":
            n = swiss_rounds(entrants, rounds)
            if not 1 <= n <= entrants:
                raise SpecError("rounds", f"A Swiss tournament of {entrants} has 1 to "
                                f"{entrants} rounds.")
            tables = needed = n * (entrants // players)
    if tables > MAX_TABLES:
        raise SpecError("entrants", f"That is {tables} games; a tournament has at most "
                        f"{MAX_TABLES}.")
    return needed


def decide(t: Tournament, command: Command) -> list[TournamentEvent]:
    match command:
        case CreateTournament():
            return _create(t, command)
        case OpenTable(table=table, game_id=game_id):
            if table not in {x.table for x in t.ready_tables()}:
                raise TournamentConflict(f"table {table} is not ready to open")
            return [TableOpened(table, game_id)]
        case RecordResult(table=table, game_id=game_id, result=result):
            if t.games.get(table) != game_id or table in t.results:
                raise TournamentConflict(f"table {table} has no open game {game_id}")
            return _after_result(t, TableFinished(table, game_id, result))
    raise TournamentConflict(f"not a tournament command: {type(command).__name__}")


def _create(t: Tournament, c: CreateTournament) -> list[TournamentEvent]:
    if t.created is not None:
        raise TournamentConflict("the tournament exists")
    for i, e in enumerate(c.entrants):
        if isinstance(e, BotEntrant) and e.level not in LEVEL_NAMES:
            raise SpecError(f"entrants[{i}].level", f"No bot level {e.level!r}: "
                            f"{', '.join(LEVEL_NAMES)}.")
    humans = [e.player_id for e in c.entrants if isinstance(e, PlayerEntrant)]
    if len(set(humans)) != len(humans):
        raise SpecError("entrants", "A player enters a tournament once.")
    n, players = len(c.entrants), c.ruleset.players
    needed = seeds_needed(c.format, n, players, c.deals, c.rounds)
    if len(c.seeds) != needed:
        raise TournamentConflict(f"{needed} seeds needed, {len(c.seeds)} given")
    deals = needed if c.format != "swiss" else swiss_rounds(n, c.rounds)
    created = TournamentCreated(c.name, c.creator, c.format, c.ruleset.for_new_game(),
                                c.entrants, c.rated, c.public,
                                c.deals if c.format == "duplicate" else deals,
                                tuple(hashlib.sha256(s).hexdigest() for s in c.seeds))
    events: list[TournamentEvent] = [created, SeedsDrawn(tuple(s.hex() for s in c.seeds))]
    if c.format == "duplicate":
        tables = duplicate_tables(n, players, c.seeds)
        for deal in range(c.deals):
            events.append(RoundPaired(deal + 1, tuple(x for x in tables if x.deal == deal)))
    elif c.format == "round_robin":
        events.append(RoundPaired(1, tuple(round_robin_tables(n, players))))
    else:
        tables_, byes = swiss_round(1, list(range(n)), players, {}, set(), 0, 0)
        events.append(RoundPaired(1, tuple(tables_), byes))
    return events


def _after_result(t: Tournament, finished: TableFinished) -> list[TournamentEvent]:
    """The result, then what it completes: the next Swiss round, or the tournament."""
    after = evolve(t, finished)
    events: list[TournamentEvent] = [finished]
    assert after.created is not None
    if after.all_over() and not _swiss_rounds_left(after):
        events.append(TournamentFinished(after.seeds))
    elif after.round_over(after.rounds_paired) and _swiss_rounds_left(after):
        events.append(next_swiss_round(after))
    return events


def _swiss_rounds_left(t: Tournament) -> bool:
    assert t.created is not None
    return t.created.format == "swiss" and t.rounds_paired < t.created.deals


def next_swiss_round(t: Tournament) -> RoundPaired:
    """Pair the next round on the standings so far (best first; the entrant's index breaks
    ties, so the first round pairs them as entered)."""
    assert t.created is not None
    points = points_by_entrant(t)
    ranked = sorted(points, key=lambda e: (-points[e], e))
    had_bye = {e for byes in t.byes.values() for e in byes}
    round_no = t.rounds_paired + 1
    tables, byes = swiss_round(round_no, ranked, t.players, t.met(), had_bye, len(t.tables),
                               len(t.tables))
    return RoundPaired(round_no, tuple(tables), byes)


def table_of(t: Tournament, table: int) -> Table:
    return t.tables[table]
