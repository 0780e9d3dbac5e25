"""Rules versions in the log (docs/rules.md §18): games created before versions existed read as
version 1; the lobby stamps every new game with the current version."""

from __future__ import annotations

from service.domain import RuleSet
from service.domain.ruleset import CURRENT_RULES_VERSION
from service.events.codec import default_codec
from service.lobby import CreateGame, GameCreated, create

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
    created = create(CreateGame(RuleSet(players=2, rules_version=1)), "p0")

    assert created.ruleset.rules_version == CURRENT_RULES_VERSION
