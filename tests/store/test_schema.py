"""Schema: the migrations create exactly the tables in code; old event versions upcast."""

from __future__ import annotations

import sqlalchemy as sa

from service.domain.events import CardDiscarded
from service.events.codec import EventCodec
from service.events.store import EventStore
from service.events.tables import events, metadata

from .scenarios import started_game


async def test_the_migrations_match_the_table_definitions(services):
    # Compared through the inspector: alembic's compare_metadata trips over reflecting
    # PostgreSQL identity columns in this SQLAlchemy version.
    def shape(sync_conn):
        insp = sa.inspect(sync_conn)
        return {
            t: (
                sorted((c["name"], c["nullable"]) for c in insp.get_columns(t)),
                sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(t)),
                sorted(tuple(i["column_names"]) for i in insp.get_indexes(t)
                       if not i.get("unique")),
                insp.get_pk_constraint(t)["constrained_columns"],
            )
            for t in metadata.tables
        }

    expected = {
        t.name: (
            sorted((c.name, c.nullable) for c in t.columns),
            sorted(tuple(c.name for c in u.columns) for u in t.constraints
                   if isinstance(u, sa.UniqueConstraint)),
            sorted(tuple(c.name for c in i.columns) for i in t.indexes),
            [c.name for c in t.primary_key.columns],
        )
        for t in metadata.tables.values()
    }
    async with services.engine.connect() as conn:
        assert await conn.run_sync(shape) == expected


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
    store = EventStore(services.engine, EventCodec({("card_discarded", 1): v1_to_v2}))

    (old,) = await store.read_events(game_id, after=99)

    assert old.event == CardDiscarded(seat=2, card="jewels#3")
