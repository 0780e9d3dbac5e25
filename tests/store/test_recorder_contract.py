"""The event store's contract, aimed at the store itself: one abstract suite, run against every
backend through its `create_store()` hook (as eventsourcing's `tests/persistence.py` does).

The pipeline-level contract (`test_log_contract.py`) runs whole commands; this holds what the
pipeline relies on the store for: append with optimistic concurrency and idempotency, the
read models written in the same transaction, catch-up reads, hot reads and the seats query.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from cya_rules import preset
from cya_rules.log.chain import GENESIS_HASH, event_hash
from cya_rules.table.lobby import SeatTaken
from cya_rules.table.seats import BotSeat, HumanSeat
from service.events.backends import open_store
from service.events.event_store import EventStore
from service.events.hot_reads import HotRead
from service.events.records import AppendRejected, Batch, ReadModelRows
from service.events.tables import due_work, game_views, games
from service.projections.rows import read_model_rows
from service.table.clock import DueWork
from service.table.game import Game, advance, apply
from service.table.lobby_commands import CreateGame, create
from tests.postgres import database, url_of

from .conftest import Backend

RULES = preset("classic", 4)
T0 = datetime(2026, 1, 1, tzinfo=UTC)
_VERSION = HotRead(sa.select(games.c.version).where(games.c.game_id == sa.bindparam("game_id")))


def _created(creator: str = "host") -> list:
    """A lobby's first event: the creator in seat 0, a bot in seat 1, two open seats."""
    return [create(CreateGame(RULES, seats=(HumanSeat(creator), BotSeat("greedy"))), creator,
                   bytes(32))]


def _batch(store: EventStore, game: Game, events: list, *, command_id: str | None = None,
           at: datetime = T0) -> tuple[Batch, Game]:
    """The events as the next versions of `game`, and the game after them."""
    batch = store.prepare(game.game_id, game.version, game.last_hash, events,
                          command_id=command_id, body_sha256="sha", actor="test", recorded_at=at)
    after = game
    for event in events:
        after = apply(after, event)
    last = batch.stored[-1]
    return batch, advance(after, last.version, last.hash, at)


