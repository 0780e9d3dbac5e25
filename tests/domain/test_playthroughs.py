"""Recorded playthroughs (tests/playthroughs/*.json): re-play each game's commands and compare
with its recorded events, so any change to the rules shows up as a diff. After an intended rule
change, regenerate them with `python -m tests.playthroughs.record` and review the diff."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from cya_rules import execute, fold, new_game
from tests.playthroughs.record import GAMES, Playthrough, dumps, path_of, play

from .checks import assert_folds, assert_views_hide_cards
from .table import assert_conserved

FILES = sorted(Path(path_of("x")).parent.glob("*.json"))


def load(path: Path) -> Playthrough:
    return msgspec.json.decode(path.read_bytes(), type=Playthrough)


def test_every_recorded_game_has_a_recipe_and_every_recipe_a_recording() -> None:
    assert {p.stem for p in FILES} == set(GAMES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_given_a_recorded_game_when_its_commands_are_replayed_then_the_same_events_follow(
    path: Path,
) -> None:
    recorded = load(path)
    state = new_game(recorded.ruleset)
    replayed = []
    for step in recorded.commands:
        before = state
        events, state = execute(state, step.command, step.actor)
        assert_folds(before, events, state)
        assert_views_hide_cards(before, events)
        if state.hands:
            assert_conserved(state)
        replayed.extend(events)
    assert state.status == "finished"
    # Compare line by line, so a failure shows the first event that changed.
    got = dumps(
        Playthrough(recorded.name, recorded.ruleset, recorded.rng_seed, recorded.commands, replayed)
    ).splitlines()
    assert got == path.read_text().splitlines()
    assert fold(new_game(recorded.ruleset), recorded.events) == state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_given_a_recipe_then_recording_it_again_gives_the_same_file(name: str) -> None:
    """The recorder is deterministic: seeds and the random player reproduce the commands."""
    ruleset, seed, rng_seed = GAMES[name]
    assert dumps(play(name, ruleset, seed, rng_seed)) == path_of(name).read_text()
