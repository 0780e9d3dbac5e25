"""Read models: written in the command's transaction, equal to a rebuild from the log."""

from __future__ import annotations

import asyncio

import msgspec
import sqlalchemy as sa

from cya_rules import GameView, player_view, spectator_view
from cya_rules.events import CardsDrawn, GameStarted, RoundStarted
from cya_rules.table.seats import BotSeat, HumanSeat, TimeoutPolicy
from service.events.tables import HANDS, SPECTATOR, due_work, game_views, games
from service.projections.rebuild import rebuild
from service.projections.rows import seat_view_json
from service.scheduling.decision_job import take_due_decision
from service.table.clock import DEADLINE
from service.table.lobby_commands import CreateGame, Start, TakeSeat

from .scenarios import QUICK4, clock_runs_out, next_move, play, started_game


async def _rows(services, table: sa.Table) -> list[tuple]:
    pk = list(table.primary_key.columns)
    async with services.store.read() as conn:
        return [tuple(r) for r in (await conn.execute(sa.select(table).order_by(*pk))).all()]


async def _snapshot(services) -> dict[str, list[tuple]]:
    return {t.name: await _rows(services, t) for t in (games, game_views, due_work)}


async def test_given_games_in_every_stage_when_rebuilt_then_rows_equal_the_live_ones(services):
    p = services.pipeline
    await p.create_game(CreateGame(QUICK4, seats=(HumanSeat("p0"),)), "p0")  # in the lobby
    await started_game(p, clock=30, humans=2)  # waiting for a human under a clock
    playing = await started_game(p)
    await play(p, playing, 25)
    finished = await started_game(p)
    await play(p, finished, 10_000)
    live = await _snapshot(services)

    stats = await rebuild(services.store)

    assert stats.games == 4
    assert await _snapshot(services) == live
    assert len(live["games"]) == 4 and len(live["game_views"]) == 4 * 2


async def test_given_a_rebuild_then_the_rows_it_replaced_are_reclaimed(services):
    # Every index entry of a replaced row leads to a dead row until a vacuum: a rebuild
    # leaves none behind, even where autovacuum is off (as on the test machines).
    p = services.pipeline
    finished = await started_game(p)
    await play(p, finished, 10_000)
    await started_game(p)
    if services.store.dialect == "sqlite":
        await rebuild(services.store)
        async with services.store.read() as conn:  # ANALYZE's statistics
            analyzed = set((await conn.execute(sa.text("SELECT tbl FROM sqlite_stat1"))).scalars())
        assert {"games", "game_views"} <= analyzed
        return

    await rebuild(services.store)

    async with services.store.read() as conn:
        rows = (await conn.execute(sa.text(
            "SELECT relname, n_dead_tup, last_vacuum IS NOT NULL FROM pg_stat_user_tables "
            "WHERE relname IN ('games', 'game_views')"))).all()
    assert sorted(rows) == [("game_views", 0, True), ("games", 0, True)]


async def test_given_commands_of_many_games_written_together_then_rows_equal_a_rebuild(
    services,
):
    # On PostgreSQL these commands share group writes: each group updates several games'
    # rows and drops several due rows (a human's turn without a clock owes no work) at once.
    p = services.pipeline
    games = [await started_game(p, humans=1) for _ in range(8)]
    for n in range(20):
        live = [g for g in games if (await p.load(g)).status == "playing"]
        moves = [await next_move(p, g, seed=n) for g in live]
        await asyncio.gather(*(p.play(g, seat, command, expected_version=version)
                               for g, (version, seat, command) in zip(live, moves, strict=True)))
    live_rows = await _snapshot(services)
    await rebuild(services.store)
    assert await _snapshot(services) == live_rows


