"""`verify`: the hash chain names the first changed version; full bot games verify clean."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from cya_rules import EndMode, preset
from cya_rules.log.chain import GENESIS_HASH, event_hash
from service.audit.verify import verify
from service.events.tables import events

from .scenarios import play, started_game

RULESETS = {
    "classic-4": preset("classic", 4, end_mode=EndMode.QUICK),
    "advanced-3-draft-piles": preset("advanced_all", 3, end_mode=EndMode.HIGHEST_AFTER_3_ROUNDS),
    "classic-2": preset("classic", 2, end_mode=EndMode.QUICK),
}


async def _row(services, game_id: str, version: int):
    async with services.store.read() as conn:
        return (await conn.execute(sa.select(events).where(
            events.c.game_id == game_id, events.c.version == version))).one()


async def _set(services, game_id: str, version: int, **values) -> None:
    async with services.store.write() as conn:
        await conn.execute(sa.update(events).where(
            events.c.game_id == game_id, events.c.version == version).values(**values))


@pytest.mark.parametrize("name", RULESETS)
async def test_given_a_full_bot_game_then_it_verifies(services, name):
    ruleset = RULESETS[name]
    game_id = await started_game(services.pipeline, ruleset)
    await play(services.pipeline, game_id, 10_000)
    assert (await services.pipeline.load(game_id)).status == "finished"

    report = await verify(services.store, game_id)

    assert report.ok, report
    assert report.rounds_verified >= 1 and report.draws_verified >= 1


async def test_given_one_changed_byte_in_an_event_then_verify_names_its_version(services):
    game_id = await started_game(services.pipeline)
    await play(services.pipeline, game_id, 30)
    async with services.store.read() as conn:
        version = await conn.scalar(sa.select(sa.func.min(events.c.version)).where(
            events.c.game_id == game_id, events.c.type == "turn_started", events.c.version > 10))
    row = await _row(services, game_id, version)
    seat = str(row.data).index('"seat":') + len('"seat":')
    forged = row.data[:seat] + str((int(row.data[seat]) + 1) % 4) + row.data[seat + 1:]
    assert len(forged) == len(row.data) and forged != row.data

    await _set(services, game_id, version, data=forged)
    report = await verify(services.store, game_id)

    assert not report.ok and report.first_bad_version == version
    assert "hash chain" in report.reason


async def test_given_a_changed_hash_or_a_missing_event_then_verify_names_it(services):
    game_id = await started_game(services.pipeline)
    await play(services.pipeline, game_id, 20)
    row = await _row(services, game_id, 9)
    await _set(services, game_id, 9, hash=("0" if row.hash[0] != "0" else "1") + row.hash[1:])

    assert (await verify(services.store, game_id)).first_bad_version == 9

    async with services.store.write() as conn:
        await conn.execute(sa.delete(events).where(events.c.game_id == game_id,
                                                   events.c.version == 5))
    report = await verify(services.store, game_id)
    assert report.first_bad_version == 5 and "missing" in report.reason

    async with services.store.write() as conn:  # the whole log, its record kept
        await conn.execute(sa.delete(events).where(events.c.game_id == game_id))
    emptied = await verify(services.store, game_id)
    unknown = await verify(services.store, "no-such-game")
    assert not emptied.ok and emptied.reason.startswith("the log is empty, yet the game's "
                                                        "record is at version ")
    assert unknown.reason == "no such game"


async def _rechain(services, game_id: str) -> None:
    """Recompute every hash after a change, as anyone who can write to the database can."""
    prev = GENESIS_HASH
    for r in await services.store.read_as_stored(game_id):
        h = event_hash(prev, game_id, r.version, r.type, r.schema_version, r.visibility,
                       r.command_id, r.actor, r.data)
        await _set(services, game_id, r.version, hash=h)
        prev = h


async def _version_of(services, game_id: str, event_type: str, after: int = 0) -> int:
    async with services.store.read() as conn:
        return await conn.scalar(sa.select(sa.func.min(events.c.version)).where(
            events.c.game_id == game_id, events.c.type == event_type, events.c.version > after))


async def test_given_a_rechained_log_with_a_turn_given_to_another_seat_then_the_rules_name_it(
        services):
    game_id = await started_game(services.pipeline)
    await play(services.pipeline, game_id, 30)
    version = await _version_of(services, game_id, "turn_started", after=10)
    row = await _row(services, game_id, version)
    seat = str(row.data).index('"seat":') + len('"seat":')
    await _set(services, game_id, version,
               data=row.data[:seat] + str((int(row.data[seat]) + 1) % 4) + row.data[seat + 1:])
    await _rechain(services, game_id)

    report = await verify(services.store, game_id)

    assert not report.ok and report.first_bad_version == version
    assert "legal command" in report.reason


@pytest.mark.parametrize("column", ["unknown type", "other type", "visibility"])
async def test_given_a_rechained_row_whose_columns_lie_then_verify_names_it(services, column):
    game_id = await started_game(services.pipeline)
    await play(services.pipeline, game_id, 30)
    version = await _version_of(services, game_id, "round_started")
    await _set(services, game_id, version, **{"unknown type": {"type": "no_such_type"},
                                              "other type": {"type": "cards_drawn"},
                                              "visibility": {"visibility": "public"}}[column])
    await _rechain(services, game_id)

    report = await verify(services.store, game_id)

    assert not report.ok and report.first_bad_version == version, report
    if column == "visibility":  # and the deal stays hidden all the same
        dealt = dict(await services.store.read_for_viewer(game_id, None))[version]
        assert dealt.draw_pile is None and not any(dealt.hands)


async def test_given_events_cut_off_the_end_or_added_then_verify_names_where(services):
    game_id = await started_game(services.pipeline)
    await play(services.pipeline, game_id, 30)
    last = (await services.pipeline.load(game_id)).version
    row = (await _row(services, game_id, last))._asdict()
    async with services.store.write() as conn:
        await conn.execute(sa.delete(events).where(events.c.game_id == game_id,
                                                   events.c.version == last))
    cut = await verify(services.store, game_id)
    async with services.store.write() as conn:
        await conn.execute(sa.insert(events).values(
            {**row, "version": last}))
        await conn.execute(sa.insert(events).values(
            {**row, "version": last + 1}))
    await _rechain(services, game_id)
    added = await verify(services.store, game_id)

    assert not cut.ok and cut.first_bad_version == last and "missing" in cut.reason
    assert not added.ok and added.first_bad_version == last + 1, added