class RecorderContract:
    """Every backend's store passes these."""

    def create_store(self) -> EventStore:
        raise NotImplementedError

    @pytest.fixture
    async def store(self) -> AsyncIterator[EventStore]:
        store = self.create_store()
        try:
            yield store
        finally:
            await store.close()
            await store.engine.dispose()

    async def _commit_new(self, store: EventStore, game_id: str = "g1",
                          creator: str = "host") -> Game:
        batch, after = _batch(store, Game(game_id), _created(creator),
                              command_id="create")
        await store.commit(batch, read_model_rows(after, lobby_changed=True))
        return after

    async def test_a_commit_appends_the_events_in_order_on_the_hash_chain(self, store):
        game = await self._commit_new(store)
        seated = SeatTaken(2, HumanSeat("alice"))
        batch, after = _batch(store, game, [seated], at=T0 + timedelta(seconds=1))
        await store.commit(batch, read_model_rows(after, lobby_changed=True))

        stored = await store.read_events("g1")
        rows = await store.read_as_stored("g1")
        assert [s.version for s in stored] == [1, 2]
        assert stored[1].event == seated and stored[1].recorded_at == T0 + timedelta(seconds=1)
        prev = GENESIS_HASH
        for r in rows:  # the stored bytes carry the chain
            prev = event_hash(prev, "g1", r.version, r.type, r.schema_version, r.visibility,
                              r.command_id, r.actor, r.data)
            assert prev == r.hash
        async with store.read() as conn:
            assert await store.current_version(conn, "g1") == 2

    async def test_a_second_writer_at_the_same_version_is_refused_and_writes_nothing(
            self, store):
        game = await self._commit_new(store)
        first, after_first = _batch(store, game, [SeatTaken(2, HumanSeat("alice"))])
        second, after_second = _batch(store, game, [SeatTaken(3, HumanSeat("bob"))])
        await store.commit(first, read_model_rows(after_first, lobby_changed=True))

        with pytest.raises(AppendRejected):
            await store.commit(second, read_model_rows(after_second, lobby_changed=True))

        assert [s.event for s in await store.read_events("g1", after=1)] == [
            SeatTaken(2, HumanSeat("alice"))]
        async with store.read() as conn:
            seats = await conn.scalar(sa.select(games.c.seats).where(games.c.game_id == "g1"))
        assert '"alice"' in seats and '"bob"' not in seats

    async def test_a_command_id_is_recorded_once(self, store):
        game = await self._commit_new(store)
        again, after = _batch(store, game, [SeatTaken(2, HumanSeat("alice"))],
                              command_id="create")

        with pytest.raises(AppendRejected):  # the same id, at the next version
            await store.commit(again, read_model_rows(after, lobby_changed=True))

        async with store.read() as conn:
            record = await store.find_command(conn, "g1", "create")
            assert await store.find_command(conn, "g1", "other") is None
        assert (record.body_sha256, record.first_version, record.last_version) == ("sha", 1, 1)

    async def test_the_read_models_are_written_with_the_events(self, store):
        game = await self._commit_new(store)
        due = DueWork("g1", 1, "bot_turn", 1, T0)
        rows = read_model_rows(game, lobby_changed=False)
        progress = {**rows.progress, "status": "playing"}
        batch, _ = _batch(store, game, [SeatTaken(2, HumanSeat("alice"))])
        await store.commit(batch, ReadModelRows("g1", progress, None, rows.views, due))

        async with store.read() as conn:
            row = (await conn.execute(sa.select(games).where(games.c.game_id == "g1"))).one()
            viewers = sorted((await conn.scalars(sa.select(game_views.c.viewer).where(
                game_views.c.game_id == "g1"))).all())
            due_row = (await conn.execute(sa.select(due_work))).one()
        # Only the progress columns changed; the lobby's stayed as created.
        assert row.status == "playing" and row.creator == "host" and '"alice"' not in row.seats
        assert viewers == [-2, -1]
        assert (due_row.game_id, due_row.kind, due_row.seat) == ("g1", "bot_turn", 1)

    async def _reloaded(self, store: EventStore, game_id: str) -> Game:
        stored = await store.read_events(game_id)
        game = Game(game_id)
        for s in stored:
            game = apply(game, s.event)
        return advance(game, stored[-1].version, stored[-1].hash, stored[-1].recorded_at)

    async def test_no_due_work_deletes_the_row(self, store):
        game = await self._commit_new(store)
        rows = read_model_rows(game, lobby_changed=False)
        batch, _ = _batch(store, game, [SeatTaken(2, HumanSeat("alice"))])
        await store.commit(batch, ReadModelRows("g1", rows.progress, None, rows.views,
                                                DueWork("g1", 2, "bot_turn", 1, T0)))
        game = await self._reloaded(store, "g1")
        batch, after = _batch(store, game, [SeatTaken(3, HumanSeat("bob"))])
        await store.commit(batch, read_model_rows(after, lobby_changed=True))

        async with store.read() as conn:
            assert (await conn.execute(sa.select(due_work))).all() == []

    async def test_a_catch_up_reads_only_the_later_events(self, store):
        game = await self._commit_new(store)
        for seat, name in ((2, "alice"), (3, "bob")):
            batch, game = _batch(store, game, [SeatTaken(seat, HumanSeat(name))])
            await store.commit(batch, read_model_rows(game, lobby_changed=True))

        later = await store.tail("g1", 1)

        assert [(s.version, s.event) for s in later] == [
            (2, SeatTaken(2, HumanSeat("alice"))), (3, SeatTaken(3, HumanSeat("bob")))]
        assert await store.tail("g1", 3) == []

    async def test_a_hot_read_answers_one_games_rows(self, store):
        await self._commit_new(store, "g1")
        await self._commit_new(store, "g2")

        assert [r.version for r in await store.fetch(_VERSION, "g1")] == [1]
        assert list(await store.fetch(_VERSION, "nobody")) == []

    async def test_the_seats_query_finds_the_games_a_player_sits_in(self, store):
        await self._commit_new(store, "g1", creator="ann")
        await self._commit_new(store, "g2", creator="annabel")

        async with store.read() as conn:
            found = (await conn.scalars(sa.select(games.c.game_id)
                                        .where(store.seats_hold("ann")))).all()
        assert found == ["g1"]  # not the game of a player whose id merely starts alike


@pytest.fixture(scope="module")
def _sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from service.events.migrate import upgrade

    path = tmp_path_factory.mktemp("recorder") / "template.sqlite3"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


class TestSqliteRecorder(RecorderContract):
    @pytest.fixture(autouse=True)
    def _database(self, _sqlite_file: Path, tmp_path: Path) -> None:
        self.path = tmp_path / "store.sqlite3"
        shutil.copyfile(_sqlite_file, self.path)

    def create_store(self) -> EventStore:
        return open_store(f"sqlite+aiosqlite:///{self.path}")


class TestPostgresRecorder(RecorderContract):
    @pytest.fixture(autouse=True)
    def _database(self, postgres_template: Backend) -> Iterator[None]:
        with database("cya_test", template=postgres_template.template) as name:
            self.url = url_of(name)
            yield

    def create_store(self) -> EventStore:
        return open_store(self.url)
