"""`verify(tournament)`: that its log's hash chain holds; that every seed it revealed is the one
it committed to before any table was dealt; that its tables are the ones the seeds and its
format give; that every table of a deal was dealt the same cards, from that deal's seed; and
every game's own verify (`service.audit.verify`).
"""

from __future__ import annotations

import hashlib
from typing import Annotated

import msgspec

from cya_rules.docs import doc
from cya_rules.events import RoundEnded, RoundStarted
from cya_rules.log.chain import GENESIS_HASH, event_hash
from cya_rules.shuffle import round_seed
from service.audit.verify import verify as verify_game
from service.events.event_store import EventStore
from service.tournaments.events import TournamentCreated, visibility_of
from service.tournaments.pairing import duplicate_tables, round_robin_tables
from service.tournaments.runner.log import decode, load, read_rows
from service.tournaments.state import Tournament

_encode = msgspec.json.Encoder().encode


class TournamentVerifyReport(msgspec.Struct, frozen=True):
    """What `GET /v1/tournaments/{id}/verify` answers."""

    tournament_id: Annotated[str, doc("The tournament's id.")]
    ok: Annotated[bool, doc("True when every check passed.")]
    events: Annotated[int, doc("Events in the tournament's own log.")]
    seeds_verified: Annotated[int, doc(
        "Revealed seeds whose SHA-256 is the hash published at creation.")]
    games_verified: Annotated[int, doc(
        "Tables whose game passed its own verify and was dealt from its deal's seed.")]
    deals_identical: Annotated[int, doc(
        "Deals whose tables were all dealt the same cards (the first round's deal, compared "
        "event for event).")]
    reason: Annotated[str | None, doc("What is wrong, for people; null when `ok` is true.")]


async def verify(store: EventStore, tournament_id: str) -> TournamentVerifyReport:
    """The tournament must have finished (its seeds revealed): `load` raises
    `TournamentNotFound` for an unknown one."""
    t, _ = await load(store, tournament_id)
    rows = await read_rows(store, tournament_id)
    seeds = games = deals = 0

    def bad(reason: str) -> TournamentVerifyReport:
        return TournamentVerifyReport(tournament_id, False, len(rows), seeds, games, deals,
                                      reason)

    prev = GENESIS_HASH
    for expected, r in enumerate(rows, start=1):
        h = event_hash(prev, tournament_id, r.version, r.type, r.schema_version, r.visibility,
                       None, r.actor, r.data)
        if r.version != expected or h != r.hash:
            return bad(f"the hash chain breaks at version {r.version}")
        prev, event = h, decode(r)
        if r.visibility != visibility_of(event):
            return bad(f"version {r.version} is stored with the wrong visibility")
        if (expected == 1) != isinstance(event, TournamentCreated):
            return bad("the log does not begin with tournament_created")
    c = t.created
    assert c is not None
    if not t.revealed:
        return bad("the tournament has not finished: its seeds are not revealed yet")
    for committed, revealed in zip(c.seed_hashes, t.revealed, strict=True):
        if hashlib.sha256(bytes.fromhex(revealed)).hexdigest() != committed:
            return bad(f"seed {seeds} is not the one committed to at creation")
        seeds += 1
    expected_tables = _tables_for(t)
    if expected_tables is not None and expected_tables != [
            (x.deal, x.seats) for x in t.tables]:
        return bad("the tables are not the ones its format and seeds give")
    first_deals: dict[int, bytes] = {}
    for table in t.tables:
        game_id = t.games.get(table.table)
        if game_id is None:
            return bad(f"table {table.table} never opened")
        stored = await store.read_events(game_id, 0, 1)
        if not stored or stored[0].recorded_at < rows[0].recorded_at:
            return bad(f"table {table.table}'s game was created before the seeds were "
                       "committed")
        report = await verify_game(store, game_id)
        if not report.ok:
            return bad(f"table {table.table}'s game {game_id}: {report.reason}")
        seed = bytes.fromhex(t.revealed[table.deal])
        dealt = await _dealt(store, game_id, seed)
        if dealt is None:
            return bad(f"table {table.table}'s game was not dealt from its deal's seed")
        if first_deals.setdefault(table.deal, dealt) != dealt:
            return bad(f"table {table.table} was dealt other cards than deal {table.deal}'s "
                       "first table")
        games += 1
    deals = len(first_deals)
    return TournamentVerifyReport(tournament_id, True, len(rows), seeds, games, deals, None)


def _tables_for(t: Tournament) -> list[tuple[int, tuple[int, ...]]] | None:
    """The tables the format gives from the revealed seeds (Swiss pairs on results: None)."""
    c = t.created
    assert c is not None
    n, players = len(c.entrants), c.ruleset.players
    if c.format == "duplicate":
        tables = duplicate_tables(n, players, [bytes.fromhex(s) for s in t.revealed])
    elif c.format == "round_robin":
        tables = round_robin_tables(n, players)
    else:
        return None
    return [(x.deal, x.seats) for x in tables]


async def _dealt(store: EventStore, game_id: str, seed: bytes) -> bytes | None:
    """The game's first deal (its round_started, as stored in full), if every round it
    revealed was seeded from `seed`; None if one was not."""
    first: bytes | None = None
    for s in await store.read_events(game_id):
        if isinstance(s.event, RoundStarted) and s.event.round_no == 1:
            first = _encode(s.event)
            if s.event.seed_sha256 != hashlib.sha256(round_seed(seed, 1)).hexdigest():
                return None
        if isinstance(s.event, RoundEnded) and s.event.seed != round_seed(seed,
                                                                          s.event.round_no):
            return None
    return first
