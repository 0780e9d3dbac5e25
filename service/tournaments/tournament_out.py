"""A tournament as the API serves it: a function of its folded log alone (the projection kept
in the `tournaments` row)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from cya_rules import RuleSet
from cya_rules.docs import doc
from service.tournaments.entrants import Entrant
from service.tournaments.events import Format, TableResult
from service.tournaments.standings import Standing, standings
from service.tournaments.state import Tournament


class TableOut(msgspec.Struct, frozen=True):
    """One game of the tournament."""

    table: Annotated[int, doc("The table's number, 0-based.")]
    round: Annotated[int, doc("Its round, 1-based (duplicate: its deal's number).")]
    deal: Annotated[int, doc("The index of the seed (in `seed_hashes`) its game is dealt "
                             "from: the tables of one duplicate deal share it.")]
    seats: Annotated[list[int], doc("The entrant (index into `entrants`) in each seat.")]
    game_id: Annotated[str | None, doc("Its game, once opened; null before.")]
    result: Annotated[TableResult | None, doc("How its game ended; null until then.")]


class TournamentOut(msgspec.Struct, frozen=True):
    """A tournament: its rules, entrants, committed seeds, tables and standings."""

    tournament_id: Annotated[str, doc("The tournament's id.")]
    name: Annotated[str, doc("Its name.")]
    creator: Annotated[str, doc("The player who created it.")]
    format: Annotated[Format, doc("`round_robin`, `swiss` or `duplicate`.")]
    status: Annotated[str, doc("`running` or `finished`.")]
    ruleset: Annotated[RuleSet, doc("How every game of it is played.")]
    entrants: Annotated[list[Entrant], doc("Who plays: players and built-in bot levels.")]
    rated: Annotated[bool, doc("Its games update ratings.")]
    public: Annotated[bool, doc("Listed and open to watchers, and so are its games.")]
    deals: Annotated[int, doc("Duplicate: deals; Swiss: rounds; round robin: games.")]
    seed_hashes: Annotated[list[str], doc(
        "SHA-256 (hex) of each seed its games are dealt from, published at creation.")]
    seeds: Annotated[list[str] | None, doc(
        "The seeds themselves (hex), revealed when the tournament ends; null before.")]
    rounds_paired: Annotated[int, doc("Rounds paired so far.")]
    tables: Annotated[list[TableOut], doc("Every table paired so far, by number.")]
    byes: Annotated[list[list[int]], doc("Each round's entrants sitting out (Swiss).")]
    standings: Annotated[list[Standing], doc("Best first.")]
    version: Annotated[int, doc("The tournament log's version.")]
    created_at: Annotated[datetime, doc("When it was created.")]
    updated_at: Annotated[datetime, doc("When its log last grew.")]


def tournament_out(t: Tournament, created_at: datetime, updated_at: datetime) -> TournamentOut:
    c = t.created
    assert c is not None
    tables = [TableOut(x.table, x.round, x.deal, list(x.seats), t.games.get(x.table),
                       t.results.get(x.table)) for x in t.tables]
    return TournamentOut(
        t.tournament_id, c.name, c.creator, c.format, t.status, c.ruleset, list(c.entrants),
        c.rated, c.public, c.deals, list(c.seed_hashes), list(t.revealed) if t.revealed else None,
        t.rounds_paired, tables, [list(t.byes.get(r, ())) for r in range(1, t.rounds_paired + 1)],
        standings(t), t.version, created_at, updated_at)
