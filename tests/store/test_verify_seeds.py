"""`verify` and the seeds of the deal (rules version 4, docs/fair-shuffle.md §7): a game whose
seats sent client seeds verifies and names them; a log rewritten to change a seed, its hash
chain rebuilt to match, is named at the event that is wrong; a game created before the
version (its seed drawn at the deal) still verifies as it did."""

from __future__ import annotations

import asyncio
import base64
import functools
import json

import msgspec
import pytest
from click.testing import CliRunner

from cya_rules import EndMode, preset
from cya_rules.ruleset import RuleSet
from cya_rules.table.lobby import GameCreated
from cya_rules.table.seats import BotSeat, HumanSeat
from service.audit.verify import verify
from service.cli.main import main
from service.pipeline import deciders
from service.table.lobby_commands import CreateGame, SetClientSeed, Start, TakeSeat
from service.wiring.settings import get_settings

from .scenarios import play
from .test_verify import _rechain, _row, _set, _version_of

RULES = preset("classic", 3, end_mode=EndMode.QUICK)
ANN, BOB = b"ann's seed", bytes(range(64))


async def seeded_game(services) -> str:
    p = services.pipeline
    created = await p.create_game(CreateGame(RULES, seats=(HumanSeat("ann"), None,
                                                           BotSeat("random")),
                                             client_seed=ANN), "ann")
    game_id = created.game_id
    await p.lobby(game_id, TakeSeat(1, client_seed=b"first"), "bob")
    await p.lobby(game_id, SetClientSeed(BOB), "bob")  # replaces it
    await p.lobby(game_id, Start(), "ann")
    await play(p, game_id, 10_000)
    return game_id


async def test_given_seats_with_seeds_then_verify_names_them_and_holds(services):
    game_id = await seeded_game(services)

    report = await verify(services.store, game_id)

    assert report.ok, report
    seeds = report.seeds
    assert seeds is not None and seeds.commitment_verified and seeds.client_seeds
    assert [(s.seat, s.seed, s.source) for s in seeds.client_seeds[:2]] == [
        (0, ANN.hex(), "player"), (1, BOB.hex(), "player")]
    assert seeds.client_seeds[2].source == "bot" and len(seeds.client_seeds[2].seed) == 64


def _edit(data: str, change) -> str:
    event = json.loads(data)
    change(event)
    return json.dumps(event, separators=(",", ":"))


def _flip(b64: str) -> str:
    raw = bytearray(base64.b64decode(b64) or b"\0")
    raw[0] ^= 1
    return base64.b64encode(bytes(raw)).decode()


@pytest.mark.parametrize("where", ["game_started", "seat_taken", "client_seed_set",
                                   "game_created", "commitment"])
async def test_given_a_rechained_log_with_a_seed_changed_then_verify_names_it(services, where):
    game_id = await seeded_game(services)
    started = await _version_of(services, game_id, "game_started")
    version, expected, change = {
        # A seat's seed in game_started, as if the deal had been made from another one.
        "game_started": (started, started, lambda e: e["client_seeds"][0].update(
            seed=_flip(e["client_seeds"][0]["seed"]))),
        # What a seat sent, rewritten before the deal: game_started no longer matches it.
        "client_seed_set": (3, started, lambda e: e.update(seed=_flip(e["seed"]))),
        # A seed its seat replaced before the deal plays no part: nothing to tell.
        "seat_taken": (2, None, lambda e: e.update(client_seed=_flip(e["client_seed"]))),
        # The creator's seed (in game_created with the master seed).
        "game_created": (1, started, lambda e: e.update(client_seed=_flip(e["client_seed"]))),
        # The commitment itself, as if the server had committed to another seed.
        "commitment": (1, 1, lambda e: e.update(seed_sha256="0" * 64)),
    }[where]
    row = await _row(services, game_id, version)
    await _set(services, game_id, version, data=_edit(row.data, change))
    await _rechain(services, game_id)

    report = await verify(services.store, game_id)

    if expected is None:
        assert report.ok, report
        return
    assert not report.ok and report.first_bad_version == expected, report
    assert "seed" in report.reason


async def test_given_a_game_created_before_version_4_then_it_still_verifies(services):
    """Its game_created commits to nothing and its seats send no seeds: the deal draws the
    master seed, alone, as every game did before (§4)."""
    p = services.pipeline
    old = GameCreated(RuleSet(players=2, end_mode=EndMode.QUICK, rules_version=3), "ann",
                      (HumanSeat("ann"), BotSeat("random")), None,
                      msgspec.convert({}, type=type(CreateGame(RULES).timeout_policy)), True)
    game_id = "created-before-version-4"
    await p._run(game_id, functools.partial(deciders.creation, created=old), b"old",
                 "player:ann", None, 0, creating=True)
    await p.lobby(game_id, Start(), "ann")
    await play(p, game_id, 10_000)
    game = await p.load(game_id, fresh=True)

    report = await verify(services.store, game_id)

    assert game.status == "finished" and game.state.ruleset.rules_version == 3
    assert report.ok, report
    assert report.seeds is not None and report.seeds.seed_sha256 is None
    assert report.seeds.client_seeds is None and report.rounds_verified >= 1



async def test_given_cya_audit_verify_then_it_prints_the_seeds_it_checked(services,
                                                                        database_url):
    game_id = await seeded_game(services)
    get_settings.cache_clear()
    try:  # `cya` runs its own event loop: in a thread of its own
        result = await asyncio.to_thread(CliRunner().invoke, main, [
            "--database-url", database_url, "audit", "verify", game_id])
    finally:
        get_settings.cache_clear()

    assert result.exit_code == 0, result.output
    assert "master seed committed at creation: " in result.output and "(held)" in result.output
    assert f"seat 0's client seed: {ANN.hex()} (player)" in result.output
    assert f"seat 1's client seed: {BOB.hex()} (player)" in result.output
