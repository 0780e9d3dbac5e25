"""Determinizations (the deals ismcts searches) agree with the bot's view and hide nothing it
has not seen: each hand's and pile's size, every seen card where the view shows it, each
set's type, size and top, and no seen card anywhere hidden (RULES §15)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cya_rules import EndMode, RuleSet, player_view, preset
from cya_rules.bots.determinize import sample_state, seen_cards
from cya_rules.cards import Edition, Kind, card_table
from cya_rules.sets import is_matching
from tests.domain.table import assert_conserved

from .positions import position

RULESETS = [
    preset("advanced_all", 2, end_mode=EndMode.QUICK),
    preset("advanced_all", 3, Edition.DE_2024),
    preset("classic", 4),
    preset("advanced_all", 5),
    preset("classic", 4, Edition.CLASSIC_2011).for_new_game(),  # sets' contents hidden
    preset("advanced_all", 3, public_set_composition=False).for_new_game(),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS), st.integers(0, 10_000), st.integers(0, 400),
       st.integers(0, 2**32))
def test_given_a_position_when_dealt_again_then_the_view_is_the_same_and_no_card_is_lost(
    ruleset: RuleSet, seed: int, steps: int, deal: int
) -> None:
    state, seat = position(ruleset, seed, steps)
    view = player_view(state, seat)

    sample = sample_state(view, random.Random(deal))

    assert player_view(sample, seat) == view
    assert_conserved(sample)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULESETS), st.integers(0, 10_000), st.integers(0, 400),
       st.integers(0, 2**32))
def test_given_a_position_when_dealt_again_then_seen_cards_stay_where_the_seat_saw_them(
    ruleset: RuleSet, seed: int, steps: int, deal: int
) -> None:
    state, seat = position(ruleset, seed, steps)
    view = player_view(state, seat)
    seen = seen_cards(view)
    table = card_table(ruleset.edition)

    sample = sample_state(view, random.Random(deal))

    hidden = [c for i, hand in enumerate(sample.hands) if i != seat for c in hand]
    hidden += sample.draw_pile
    for pile, up in zip(sample.draft_piles, sample.draft_face_up, strict=True):
        hidden += pile[1:] if up else pile
    assert not seen & set(hidden)
    assert sample.hands[seat] == state.hands[seat]
    for stack in sample.stacks:
        for card_set in stack:  # a hidden set's unseen cards are its type's assets or wilds
            assert all(is_matching(table, c, card_set.type) for c in card_set.cards)
            assert table[card_set.cards[0]].kind is Kind.ASSET


def test_given_many_deals_of_one_position_then_the_hidden_cards_differ() -> None:
    state, seat = position(preset("classic", 4), seed=3, steps=30)
    view = player_view(state, seat)

    hands = {sample_state(view, random.Random(n)).hands[(seat + 1) % 4] for n in range(20)}

    assert len(hands) > 10
