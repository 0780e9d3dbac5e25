"""Every level sees only its seat's view: two states that look the same to the seat give the
same choice under the same seed; and every level plays only legal commands, in every kind of
decision, to the end of a game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from cya_rules import EndMode, RuleSet, legal_commands, player_view, preset
from cya_rules.bots import LEVELS, Ismcts, Policy, play_game
from cya_rules.bots.determinize import sample_state
from cya_rules.cards import Edition
from tests.bots.test_greedy import checked

from .positions import position

# The registry's ismcts stops on the clock; a fixed iteration budget makes it reproducible.
REPRODUCIBLE: dict[str, Policy] = {
    name: Ismcts(budget_s=None, iterations=40) if name == "ismcts" else level.policy
    for name, level in LEVELS.items()
}
RULESETS = [
    preset("advanced_all", 2, end_mode=EndMode.QUICK),
    preset("advanced_all", 3, Edition.DE_2024),
    preset("classic", 4),
    preset("classic", 4, Edition.CLASSIC_2011).for_new_game(),
    preset("advanced_all", 5),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(REPRODUCIBLE)), st.sampled_from(RULESETS), st.integers(0, 10_000),
       st.integers(0, 300), st.integers(0, 2**32), st.integers(0, 2**32))
def test_given_two_states_with_the_same_view_when_a_bot_chooses_then_it_chooses_the_same(
    level: str, ruleset: RuleSet, seed: int, steps: int, other_deal: int, bot_seed: int
) -> None:
    state, seat = position(ruleset, seed, steps)
    view = player_view(state, seat)
    # Every card the seat cannot see dealt anew: other hands, draw pile, face-down cards.
    other = replace(sample_state(view, random.Random(other_deal)), blocked=state.blocked,
                    first_player=state.first_player, master_seed=state.master_seed)
    assert player_view(other, seat) == view
    policy = REPRODUCIBLE[level]

    first = policy(view, legal_commands(state, seat), random.Random(bot_seed))
    second = policy(player_view(other, seat), legal_commands(other, seat),
                    random.Random(bot_seed))

    assert first == second


@pytest.mark.parametrize("ruleset", RULESETS, ids=["adv2", "de_adv3", "en4", "c2011", "adv5"])
@pytest.mark.parametrize("level", ["expert", "ismcts"])
def test_given_any_rules_when_a_level_plays_then_every_command_is_legal(
    ruleset: RuleSet, level: str
) -> None:
    quick = replace(ruleset, end_mode=EndMode.QUICK)
    mine = checked(Ismcts(budget_s=None, iterations=8) if level == "ismcts"
                   else LEVELS[level].policy)
    for game in range(2):
        policies = [mine if (seat + game) % 2 == 0 else checked(LEVELS["greedy"].policy)
                    for seat in range(ruleset.players)]

        _, final = play_game(quick, bytes([game]) * 32, policies, rng_seed=game)

        assert final.status == "finished"
