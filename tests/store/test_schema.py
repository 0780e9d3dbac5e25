"""Schema: the migrations create exactly the tables in code; old event versions upcast."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import asyncpg
import msgspec
import pytest
import sqlalchemy as sa

from cya_rules import StartGame, execute, new_game, player_view, preset, spectator_view
from cya_rules.events import CardDiscarded
from cya_rules.log.codec import EventCodec
from cya_rules.table.seats import BotSeat
from service.events.engine import create_engine
from service.events.group_commit import _PG_COMMIT
from service.events.migrate import upgrade
from service.events.tables import HANDS, SPECTATOR, events, game_views, metadata
from service.projections.seat_views import pick_view, viewers
from service.table.lobby_commands import CreateGame, Start
from tests.postgres import database, url_of

from .scenarios import QUICK4, started_game


async def test_the_migrations_match_the_table_definitions(services):
    # Compared through the inspector: alembic's compare_metadata trips over reflecting
    # PostgreSQL identity columns in this SQLAlchemy version.
    def shape(sync_conn):
        insp = sa.inspect(sync_conn)
        return {
            t: (
                sorted((c["name"], c["nullable"]) for c in insp.get_columns(t)),
                sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(t)),
                sorted((i["name"], tuple(c or "<expression>" for c in i["column_names"]),
                        bool(i["unique"]))
                       for i in insp.get_indexes(t) if not i.get("duplicates_constraint")),
                insp.get_pk_constraint(t)["constrained_columns"],
            )
            for t in metadata.tables
        }

    postgres = services.store.dialect == "postgresql"  # PostgreSQL has indexes of its own (GIN)
    expected = {
        t.name: (
            sorted((c.name, c.nullable) for c in t.columns),
            sorted(tuple(c.name for c in u.columns) for u in t.constraints
                   if isinstance(u, sa.UniqueConstraint)),
            sorted((i.name, tuple(e.name if isinstance(e, sa.Column) else "<expression>"
                                  for e in i.expressions), i.unique)
                   for i in t.indexes if postgres or not i.dialect_options["postgresql"]["using"]),
            [c.name for c in t.primary_key.columns],
        )
        for t in metadata.tables.values()
    }
    async with services.engine.connect() as conn:
        assert await conn.run_sync(shape) == expected


async def test_every_time_read_back_is_aware_and_in_utc_on_every_backend(services):
    # SQLite keeps no zone: the column type reads its times as the UTC they were written in,
    # so no reader has to.
    game_id = await started_game(services.pipeline, clock=60, humans=4)  # a clock runs
    timed = {t.name: [c for c in t.columns if isinstance(_underlying(c.type), sa.DateTime)]
             for t in metadata.tables.values()}
    read: list[tuple[str, str, datetime]] = []
    async with services.store.read() as conn:
        for table, columns in timed.items():
            for column in columns:
                values = (await conn.execute(sa.select(column))).scalars().all()
                read.extend((table, column.name, v) for v in values if v is not None)

    assert {(t, c) for t, c, _ in read} >= {("events", "recorded_at"), ("games", "created_at"),
                                            ("games", "updated_at"), ("games", "deadline"),
                                            ("due_work", "due_at")}
    naive = [(t, c, v) for t, c, v in read if v.utcoffset() != timedelta(0)]
    assert not naive, naive
    assert (await services.pipeline.load(game_id)).created_at.utcoffset() == timedelta(0)


def _underlying(kind: sa.types.TypeEngine) -> sa.types.TypeEngine:
    return kind.impl_instance if isinstance(kind, sa.TypeDecorator) else kind


async def test_only_events_with_a_command_id_enter_its_unique_index(services):
    created = await services.pipeline.create_game(
        CreateGame(QUICK4, seats=(BotSeat("random"),) * 4), "p0", command_id="create")
    game_id = created.game_id
    await services.pipeline.lobby(game_id, Start(), "p0", command_id="start")
    stored = await services.store.read_events(game_id)
    with_id = [s for s in stored if s.command_id is not None]
    assert 0 < len(with_id) < len(stored)
    duplicate = {"game_id": game_id, "version": len(stored) + 1, "type": "card_discarded",
                 "schema_version": 1, "data": "{}", "visibility": "public", "actor": None,
                 "recorded_at": stored[0].recorded_at, "hash": "x"}

    async with services.store.write() as conn:  # NULLs never conflict
        await conn.execute(events.insert().values(command_id=None, **duplicate))
    with pytest.raises(sa.exc.IntegrityError):
        async with services.store.write() as conn:
            await conn.execute(events.insert().values(
                command_id=with_id[0].command_id, **{**duplicate, "version": len(stored) + 2}))
    if services.store.dialect == "sqlite":
        return
    async with services.engine.connect() as conn:
        entries = await conn.scalar(sa.text(
            "SELECT count(*) FROM events WHERE game_id = :g AND command_id IS NOT NULL"),
            {"g": game_id})
        predicate = await conn.scalar(sa.text(
            "SELECT pg_get_expr(indpred, indrelid) FROM pg_index "
            "WHERE indexrelid = 'uq_events_game_command'::regclass"))
        options = dict((await conn.execute(sa.text(
            "SELECT relname, reloptions FROM pg_class WHERE relname IN ('games', 'game_views')"
        ))).all())
    assert entries == len(with_id)
    assert predicate == "(command_id IS NOT NULL)"
    assert len(options) == 2 and all("fillfactor=50" in o for o in options.values())


async def test_the_seats_index_keeps_its_pending_list_short(services):
    # Every `?mine=true` reads the GIN index's whole pending list (migration 0018).
    if services.store.dialect == "sqlite":
        return
    async with services.engine.connect() as conn:
        options = await conn.scalar(sa.text(
            "SELECT reloptions FROM pg_class WHERE relname = 'ix_games_seats'"))
    assert options == ["gin_pending_list_limit=256"]  # kB: 32 pages at most


async def test_an_old_schema_version_is_upcast_when_read(services, monkeypatch):
    # As if card_discarded v1 had named its fields `player` and `card_id`, and v2 renamed them.
    monkeypatch.setattr(CardDiscarded, "SCHEMA_VERSION", 2)

    def v1_to_v2(old: dict) -> dict:
        return {"type": old["type"], "seat": old["player"], "card": old["card_id"]}

    game_id = await started_game(services.pipeline)
    async with services.store.write() as conn:
        await conn.execute(events.insert().values(
            game_id=game_id, version=100, type="card_discarded", schema_version=1,
            data='{"type":"card_discarded","player":2,"card_id":"jewels#3"}',
            visibility="public", command_id=None, actor="legacy",
            recorded_at=(await services.store.read_events(game_id))[0].recorded_at, hash="x"))
    store = type(services.store)(services.engine, EventCodec({("card_discarded", 1): v1_to_v2}))

    (old,) = await store.read_events(game_id, after=99)

    assert old.event == CardDiscarded(seat=2, card="jewels#3")


@contextmanager
def _database_at(backend: str, revision: str, tmp_path: Path) -> Iterator[str]:
    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}"
        upgrade(url, revision)
        yield url
    else:
        with database("cya_test_old", revision=revision) as name:
            yield url_of(name)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_upgrading_from_full_seat_views_serves_the_same_views_from_two_rows(backend, tmp_path):
    undealt = new_game(preset("classic", 3))
    _, dealt = execute(undealt, StartGame(b"\x07" * 32), None)
    full = {
        (game_id, viewer): msgspec.json.encode(
            spectator_view(state) if viewer == SPECTATOR else player_view(state, viewer)).decode()
        for game_id, state in (("dealt", dealt), ("undealt", undealt))
        for viewer in (0, 1, 2, SPECTATOR)
    }

    async def write() -> None:  # as revision 0002's code wrote them: every view in full
        engine = create_engine(url)
        async with engine.begin() as conn:
            await conn.execute(game_views.insert(), [
                {"game_id": g, "viewer": v, "version": 5, "view": j} for (g, v), j in full.items()])
        await engine.dispose()

    async def read() -> tuple[dict[tuple[str, int], str], list[tuple]]:
        engine = create_engine(url)
        async with engine.connect() as conn:
            # The rows as the service combines them (`pick_view`); these games have no games
            # row, which the service's read joins for the header fields.
            views = {}
            for g, v in full:
                seat = None if v == SPECTATOR else v
                found = (await conn.execute(sa.select(game_views).where(
                    game_views.c.game_id == g, game_views.c.viewer.in_(viewers(seat))))).all()
                views[(g, v)] = pick_view(found, seat)
            rows = (await conn.execute(sa.select(game_views.c.game_id, game_views.c.viewer,
                                                 game_views.c.view)
                                       .where(game_views.c.viewer == HANDS)
                                       .order_by(game_views.c.game_id))).all()
            count = await conn.scalar(sa.select(sa.func.count()).select_from(game_views))
        await engine.dispose()
        assert count == 4  # per game: the spectator's view and the hands
        return ({k: v[1].decode() for k, v in views.items() if v is not None},
                [tuple(r) for r in rows])

    with _database_at(backend, "0002", tmp_path) as url:
        asyncio.run(write())
        upgrade(url)
        served, hands_rows = asyncio.run(read())

    assert served == full
    assert hands_rows == [("dealt", HANDS, msgspec.json.encode(dealt.hands).decode()),
                          ("undealt", HANDS, "null")]


def test_a_group_write_looks_rows_up_by_key_however_many_games_there_are():
    # The statement runs as a generic plan, whatever each group holds: it must find the games
    # and due rows it updates or drops by primary key, not by scanning either table.
    async def plan(url: str) -> str:
        conn = await asyncpg.connect(url.replace("+asyncpg", ""))
        try:
            for table, row in (
                ("games", "md5(i::text), 'playing', 'p', true, '{}', 4, '[]', null, '{}', 1, "
                          "'[]', null, now(), now()"),
                ("due_work", "md5(i::text), 1, 'bot_turn', 0, now()"),
            ):
                await conn.execute(f"INSERT INTO {table} SELECT {row} "
                                   "FROM generate_series(1, 20000) AS i")
            await conn.execute("ANALYZE")
            await conn.execute("SET plan_cache_mode = force_generic_plan")
            await conn.execute(f"PREPARE group_write AS {_PG_COMMIT}")
            # No rows at all: only the plan matters. JSON documents '[]', texts ''.
            args = "'[]', '[]', '[]', '', '[]', '', '', '[]', '[]', '', '[]'"
            return "\n".join(r[0] for r in await conn.fetch(
                f"EXPLAIN EXECUTE group_write({args})"))
        finally:
            await conn.close()

    with database("cya_plan") as name:
        explained = asyncio.run(plan(url_of(name)))
    assert "Update on games" in explained and "Delete on due_work" in explained
    assert "Seq Scan on games" not in explained, explained
    assert "Seq Scan on due_work" not in explained, explained


def test_given_a_revealed_move_stored_with_pairs_then_it_reads_as_moves():
    # Schema version 1 wrote each move as a [seat, direction] pair; generated clients could
    # not type it, so version 2 writes objects, and the old rows are read as those.
    from cya_rules.events import RevealedMoveApplied
    from cya_rules.log.codec import default_codec
    from cya_rules.state import StackMove

    stored = (b'{"type":"revealed_move_applied","pile":2,"card":"move#1",'
              b'"moves":[[1,"bottom_to_top"],[0,"top_to_bottom"]]}')

    event = default_codec.decode("revealed_move_applied", 1, stored)

    assert event == RevealedMoveApplied(2, "move#1", (StackMove(1, "bottom_to_top"),
                                                      StackMove(0, "top_to_bottom")))
    assert default_codec.schema_version("revealed_move_applied") == 2
