"""The event log's contract, on every backend: append and read, conflicts, idempotency, races."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from cya_rules import RuleViolation
from cya_rules.commands import EndTurn
from cya_rules.table.lobby import GameCreated, SeatTaken
from cya_rules.table.seats import HumanSeat
from service.audit.verify import verify
from service.events.group_commit import _PG_COMMIT
from service.events.hot_reads import HotReads, compiled
from service.events.records import (
    AppendRejected,
    GameNotFound,
    IdempotencyKeyReused,
    VersionConflict,
)
from service.events.tables import events, games
from service.pipeline import Pipeline
from service.pipeline.deciders import seat_command
from service.pipeline.state_cache import StateCache
from service.table.clock import deadline
from service.table.lobby_commands import AddBot, CreateGame, TakeSeat
from service.wiring.bootstrap import build
from service.wiring.settings import Settings

from .scenarios import QUICK4, next_move, play, started_game


async def test_given_commands_when_reading_the_log_then_versions_run_1_to_n_in_order(services):
    p = services.pipeline
    game_id = await started_game(p)
    last = await play(p, game_id, 20)

    log = await services.store.read_events(game_id)

    assert [s.version for s in log] == list(range(1, last.version + 1))
    assert isinstance(log[0].event, GameCreated)
    assert log[1].type == "game_started" and log[1].visibility == "server"
    assert [s.event for s in log[-len(last.events):]] == [s.event for s in last.events]
    assert (await verify(services.store, game_id)).ok


async def test_given_no_such_game_when_loading_then_game_not_found(services):
    with pytest.raises(GameNotFound):
        await services.pipeline.load("nope")


async def test_given_a_stale_expected_version_then_conflict_carries_the_current(services):
    p = services.pipeline
    game_id = await started_game(p)
    version, seat, command = await next_move(p, game_id)
    await p.play(game_id, seat, command, expected_version=version)

    _, seat2, command2 = await next_move(p, game_id)
    with pytest.raises(VersionConflict) as err:
        await p.play(game_id, seat2, command2, expected_version=version)

    assert err.value.current > version
    assert len(await services.store.read_events(game_id)) == err.value.current


async def test_given_another_process_wrote_when_no_expected_version_then_retried_on_fresh_state(
    services, other_process
):
    p, q = services.pipeline, other_process.pipeline
    game_id = await started_game(p)
    await q.load(game_id)  # q caches this version
    await play(p, game_id, 3)  # p moves the game on

    version, seat, command = await next_move(p, game_id)
    outcome = await q.play(game_id, seat, command)

    assert outcome.events[0].version == version + 1


async def test_given_a_race_lost_on_every_retry_then_the_conflict_names_the_version_now(
    services,
):
    p = services.pipeline
    q = Pipeline(services.store, cache=StateCache(), conflict_retries=0)  # another process
    game_id = await started_game(p)
    version, seat, command = await next_move(q, game_id)
    q.cache.put(await q.load(game_id))  # q decides on this version and may not retry
    await play(p, game_id, 2)  # p moves the game on by more than one event

    with pytest.raises(VersionConflict) as err:
        await q.play(game_id, seat, command)

    assert err.value.expected == version
    assert err.value.current == len(await services.store.read_events(game_id)) > version + 1


async def test_given_another_process_moved_the_game_on_then_a_fresh_load_folds_only_the_rest(
    services, other_process, monkeypatch
):
    # A cached game is brought forward by the newer events, not folded again from the start.
    p, q = services.pipeline, other_process.pipeline
    game_id = await started_game(p)
    cached = await q.load(game_id)
    await play(p, game_id, 3)
    read_after: list[int] = []
    load = q.store.load

    async def spied(conn, game_id, after=0, upto=None):
        read_after.append(after)
        return await load(conn, game_id, after, upto)

    monkeypatch.setattr(q.store, "load", spied)
    # PostgreSQL: a catch-up reads on the hot-read pool, not through load
    hot = q.store._tail if q.store.dialect == "postgresql" else None
    if hot is not None:
        fetch = hot.fetch

        async def fetched(sql, game_id, after):
            read_after.append(after)
            return await fetch(sql, game_id, after)

        monkeypatch.setattr(hot, "fetch", fetched)
    caught_up = await q.load(game_id, fresh=True)
    folded_whole = await Pipeline(services.store).load(game_id)

    assert read_after == [cached.version if q.cache is not None else 0]
    assert caught_up == folded_whole and caught_up.version > cached.version
    assert await q.load(game_id) == folded_whole  # and cached at that version


async def test_given_other_writers_then_catching_up_first_decides_once_on_the_log_end(
    settings, services
):
    # An API process that shares the log (Redis configured) reads the events another process
    # added before deciding. Decided on its stale cache, the command would be refused there or
    # by its append (failing the whole group that write shared), and decided again.
    api = build(settings, catch_up_first=True)
    try:
        p, q = services.pipeline, api.pipeline
        game_id = await started_game(p)
        await q.load(game_id)  # q caches this version
        await play(p, game_id, 3)
        version, seat, command = await next_move(p, game_id)
        decided_on: list[int] = []

        def decide(game):
            decided_on.append(game.version)
            return seat_command(game, seat, command, None)

        outcome = await q.take(game_id, decide, b"a test command", f"seat:{seat}")

        assert decided_on == [version]
        assert outcome.version > version
        assert await q.load(game_id) == await Pipeline(services.store).load(game_id)
    finally:
        await api.close()


async def test_given_another_process_handed_my_seat_away_then_my_command_is_refused(
    services, other_process
):
    # q's cache still has p0 in the seat that p just resigned (handed to a bot): q's retry on
    # fresh state must see that, not act for the bot's seat.
    p, q = services.pipeline, other_process.pipeline
    game_id = await started_game(p, humans=4)
    game = await q.load(game_id)  # q caches this version
    seat = game.state.pending_seats()[0]
    player = game.lobby.seats[seat].player_id
    _, _, command = await next_move(p, game_id)
    await p.resign(game_id, player)

    with pytest.raises(RuleViolation) as refused:
        await q.play(game_id, seat, command, player_id=player)

    assert refused.value.code == "not_seated"
    assert (await q.load(game_id, fresh=True)).version == (await p.load(game_id)).version


async def test_given_a_repeated_command_id_then_the_first_outcome_and_nothing_appended(services):
    p = services.pipeline
    game_id = await started_game(p)
    _, seat, command = await next_move(p, game_id)
    first = await p.play(game_id, seat, command, command_id="key-1")

    again = await p.play(game_id, seat, command, command_id="key-1")
    await play(p, game_id, 5)
    later = await p.play(game_id, seat, command, command_id="key-1", expected_version=3)

    assert again.replayed and later.replayed and not first.replayed
    assert [e.hash for e in again.events] == [e.hash for e in first.events]
    assert [e.hash for e in later.events] == [e.hash for e in first.events]
    log = await services.store.read_events(game_id)
    assert [e.command_id for e in log].count("key-1") == 1


async def test_given_a_reused_key_with_another_body_then_an_error(services):
    p = services.pipeline
    game_id = await started_game(p)
    _, seat, command = await next_move(p, game_id)
    await p.play(game_id, seat, command, command_id="key-1")

    with pytest.raises(IdempotencyKeyReused):
        await p.play(game_id, seat, EndTurn(), command_id="key-1")


async def test_given_two_copies_of_one_command_racing_then_it_acts_once(services, other_process):
    game_id = await started_game(services.pipeline)
    _, seat, command = await next_move(services.pipeline, game_id)

    outcomes = await asyncio.gather(*(
        pipeline.play(game_id, seat, command, command_id="same")
        for pipeline in [services.pipeline, other_process.pipeline] * 3
    ))

    assert {o.version for o in outcomes} == {outcomes[0].version}
    assert sum(not o.replayed for o in outcomes) == 1
    log = await services.store.read_events(game_id)
    assert log[-1].version == outcomes[0].version
    assert [e.command_id for e in log].count("same") == 1


async def test_given_many_writers_on_one_game_then_one_wins_each_version_without_gaps(services):
    store = services.store
    created = await services.pipeline.create_game(CreateGame(QUICK4), "p0")
    game_id, writers, rounds = created.game_id, 12, 10
    wins: list[tuple[int, int]] = []

    async def writer(w: int) -> None:
        for _ in range(rounds):
            while True:
                async with store.read() as conn:
                    log = await store.load(conn, game_id)
                v, h = log[-1].version, log[-1].hash
                batch = store.prepare(game_id, v, h, [SeatTaken(w % 4, HumanSeat(f"w{w}"))],
                                      actor=f"writer:{w}")
                try:
                    async with store.write() as conn:
                        await store.append(conn, batch)
                except AppendRejected:  # UNIQUE (game_id, version): another writer was first
                    continue
                wins.append((v + 1, w))
                break

    await asyncio.gather(*(writer(w) for w in range(writers)))

    versions = sorted(v for v, _ in wins)
    assert versions == list(range(2, 2 + writers * rounds))  # every version won exactly once
    log = await store.read_events(game_id)
    assert [s.version for s in log] == list(range(1, 2 + writers * rounds))
    assert {(s.version, s.actor) for s in log[1:]} == {(v, f"writer:{w}") for v, w in wins}
    async with store.write() as conn:  # the games row, which the committer writes with a batch
        await conn.execute(sa.update(games).where(games.c.game_id == game_id)
                           .values(version=log[-1].version))
    assert (await verify(store, game_id)).ok  # and the chain is whole


async def test_given_players_racing_for_seats_then_each_gets_one_and_versions_are_dense(
    services, other_process
):
    created = await services.pipeline.create_game(
        CreateGame(QUICK4.__class__(players=6)), "host")
    game_id = created.game_id
    pipelines = [services.pipeline, other_process.pipeline]

    outcomes = await asyncio.gather(*(
        pipelines[i % 2].lobby(game_id, TakeSeat(), f"player{i}") for i in range(6)
    ))

    seats = sorted(o.events[0].event.seat for o in outcomes)
    assert seats == list(range(6))
    assert sorted(o.version for o in outcomes) == list(range(2, 8))
    with pytest.raises(RuleViolation) as err:
        await services.pipeline.lobby(game_id, AddBot(), "host")
    assert err.value.code == "game_full"


async def test_given_a_dry_run_then_nothing_is_appended(services):
    p = services.pipeline
    game_id = await started_game(p)
    version, seat, command = await next_move(p, game_id)

    outcome = await p.play(game_id, seat, command, dry_run=True)

    assert not outcome.committed and outcome.events
    assert (await p.load(game_id, fresh=True)).version == version


async def test_given_one_process_sending_rival_commands_to_one_game_then_exactly_one_wins(
    services,
):
    p = services.pipeline
    game_id = await started_game(p)
    version, seat, command = await next_move(p, game_id)

    results = await asyncio.gather(*(
        p.play(game_id, seat, command, command_id=f"rival-{i}", expected_version=version)
        for i in range(6)
    ), return_exceptions=True)

    winners = [r for r in results if not isinstance(r, BaseException)]
    assert len(winners) == 1
    assert all(isinstance(r, VersionConflict) for r in results if r not in winners)
    log = await services.store.read_events(game_id)
    assert log[-1].version == winners[0].version


async def test_given_a_command_cancelled_in_a_shared_write_then_the_others_still_commit(
    services, monkeypatch
):
    # On PostgreSQL the eighth pending command sends the group it completes; cancelling that
    # command must not cancel the write the other seven wait on.
    p = services.pipeline
    games = [await started_game(p) for _ in range(10)]
    moves = [await next_move(p, g) for g in games]
    cancelled_game = games[7]
    entered: list[str] = []
    tasks: dict[str, asyncio.Task] = {}
    commit = type(p.store).commit

    async def commit_then_cancel(self, batch, rows):
        entered.append(batch.game_id)
        if batch.game_id == cancelled_game:
            asyncio.get_running_loop().call_soon(tasks[cancelled_game].cancel)
        return await commit(self, batch, rows)

    monkeypatch.setattr(type(p.store), "commit", commit_then_cancel)
    for g, (version, seat, command) in zip(games, moves, strict=True):
        tasks[g] = asyncio.create_task(p.play(g, seat, command, expected_version=version))
    results = await asyncio.gather(*tasks.values(), return_exceptions=True)

    assert cancelled_game in entered
    assert isinstance(results[7], asyncio.CancelledError)
    others = [r for g, r in zip(games, results, strict=True) if g != cancelled_game]
    assert all(not isinstance(r, BaseException) for r in others), others
    for g, (version, _, _) in zip(games, moves, strict=True):
        current = (await services.store.read_events(g))[-1].version
        # The cancelled command's group was written all the same (SQLite has no groups).
        if g != cancelled_game or services.store.dialect != "sqlite":
            assert current > version


async def test_given_postgres_dropped_an_idle_writer_connection_then_the_next_command_commits(
    postgres_url,
):
    # A restart or an idle timeout closes the group writer's connection while it waits:
    # the next command must not fail on it (nothing was sent on it, so a new one is safe).
    services = build(Settings(database_url=postgres_url))
    try:
        p = services.pipeline
        game = await started_game(p, humans=4)
        before = await play(p, game, 1)
        (writer,) = p.store._committer._idle
        async with services.engine.connect() as conn:
            await conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"),
                               {"pid": writer.get_server_pid()})
        for _ in range(200):  # until the client has seen the connection close
            if writer.is_closed():
                break
            await asyncio.sleep(0.01)
        assert writer.is_closed()

        after = await play(p, game, 1)

        assert after.version > before.version
        assert (await p.load(game, fresh=True)).version == after.version
    finally:
        await services.close()


async def test_given_the_writer_planned_its_statement_on_small_tables_then_it_reads_only_by_key(
    postgres_url,
):
    # PostgreSQL keeps the plan it chose at the statement's sixth run, while these tables held
    # a game or two; a plan that scans a whole table there would scan it on every later write,
    # however many games it holds by then.
    services = build(Settings(database_url=postgres_url))
    try:
        p = services.pipeline
        await play(p, await started_game(p, humans=4), 12)
        (writer,) = p.store._committer._idle
        name = await writer.fetchval(
            "SELECT name FROM pg_prepared_statements WHERE statement = $1", _PG_COMMIT)
        empty = ", ".join(["'[]'"] * 11)  # the statement's eleven text parameters
        plan = "\n".join(r[0] for r in await writer.fetch(f"EXPLAIN EXECUTE {name}({empty})"))

        assert "Seq Scan" not in plan, plan
        assert "Index Scan on games_pkey" in plan, plan
    finally:
        await services.close()


async def test_given_more_concurrent_reads_than_the_pool_holds_then_no_connection_is_opened_past_it(
    postgres_url,
):
    # Overflow connections were opened for one read each and closed after it.
    services = build(Settings(database_url=postgres_url))
    opened = 0

    def count(*_: object) -> None:
        nonlocal opened
        opened += 1

    sa.event.listen(services.engine.sync_engine, "connect", count)
    try:
        game_id = await started_game(services.pipeline)

        async def read() -> None:
            for _ in range(3):
                await services.store.read_events(game_id)

        await asyncio.gather(*(read() for _ in range(60)))

        assert 0 < opened <= services.engine.pool.size()
    finally:
        await services.close()


async def test_given_hot_reads_then_each_is_one_statement_on_a_bounded_pool(postgres_url):
    # asyncpg's default pool reset ran RESET ALL and more after every read: a second round
    # trip. The last statement a pooled connection ran must be the read itself.
    services = build(Settings(database_url=postgres_url))
    dsn = services.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    reads = HotReads(dsn, max_size=3)
    try:
        game_id = await started_game(services.pipeline)
        sql = compiled(sa.select(events.c.version, sa.func.pg_backend_pid().label("pid"))
                       .where(events.c.game_id == sa.bindparam("game_id"))
                       .order_by(events.c.version))

        rows = await reads.fetch(sql, game_id)
        answers = await asyncio.gather(*(reads.fetch(sql, game_id) for _ in range(30)))

        assert [r.version for r in rows] == list(range(1, len(rows) + 1)) and rows
        backends = {r.pid for a in answers for r in a}
        assert 0 < len(backends) <= 3
        async with services.engine.connect() as conn:
            last = (await conn.execute(
                sa.text("SELECT pid, query FROM pg_stat_activity WHERE pid = ANY(:pids)"),
                {"pids": list(backends)})).all()
        assert {pid for pid, _ in last} == backends
        assert all(query.strip() == sql.strip() for _, query in last), last
    finally:
        await reads.close()
        await services.close()


@pytest.mark.parametrize(("trailing", "stagger", "groups", "most_at_once"), [
    (5, 0.005, [1, 5], 1),  # one by one, fewer than a full group: they share the next write
    (8, 0.0, [1, 8], 2),  # a full group at once: the second writer sends it without waiting
])
async def test_given_commands_arrive_during_a_write_then_they_share_the_next_statement(
    postgres_url, monkeypatch, trailing, stagger, groups, most_at_once
):
    # At light load a second writer would send each command alone: a statement and a commit
    # per command, where one writer shares them among those that arrive during its write.
    services = build(Settings(database_url=postgres_url))
    try:
        p = services.pipeline
        games = [await started_game(p) for _ in range(1 + trailing)]
        moves = [await next_move(p, g) for g in games]
        sizes: list[int] = []
        writing, most = 0, 0
        write = type(p.store._committer)._write

        async def slow_write(self, group):
            nonlocal writing, most
            sizes.append(len(group))
            writing += 1
            most = max(most, writing)
            try:
                await asyncio.sleep(0.5)  # the others arrive meanwhile
                await write(self, group)
            finally:
                writing -= 1

        monkeypatch.setattr(type(p.store._committer), "_write", slow_write)

        async def send(i: int):
            await asyncio.sleep(0.05 + stagger * i if i else 0.0)
            version, seat, command = moves[i]
            return await p.play(games[i], seat, command, expected_version=version)

        outcomes = await asyncio.gather(*(send(i) for i in range(len(games))))

        assert sizes == groups and most == most_at_once
        for g, (version, _, _), outcome in zip(games, moves, outcomes, strict=True):
            assert outcome.version > version
            assert (await services.store.read_events(g))[-1].version == outcome.version
    finally:
        await services.close()


async def test_given_a_clock_when_another_seat_resigns_then_the_deadline_stays(services):
    # The clock runs from the command that made the decision pending: another seat giving up
    # its seat moved every deadline on by as long as it took.
    p = services.pipeline
    game_id = await started_game(p, clock=60, humans=4)
    before = await p.load(game_id, fresh=True)
    waiting = before.pending_seat()
    assert waiting is not None
    resigner = (waiting[0] + 1) % 4
    await asyncio.sleep(0.05)

    await p.resign(game_id, f"p{resigner}")
    after = await p.load(game_id, fresh=True)
    refolded = await p.at_version(game_id, after.version)

    assert after.version == before.version + 1
    assert deadline(after) == deadline(refolded) == deadline(before) is not None
    assert after.updated_at is not None and before.updated_at is not None
    assert after.updated_at > before.updated_at