async def test_given_a_seat_handed_to_a_bot_mid_game_then_its_row_follows_and_equals_a_rebuild(
    services,
):
    # Most commands rewrite only the progress columns of the games row; one that changes the
    # lobby (here: a timed-out seat handed to its bot) must rewrite the seats too.
    p = services.pipeline
    created = await p.create_game(CreateGame(
        QUICK4, seats=(HumanSeat("p0"),) + (BotSeat("random"),) * 3, turn_clock=30,
        timeout_policy=TimeoutPolicy("random", hand_over_after=1)), "p0")
    game_id = created.game_id
    await p.lobby(game_id, Start(), "p0")
    while (game := await p.load(game_id)).state.pending_seats()[0] != 0:
        await play(p, game_id, 1)
    assert await take_due_decision(p, game_id, game.version, DEADLINE, 0,
                                   now=clock_runs_out(game)) == "acted"
    await play(p, game_id, 8)

    async with services.store.read() as conn:
        seats, version = (await conn.execute(sa.select(games.c.seats, games.c.version).where(
            games.c.game_id == game_id))).one()
    assert msgspec.json.decode(seats)[0] == {"kind": "bot", "level": "random"}
    assert version == (await p.load(game_id)).version
    live = await _snapshot(services)
    await rebuild(services.store)
    assert await _snapshot(services) == live


async def test_given_a_human_under_a_clock_then_the_row_shows_the_deadline_and_due_work(services):
    p = services.pipeline
    game_id = await started_game(p, clock=30, humans=4)
    game = await p.load(game_id)
    seat = game.state.pending_seats()[0]

    async with services.store.read() as conn:
        row = (await conn.execute(sa.select(games).where(games.c.game_id == game_id))).one()
        due = (await conn.execute(sa.select(due_work))).one()

    assert row.status == "playing" and row.version == game.version
    assert msgspec.json.decode(row.pending_seats) == [seat]
    assert due.kind == "deadline" and due.seat == seat and due.version == game.version
    assert (row.deadline - row.updated_at).total_seconds() == 30


async def test_given_a_bot_to_decide_then_its_turn_is_due_now(services):
    game_id = await started_game(services.pipeline)
    async with services.store.read() as conn:
        due = (await conn.execute(sa.select(due_work))).one()
        row = (await conn.execute(sa.select(games.c.updated_at))).one()
    assert due.game_id == game_id and due.kind == "bot_turn" and due.due_at == row.updated_at


async def test_each_seats_view_is_its_row_spliced_into_the_spectators(services):
    p = services.pipeline
    game_id = await started_game(p)
    await play(p, game_id, 7)
    state = (await p.load(game_id)).state

    rows = dict((v, (ver, view)) for _, v, ver, view in await _rows(services, game_views))

    spectator_json = rows[SPECTATOR][1].encode()
    assert set(rows) == {HANDS, SPECTATOR} and rows[HANDS][0] == rows[SPECTATOR][0]
    for seat in range(4):
        assert seat_view_json(rows[HANDS][1].encode(), seat, spectator_json) == (
            msgspec.json.encode(player_view(state, seat)))
    spectator = msgspec.json.decode(spectator_json, type=GameView)
    assert spectator == spectator_view(state) and spectator.hand is None


async def test_given_a_viewer_then_the_log_hides_every_card_it_may_not_see(services):
    p = services.pipeline
    game_id = await started_game(p)
    await play(p, game_id, 60)

    for viewer in (0, 1, 2, 3, None):
        seen = await services.store.read_for_viewer(game_id, viewer)
        for _, ev in seen:
            if isinstance(ev, GameStarted):
                assert ev.seed is None
            if isinstance(ev, RoundStarted):
                assert ev.draw_pile is None and ev.draft_piles is None
                assert all(h == () for i, h in enumerate(ev.hands) if i != viewer)
                if viewer is not None:
                    assert len(ev.hands[viewer]) == ev.hand_size
            if isinstance(ev, CardsDrawn):
                assert (ev.cards is not None) == (ev.seat == viewer)
    full = [s.event for s in await services.store.read_events(game_id)]
    assert any(isinstance(e, RoundStarted) and e.draw_pile for e in full)


async def test_after_commit_subscribers_hear_the_new_version_with_its_events(services):
    p = services.pipeline
    created = await p.create_game(CreateGame(QUICK4, seats=(BotSeat(),)), "p0")
    updates = services.publisher.subscribe(created.game_id)
    first = asyncio.ensure_future(anext(updates))
    await asyncio.sleep(0.05)  # let the subscription register

    outcome = await p.lobby(created.game_id, TakeSeat(), "p1")

    published = await asyncio.wait_for(first, 5)
    assert published.version == outcome.version
    assert published.events == tuple(
        await services.store.read_events(created.game_id, after=created.version))
    await updates.aclose()
