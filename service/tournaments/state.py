"""A tournament as the fold of its log (`evolve`), and what follows from it alone: the tables
that may open now, whether a round is over."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec
from msgspec.structs import replace

from service.tournaments.entrants import is_busy_alone
from service.tournaments.events import (
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

GENESIS_HASH = "0" * 64


class Tournament(msgspec.Struct, frozen=True, gc=False):
    """Immutable; `version` and `last_hash` are the log's (set by the store's fold)."""

    tournament_id: str
    version: int = 0
    last_hash: str = GENESIS_HASH
    created: TournamentCreated | None = None
    seeds: tuple[str, ...] = ()  # secret until the end; empty in a public fold
    revealed: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    byes: Mapping[int, tuple[int, ...]] = {}  # round -> entrants sitting it out
    rounds_paired: int = 0
    games: Mapping[int, str] = {}  # table -> game id
    results: Mapping[int, TableResult] = {}  # table -> its game's result

    @property
    def status(self) -> str:
        if self.created is None:
            return "none"
        return "finished" if self.revealed else "running"

    @property
    def players(self) -> int:
        assert self.created is not None
        return self.created.ruleset.players

    def round_over(self, round_no: int) -> bool:
        return all(t.table in self.results for t in self.tables if t.round == round_no)

    def all_over(self) -> bool:
        return bool(self.tables) and len(self.results) == len(self.tables)

    def ready_tables(self) -> list[Table]:
        """Tables to open now, in order: paired, not opened, and none of whose players is
        due at an earlier table still unfinished (a bot may sit at many tables at once)."""
        assert self.created is not None
        entrants = self.created.entrants
        busy: set[int] = set()
        ready = []
        for t in self.tables:
            if t.table in self.results:
                continue
            alone = {e for e in t.seats if is_busy_alone(entrants[e])}
            if t.table not in self.games and not alone & busy:
                ready.append(t)
            busy |= alone
        return ready

    def met(self) -> dict[int, set[int]]:
        """Whom each entrant has been paired with so far."""
        seen: dict[int, set[int]] = {}
        for t in self.tables:
            for e in t.seats:
                seen.setdefault(e, set()).update(o for o in t.seats if o != e)
        return seen


def evolve(t: Tournament, event: TournamentEvent) -> Tournament:
    match event:
        case TournamentCreated():
            return replace(t, created=event)
        case SeedsDrawn(seeds=seeds):
            return replace(t, seeds=seeds)
        case RoundPaired(round=round_no, tables=tables, byes=byes):
            return replace(t, tables=t.tables + tables, rounds_paired=round_no,
                           byes={**t.byes, round_no: byes})
        case TableOpened(table=table, game_id=game_id):
            return replace(t, games={**t.games, table: game_id})
        case TableFinished(table=table, result=result):
            return replace(t, results={**t.results, table: result})
        case TournamentFinished(seeds=seeds):
            return replace(t, revealed=seeds)
    raise ValueError(f"not a tournament event: {type(event).__name__}")


def fold(t: Tournament, events: Iterable[TournamentEvent]) -> Tournament:
    for event in events:
        t = evolve(t, event)
    return t
