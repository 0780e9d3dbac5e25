"""The runner: creates a tournament (its seeds drawn here, the one impure step), opens its
tables as ordinary games through the game pipeline, and feeds each game's end back to the
tournament's decider. Every step is idempotent, so any number of wake-ups, on any worker, in
any order, come to the same log: a table's game has an id derived from (tournament, table),
its deal a command id of its own, and a lost race on the log is decided again.
"""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import cast

from cya_rules import RuleSet, RuleViolation
from cya_rules.table.seats import BotLevel, BotSeat, HumanSeat, SeatHolder
from service.pipeline import Pipeline
from service.table.game import Game
from service.table.lobby_commands import CreateGame, Start
from service.tournaments.decide import (
    CreateTournament,
    OpenTable,
    RecordResult,
    decide,
    seeds_needed,
)
from service.tournaments.entrants import Entrant, PlayerEntrant
from service.tournaments.events import Format, Table, TableResult, TournamentEvent
from service.tournaments.runner.log import LogConflict, append, load
from service.tournaments.state import Tournament, fold

log = logging.getLogger(__name__)
RETRIES = 20


def seat_holder_for(entrant: Entrant) -> SeatHolder:
    """The seat an entrant takes. A webhook bot is a player: a human seat, which its
    endpoint plays (the webhooks package)."""
    if isinstance(entrant, PlayerEntrant):
        return HumanSeat(entrant.player_id)
    return BotSeat(cast(BotLevel, entrant.level))


def result_of(game: Game) -> TableResult | None:
    """A table's result once its game is over (finished, or ended without a result)."""
    if game.state is None or game.status in ("lobby", "playing"):
        return None
    if game.status != "finished":
        return TableResult(game.state.totals, (), abandoned=True)
    return TableResult(game.state.totals, game.state.winners)


class TournamentRunner:
    def __init__(self, pipeline: Pipeline, wake: Callable[[str], Awaitable[None]]) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.wake = wake  # `drivers`: run `advance` soon, on a worker or in this process

    async def create(self, name: str, creator: str, format: Format, ruleset: RuleSet,
                     entrants: tuple[Entrant, ...], *, deals: int = 1, rounds: int | None = None,
                     rated: bool = False, public: bool = True,
                     tournament_id: str | None = None) -> Tournament:
        """Raises `SpecError` for a tournament that cannot be paired. `tournament_id`: from
        the creator's idempotency key; a tournament that already has it is answered as it
        stands (a retried creation creates nothing)."""
        needed = seeds_needed(format, len(entrants), ruleset.players, deals, rounds)
        seeds = tuple(secrets.token_bytes(32) for _ in range(needed))
        t = Tournament(tournament_id or uuid.uuid4().hex)
        command = CreateTournament(name, creator, format, ruleset, entrants, seeds, rated,
                                   public, deals, rounds)
        try:
            t = await append(self.store, t, decide(t, command), None, f"player:{creator}")
        except LogConflict:
            return (await load(self.store, t.tournament_id))[0]
        await self.wake(t.tournament_id)
        return t

    async def advance(self, tournament_id: str) -> Tournament:
        """Record the games that ended, then open the tables that may open."""
        for _ in range(RETRIES):
            t, created_at = await load(self.store, tournament_id)
            try:
                t = await self._record_results(t, created_at)
                return await self._open_tables(t, created_at)
            except LogConflict:
                continue  # another worker advanced it meanwhile: again, on its log
        log.warning("tournament %s: lost %d races in a row; a sweep will go on", tournament_id,
                    RETRIES)
        return t

    async def _record_results(self, t: Tournament, created_at: datetime) -> Tournament:
        events: list[TournamentEvent] = []
        after = t
        for table, game_id in sorted(t.games.items()):
            if table in t.results:
                continue
            result = result_of(await self.pipeline.load(game_id, fresh=True))
            if result is not None:
                new = decide(after, RecordResult(table, game_id, result))
                after, events = fold(after, new), events + new
        return await append(self.store, t, events, created_at) if events else t

    async def _open_tables(self, t: Tournament, created_at: datetime) -> Tournament:
        events: list[TournamentEvent] = []
        after = t
        for table in t.ready_tables():
            new = decide(after, OpenTable(table.table, await self._deal(t, table)))
            after, events = fold(after, new), events + new
        return await append(self.store, t, events, created_at) if events else t

    async def _deal(self, t: Tournament, table: Table) -> str:
        """The table's game, created and dealt from its committed seed; the same game and deal
        however often this runs (the ids of both commands derive from the table)."""
        c = t.created
        assert c is not None
        seats = tuple(seat_holder_for(c.entrants[e]) for e in table.seats)
        command = CreateGame(c.ruleset, seats, None, public=c.public, rated=c.rated)
        key = f"tournament:{t.tournament_id}:table:{table.table}"
        created = await self.pipeline.create_game(command, c.creator, key,
                                                  master_seed=bytes.fromhex(t.seeds[table.deal]))
        try:
            await self.pipeline.lobby(created.game_id, Start(), c.creator, f"{key}:deal")
        except RuleViolation as exc:  # dealt by an earlier run whose log append lost
            log.info("tournament %s table %d: %r", t.tournament_id, table.table, exc)
        return created.game_id
