"""The rollout's quick turn (`rollout_turn`) chooses as the rollout policy does over every legal
command: the same best commands, each legal, without listing the rest."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cya_rules import EndMode, RuleSet, legal_commands, preset
from cya_rules.bots.rollout import rollout_scores
from cya_rules.bots.rollout_turn import best_turn_commands, rollout_command
from cya_rules.cards import Edition
from cya_rules.state import AwaitingAction

from .positions import position

RULESETS = [
    preset("advanced_all", 2, end_mode=EndMode.QUICK),
    preset("advanced_all", 3, Edition.DE_2024),
    preset("classic", 4),
    preset("advanced_all", 5),
    preset("classic", 4, Edition.CLASSIC_2011).for_new_game(),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS), st.integers(0, 10_000), st.integers(0, 300))
def test_given_a_turn_when_the_rollout_chooses_quickly_then_it_picks_from_the_best_legal_commands(
    ruleset: RuleSet, seed: int, steps: int
) -> None:
    state, seat = position(ruleset, seed, steps)
    if not isinstance(state.pending, AwaitingAction):
        return
    legal = legal_commands(state, seat)
    scores = rollout_scores(state, seat, legal)
    top = max(scores)

    best = best_turn_commands(state, seat)

    assert sorted(map(repr, best)) == sorted(repr(c) for c, s in zip(legal, scores, strict=True)
                                             if s == top)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS), st.integers(0, 10_000), st.integers(0, 300),
       st.integers(0, 2**32))
def test_given_any_decision_when_the_rollout_plays_then_its_command_is_legal_and_seeded(
    ruleset: RuleSet, seed: int, steps: int, rng_seed: int
) -> None:
    state, seat = position(ruleset, seed, steps)

    command = rollout_command(state, seat, random.Random(rng_seed))

    assert command in legal_commands(state, seat)
    assert command == rollout_command(state, seat, random.Random(rng_seed))
