"""A tournament's events (past tense), tagged like a game's so one decoder reads its log."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from cya_rules import RuleSet
from cya_rules.docs import doc
from service.tournaments.entrants import Entrant

Format = Literal["round_robin", "swiss", "duplicate"]


class Table(msgspec.Struct, frozen=True, gc=False):
    """One game of the tournament: its entrants by seat and the deal it is dealt."""

    table: Annotated[int, doc("The table's number, 0-based, in the order tables were paired.")]
    round: Annotated[int, doc("The round it belongs to, 1-based.")]
    deal: Annotated[int, doc("The index of the committed seed its game is dealt from.")]
    seats: Annotated[tuple[int, ...], doc("The entrant (index) in each seat.")]


class TableResult(msgspec.Struct, frozen=True, gc=False):
    """A table's game as it ended: copied from the game's log."""

    totals: Annotated[tuple[int, ...], doc("Each seat's total at the end.")]
    winners: Annotated[tuple[int, ...], doc("The winning seats; empty when abandoned.")]
    abandoned: Annotated[bool, doc("The game ended abandoned: nobody scores.")] = False


class _TournamentEvent(msgspec.Struct, frozen=True, gc=False, tag_field="type"):
    SCHEMA_VERSION: ClassVar[int] = 1


class TournamentCreated(_TournamentEvent, frozen=True, tag="tournament_created"):
    """The tournament, its entrants and rules, and the SHA-256 of every seed its games will
    be dealt from: fixed before any card is seen, revealed when it ends."""

    name: str
    creator: str
    format: Format
    ruleset: RuleSet
    entrants: tuple[Entrant, ...]
    rated: bool
    public: bool
    deals: int  # duplicate: deals; swiss: rounds; round robin: tables
    seed_hashes: tuple[str, ...]


class SeedsDrawn(_TournamentEvent, frozen=True, tag="seeds_drawn"):
    """The secret seeds behind `seed_hashes` (server-only until `tournament_finished`)."""

    seeds: tuple[str, ...]  # hex


class RoundPaired(_TournamentEvent, frozen=True, tag="round_paired"):
    """A round's tables (Swiss pairs each round on the standings of the rounds before; the
    other formats pair every table at creation). `byes`: entrants who sit this round out."""

    round: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()


class TableOpened(_TournamentEvent, frozen=True, tag="table_opened"):
    """A table's game was created and dealt from its seed."""

    table: int
    game_id: str


class TableFinished(_TournamentEvent, frozen=True, tag="table_finished"):
    """A table's game ended; its result as the game's log has it."""

    table: int
    game_id: str
    result: TableResult


class TournamentFinished(_TournamentEvent, frozen=True, tag="tournament_finished"):
    """Every table has finished: the seeds are revealed."""

    seeds: tuple[str, ...]  # hex


TournamentEvent = (TournamentCreated | SeedsDrawn | RoundPaired | TableOpened | TableFinished
                   | TournamentFinished)

SERVER_ONLY = (SeedsDrawn,)


def visibility_of(event: TournamentEvent) -> str:
    return "server" if isinstance(event, SERVER_ONLY) else "public"
