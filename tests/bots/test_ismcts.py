"""The ismcts search counts what it could not use: an iteration whose deal the engine refuses a
move in teaches the tree nothing, and is counted in `Search.skipped` instead of vanishing."""

from __future__ import annotations

import random

from cya_rules import EndMode, legal_commands, player_view, preset
from cya_rules.bots import Ismcts
from cya_rules.commands import Discard

from .positions import position


def test_given_a_position_when_ismcts_searches_then_no_iteration_is_skipped() -> None:
    state, seat = position(preset("classic", 4, end_mode=EndMode.QUICK), 3, 10)
    legal = legal_commands(state, seat)

    search = Ismcts(budget_s=None, iterations=50).search(player_view(state, seat), legal,
                                                         random.Random(1))

    assert search.iterations == 50 and search.skipped == 0 and search.command in legal


def test_given_a_command_no_deal_allows_when_ismcts_tries_it_then_the_iteration_is_counted_skipped(
) -> None:
    state, seat = position(preset("classic", 4, end_mode=EndMode.QUICK), 3, 10)
    legal = legal_commands(state, seat)
    elsewhere = Discard(state.hands[(seat + 1) % 4][0])  # a card another seat holds
    offered = [legal[0], elsewhere, *legal[1:]]
    ranked_as_offered = Ismcts(budget_s=None, iterations=20,
                               prior=lambda view, moves: [-float(i) for i in range(len(moves))])

    search = ranked_as_offered.search(player_view(state, seat), offered, random.Random(1))

    assert search.iterations == 20
    assert 0 < search.skipped < search.iterations  # each try of it; never the first
    assert search.command in legal
