"""Rules versions in the log (docs/rules.md §18): games created before versions existed read as
version 1; the lobby stamps every new game with the current version."""

from __future__ import annotations

import msgspec
import pytest

from cya_rules import Event, RuleSet, StartGame
from cya_rules.log.codec import default_codec
from cya_rules.ruleset import CURRENT_RULES_VERSION
from cya_rules.table.lobby import GameCreated
from cya_rules.table.seats import HumanSeat
from service.audit.verify import verify
from service.table.lobby_commands import CreateGame, Start, create
from tests.playthroughs.record import Playthrough, path_of

# A game_created row as the server wrote it before rules versions existed.
OLD_GAME_CREATED = (
    b'{"type":"game_created","ruleset":{"players":2,"edition":"en_2022","end_mode":"quick",'
    b'"advanced":{"hand_size_six":false,"two_actions":false,"no_rechallenge_after_loss":null,'
    b'"improve_set":false,"action_cards":false,"penny_jar":false,"second_set_challenge":false},'
    b'"tie_policy":"extra_round","first_player":"random","later_rounds_start":"rotate_left",'
    b'"draft_challenge_requires_own_set":true,"draft_set_first_set_protected":false,'
    b'"public_set_composition":true},"creator":"p0","seats":[null,null],"turn_clock":null,'
    b'"timeout_policy":{"bot_level":"random","hand_over_after":3},"public":true}'
)


def test_given_a_game_created_before_versions_when_decoded_then_it_is_version_1():
    event = default_codec.decode("game_created", 1, OLD_GAME_CREATED)

    assert isinstance(event, GameCreated)
    assert event.ruleset.rules_version == 1
    assert default_codec.schema_version("game_created") == 1  # additive: no upcaster


def test_given_any_rule_set_when_the_lobby_creates_the_game_then_it_records_the_current():
    created = create(CreateGame(RuleSet(players=2, rules_version=1)), "p0", bytes(32))

    assert created.ruleset.rules_version == CURRENT_RULES_VERSION


@pytest.mark.parametrize("name", ["2p-en2022-advanced-all-swap-over-swap",
                                  "2p-en2022-advanced-all-swap-over-swap-v2"])
async def test_given_a_recorded_game_played_through_the_service_then_it_verifies(
    services, monkeypatch, name,
):
    """A game created under rules version 1 (before a Swap over a Swap went back into its
    pile, §18) keeps those rules when played, replayed and verified on today's server."""
    recorded = msgspec.json.decode(path_of(name).read_bytes(), type=Playthrough)
    # The server as it was when the game was created: it recorded the version it had.
    monkeypatch.setattr(RuleSet, "for_new_game", lambda self: self)
    start, *steps = recorded.commands
    assert isinstance(start.command, StartGame)
    seats = (HumanSeat("p0"), HumanSeat("p1"))
    created = await services.pipeline.create_game(CreateGame(recorded.ruleset, seats), "p0",
                                                  master_seed=start.command.seed)
    game_id = created.game_id
    await services.pipeline.lobby(game_id, Start(), "p0")
    for step in steps:
        await services.pipeline.play(game_id, step.actor, step.command)
    monkeypatch.undo()

    game = await services.pipeline.load(game_id, fresh=True)
    report = await verify(services.store, game_id)

    assert game.status == "finished"
    assert game.state.ruleset.rules_version == recorded.ruleset.rules_version
    assert report.ok, report
    async with services.store.read() as conn:
        logged = [s.event for s in await services.store.load(conn, game_id)]
    assert [e for e in logged if isinstance(e, Event.__args__)] == recorded.events
