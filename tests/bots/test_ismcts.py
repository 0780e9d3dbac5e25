"""The ismcts search counts what it could not use: an iteration whose deal the engine refuses a
move in teaches the tree nothing, and is counted in `Search.skipped` instead of vanishing. The
level searches a fixed count of iterations, the same on every machine, with a CPU-time cap as a
guard that says when it stopped a search short; it stops sooner only once the rest could not
change its answer."""

from __future__ import annotations

import random
import time

from cya_rules import EndMode, legal_commands, player_view, preset
from cya_rules.bots import LEVELS, Ismcts
from cya_rules.bots.ismcts import CPU_CAP_S, DEFAULT_ITERATIONS
from cya_rules.commands import Discard

from .positions import position


def test_given_a_position_when_ismcts_searches_then_no_iteration_is_skipped() -> None:
    state, seat = position(preset("classic", 4, end_mode=EndMode.QUICK), 3, 10)
    legal = legal_commands(state, seat)

    search = Ismcts(budget_s=None, iterations=50, stop_when_decided=False).search(
        player_view(state, seat), legal, random.Random(1))

    assert search.iterations == 50 and search.skipped == 0 and search.command in legal


def test_given_a_command_no_deal_allows_when_ismcts_tries_it_then_the_iteration_is_counted_skipped(
) -> None:
    state, seat = position(preset("classic", 4, end_mode=EndMode.QUICK), 3, 10)
    legal = legal_commands(state, seat)
    elsewhere = Discard(state.hands[(seat + 1) % 4][0])  # a card another seat holds
    offered = [legal[0], elsewhere, *legal[1:]]
    ranked_as_offered = Ismcts(budget_s=None, iterations=20,
                               prior=lambda view, moves: [-float(i) for i in range(len(moves))],
                               stop_when_decided=False)

    search = ranked_as_offered.search(player_view(state, seat), offered, random.Random(1))

    assert search.iterations == 20
    assert 0 < search.skipped < search.iterations  # each try of it; never the first
    assert search.command in legal


def test_given_the_level_as_the_service_runs_it_then_it_searches_its_default_iterations() -> None:
    state, seat = position(preset("classic", 4, end_mode=EndMode.QUICK), 3, 10)
    legal = legal_commands(state, seat)
    level = LEVELS["ismcts"].policy
    assert isinstance(level, Ismcts)

    first = level.search(player_view(state, seat), legal, random.Random(7))
    again = level.search(player_view(state, seat), legal, random.Random(7))

    # A count, not a time: the same search on any machine, however loaded.
    assert (level.iterations, level.budget_s) == (DEFAULT_ITERATIONS, None)
    assert not first.capped
    assert first.iterations == DEFAULT_ITERATIONS or (
        first.decided and first.iterations < DEFAULT_ITERATIONS)
    assert first.command == again.command


def test_given_positions_when_the_search_stops_once_decided_then_it_answers_as_the_whole_search(
) -> None:
    level = LEVELS["ismcts"].policy
    assert isinstance(level, Ismcts) and level.stop_when_decided
    whole = Ismcts(None, level.iterations, level.prior, level.rollout_steps, cpu_cap_s=None,
                   stop_when_decided=False)
    rulesets = [preset("advanced_all", 2, end_mode=EndMode.QUICK),
                preset("classic", 4, end_mode=EndMode.QUICK)]
    decided = 0
    for seed in range(24):
        state, seat = position(rulesets[seed % 2], seed, 5 + 7 * seed % 60)
        legal = legal_commands(state, seat)
        if len(legal) < 2:
            continue
        view = player_view(state, seat)

        sooner = level.search(view, legal, random.Random(seed))
        full = whole.search(view, legal, random.Random(seed))

        assert sooner.command == full.command
        assert full.iterations == DEFAULT_ITERATIONS and not full.decided
        if sooner.decided:
            decided += 1
            assert sooner.iterations < DEFAULT_ITERATIONS
        else:
            assert sooner.iterations == DEFAULT_ITERATIONS
    assert decided >= 6  # most searches find their answer out of reach before the end


def test_given_a_cpu_cap_when_the_search_runs_long_then_the_cap_stops_it_and_says_so() -> None:
    state, seat = position(preset("advanced_all", 2, end_mode=EndMode.QUICK), 5, 40)
    legal = legal_commands(state, seat)
    capped = Ismcts(iterations=10**6, cpu_cap_s=0.05)

    cpu = time.thread_time()
    search = capped.search(player_view(state, seat), legal, random.Random(1))

    assert search.capped and 0 < search.iterations < 10**6 and search.command in legal
    assert time.thread_time() - cpu < 0.05 + 0.05  # one iteration past the cap at most


def test_given_a_turn_clock_then_the_search_keeps_its_cap_and_stops_at_the_sooner() -> None:
    level = Ismcts()

    on_a_clock = level.within(0.03)

    assert (on_a_clock.budget_s, on_a_clock.cpu_cap_s) == (0.03, CPU_CAP_S)
    assert on_a_clock.iterations == level.iterations == DEFAULT_ITERATIONS
