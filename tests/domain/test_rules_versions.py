"""Rules versions (docs/rules.md §18): a game keeps the rules version it was created under.

Games recorded before versions existed carry no `rules_version` and play under version 1; a
new game is stamped with the current version when it is created.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from cya_rules import RuleSet, execute, new_game
from cya_rules.events import GameStarted
from cya_rules.ruleset import CURRENT_RULES_VERSION, RULES_VERSIONS
from tests.playthroughs.record import Playthrough, dumps, path_of


def test_given_the_versions_then_they_count_up_from_1_and_each_says_what_changed() -> None:
    assert [v.version for v in RULES_VERSIONS] == list(range(1, len(RULES_VERSIONS) + 1))
    assert RULES_VERSIONS[-1].version == CURRENT_RULES_VERSION
    assert all(v.changes for v in RULES_VERSIONS)


def test_given_a_rule_set_without_a_version_then_it_is_version_1() -> None:
    """§18: absent means the rules every game was played under before versions existed."""
    ruleset = msgspec.json.decode(b'{"players": 4}', type=RuleSet)

    assert ruleset.rules_version == 1


def test_given_a_rule_set_when_a_new_game_records_it_then_it_is_the_current_version() -> None:
    ruleset = RuleSet(players=4, rules_version=1)

    assert ruleset.for_new_game().rules_version == CURRENT_RULES_VERSION
    assert ruleset.for_new_game().since(CURRENT_RULES_VERSION)


def test_given_a_version_newer_than_these_rules_then_the_rule_set_does_not_decode() -> None:
    """A log written by newer code must not be played under older rules."""
    newer = f'{{"players": 4, "rules_version": {CURRENT_RULES_VERSION + 1}}}'.encode()

    with pytest.raises(msgspec.ValidationError, match="newer than these rules"):
        msgspec.json.decode(newer, type=RuleSet)


# The recordings made before rules versions existed: those of version 1.
BEFORE_VERSIONS = sorted(p for p in Path(path_of("x")).parent.glob("*.json")
                         if '"rules_version":1}' in p.read_text())


def test_given_the_recordings_then_six_were_made_before_rules_versions() -> None:
    assert len(BEFORE_VERSIONS) == 6


@pytest.mark.parametrize("path", BEFORE_VERSIONS, ids=lambda p: p.stem)
def test_given_a_recording_as_written_before_versions_then_it_decodes_and_replays_as_v1(
    path: Path,
) -> None:
    """The recorded playthroughs were written before `rules_version` existed; the field was
    added to them with value 1 and nothing else changed. Without it they read the same."""
    text = path.read_text()
    before_versions = text.replace(',"rules_version":1', "")
    assert '"rules_version"' not in before_versions

    old = msgspec.json.decode(before_versions, type=Playthrough)
    assert old == msgspec.json.decode(text, type=Playthrough)
    assert old.ruleset.rules_version == 1
    assert isinstance(old.events[0], GameStarted) and old.events[0].ruleset.rules_version == 1
    state, replayed = new_game(old.ruleset), []
    for step in old.commands:
        events, state = execute(state, step.command, step.actor)
        replayed.extend(events)
    assert dumps(Playthrough(old.name, old.ruleset, old.rng_seed, old.commands, replayed)) == text
