"""The pure tournament core: pairing for duplicate, round robin and Swiss, and the decider's
flow from creation to the revealed seeds."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from cya_rules import EndMode, RuleSet
from service.tournaments.decide import (
    CreateTournament,
    OpenTable,
    RecordResult,
    SpecError,
    TournamentConflict,
    decide,
    seeds_needed,
)
from service.tournaments.entrants import BotEntrant, PlayerEntrant
from service.tournaments.events import TableResult
from service.tournaments.pairing import duplicate_tables, round_robin_tables, swiss_round
from service.tournaments.standings import seat_points, standings
from service.tournaments.state import Tournament, fold

SEEDS = [hashlib.sha256(bytes([i])).digest() for i in range(64)]


def _created(fmt: str, n: int, players: int = 4, **kw: object) -> Tournament:
    entrants = tuple(BotEntrant("greedy" if i % 2 else "random") for i in range(n))
    deals, rounds = int(kw.get("deals", 1)), kw.get("rounds")  # type: ignore[call-overload]
    needed = seeds_needed(fmt, n, players, deals, rounds)  # type: ignore[arg-type]
    command = CreateTournament("t", "alice", fmt, RuleSet(players, end_mode=EndMode.QUICK),  # type: ignore[arg-type]
                               entrants, tuple(SEEDS[:needed]), deals=deals,
                               rounds=rounds)  # type: ignore[arg-type]
    return fold(Tournament("t1"), decide(Tournament("t1"), command))


def _play(t: Tournament, table: int, totals: tuple[int, ...], winners: tuple[int, ...]
          ) -> Tournament:
    t = fold(t, decide(t, OpenTable(table, f"g{table}")))
    return fold(t, decide(t, RecordResult(table, f"g{table}", TableResult(totals, winners))))


def test_given_duplicate_play_every_entrant_plays_every_seat_of_every_deal_once() -> None:
    tables = duplicate_tables(16, 4, SEEDS[:3])
    assert len(tables) == 3 * 16
    for deal in range(3):
        seats = Counter((e, s) for t in tables if t.deal == deal for s, e in enumerate(t.seats))
        assert set(seats.values()) == {1} and len(seats) == 16 * 4


def test_given_duplicate_play_each_deal_groups_the_entrants_afresh_from_its_seed() -> None:
    tables = duplicate_tables(16, 4, SEEDS[:2])
    groups = [{frozenset(t.seats) for t in tables if t.deal == d} for d in range(2)]
    assert groups[0] != groups[1]
    assert duplicate_tables(16, 4, SEEDS[:2]) == tables  # the seeds fix them


def test_given_a_round_robin_every_pair_meets() -> None:
    tables = round_robin_tables(6, 3)
    assert len(tables) == 20
    pairs = {frozenset((a, b)) for t in tables for a in t.seats for b in t.seats if a != b}
    assert len(pairs) == 15


def test_given_swiss_round_one_pairs_the_entrants_in_order() -> None:
    tables, byes = swiss_round(1, list(range(8)), 2, {}, set(), 0, 0)
    assert [set(t.seats) for t in tables] == [{0, 1}, {2, 3}, {4, 5}, {6, 7}] and byes == ()


def test_given_swiss_later_rounds_pair_the_leaders_and_avoid_a_rematch() -> None:
    met = {0: {1}, 1: {0}, 2: {3}, 3: {2}}
    tables, _ = swiss_round(2, [0, 2, 1, 3], 2, met, set(), 2, 2)
    assert [set(t.seats) for t in tables] == [{0, 2}, {1, 3}]
    assert [t.table for t in tables] == [2, 3]


def test_given_swiss_the_search_backtracks_rather_than_strand_a_rematch_at_the_bottom() -> None:
    # Greedy from the top would pair 0-1 and leave 2-3, who have met.
    met = {0: {2}, 2: {0, 3}, 3: {2}}
    tables, _ = swiss_round(2, [0, 1, 2, 3], 2, met, set(), 0, 0)
    groups = [set(t.seats) for t in tables]
    assert {2, 3} not in groups and {0, 2} not in groups


def test_given_an_odd_field_the_lowest_ranked_without_a_bye_sits_out() -> None:
    _, byes = swiss_round(2, [0, 1, 2, 3, 4], 2, {}, {4}, 0, 0)
    assert byes == (3,)


def test_given_no_layout_without_repeats_swiss_takes_the_fewest() -> None:
    everyone = {e: {o for o in range(4) if o != e} for e in range(4)}
    tables, _ = swiss_round(4, [0, 1, 2, 3], 2, everyone, set(), 0, 0)
    assert sorted(e for t in tables for e in t.seats) == [0, 1, 2, 3]


def test_a_game_gives_points_by_place_winners_first_ties_halved() -> None:
    assert seat_points(TableResult((5, 3), (0,))) == [1.0, 0.0]
    assert seat_points(TableResult((4, 4), (0, 1))) == [0.5, 0.5]
    assert seat_points(TableResult((9, 1, 5, 5), (0,))) == [1.0, 0.0, 0.5, 0.5]
    assert seat_points(TableResult((9, 1), (), abandoned=True)) == [0.0, 0.0]


def test_given_a_swiss_tournament_each_round_is_paired_when_the_last_ends() -> None:
    t = _created("swiss", 4, players=2, rounds=2)
    assert [x.table for x in t.ready_tables()] == [0, 1]
    t = _play(t, 0, (5, 1), (0,))
    assert t.rounds_paired == 1
    t = _play(t, 1, (5, 1), (0,))
    assert t.rounds_paired == 2
    first, second = t.tables[2], t.tables[3]
    assert {t.tables[0].seats[0], t.tables[1].seats[0]} == set(first.seats)  # winners meet
    t = _play(_play(t, 2, (1, 2), (1,)), 3, (1, 2), (1,))
    assert t.status == "finished" and t.revealed == t.seeds and second.deal == 3


def test_given_duplicate_standings_compare_each_entrant_with_the_field() -> None:
    t = _created("duplicate", 4, players=2)  # one deal, 2 groups x 2 rotations
    for table in t.tables:
        t = _play(t, table.table, (10, 0) if table.seats[0] == 0 else (4, 6),
                  (0,) if table.seats[0] == 0 else (1,))
    rows = standings(t)
    assert t.status == "finished"
    assert rows[0].entrant == 0 and rows[0].vs_field is not None and rows[0].vs_field > 0
    assert sum(r.vs_field or 0 for r in rows) == pytest.approx(0)


def test_a_table_opens_once_and_a_result_needs_its_game() -> None:
    t = _created("duplicate", 4, players=2)
    t = fold(t, decide(t, OpenTable(0, "g0")))
    with pytest.raises(TournamentConflict):
        decide(t, OpenTable(0, "g0"))
    with pytest.raises(TournamentConflict):
        decide(t, RecordResult(0, "other", TableResult((1, 0), (0,))))


def test_a_player_sits_at_one_table_at_a_time_a_bot_at_many() -> None:
    entrants = (PlayerEntrant("p1"), BotEntrant("random"), BotEntrant("greedy"),
                PlayerEntrant("p2"))
    command = CreateTournament("t", "alice", "duplicate", RuleSet(2), entrants, (SEEDS[0],))
    t = fold(Tournament("t"), decide(Tournament("t"), command))
    ready = t.ready_tables()
    humans_at = Counter(e for x in ready for e in x.seats if e in (0, 3))
    assert set(humans_at.values()) == {1}


@pytest.mark.parametrize(("fmt", "n", "players", "key"), [
    ("duplicate", 6, 4, "entrants"), ("swiss", 8, 2, "rounds"), ("round_robin", 1, 2, "entrants"),
])
def test_a_tournament_that_cannot_be_paired_is_refused_naming_the_field(
        fmt: str, n: int, players: int, key: str) -> None:
    with pytest.raises(SpecError) as refused:
        seeds_needed(fmt, n, players, 1, 99 if fmt == "swiss" else None)  # type: ignore[arg-type]
    assert refused.value.key == key


def test_the_seeds_are_committed_at_creation_and_revealed_at_the_end() -> None:
    t = _created("duplicate", 4, players=2)
    assert t.created is not None
    assert t.created.seed_hashes == (hashlib.sha256(SEEDS[0]).hexdigest(),)
    for table in t.tables:
        t = _play(t, table.table, (1, 0), (0,))
    assert t.revealed == (SEEDS[0].hex(),) and t.status == "finished"
