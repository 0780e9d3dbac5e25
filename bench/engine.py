"""Engine benchmark (issue 2): complete games between random bots, per-command cost, log folding.

Runs on one core (one process). Prints its figures with their targets as one JSON object on
the last line and exits 1 when a target is missed.

    .venv/bin/python bench/engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from cya_rules import (
    EndMode,
    RuleSet,
    StartGame,
    execute,
    fold,
    legal_commands,
    new_game,
    preset,
)
from cya_rules.bots import play_game, random_policy

TARGET_QUICK_GAMES_PER_S = 100.0
AIM_QUICK_GAMES_PER_S = 250.0
TARGET_FOLD_1000_MS = 5.0


def games_per_second(ruleset: RuleSet, seconds: float) -> tuple[float, int]:
    policies = [random_policy] * ruleset.players
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_game(ruleset, random.Random(games).randbytes(32), policies, rng_seed=games)
        games += 1
    return games / (time.perf_counter() - start), games


def median_command_us(ruleset: RuleSet, games: int) -> float:
    """decide + evolve (`execute`) per seat command; bot choice and enumeration excluded."""
    samples: list[float] = []
    for g in range(games):
        rng = random.Random(g)
        _, state = execute(new_game(ruleset), StartGame(rng.randbytes(32)), None)
        while state.status != "finished":
            seat = state.pending_seats()[0]
            legal = legal_commands(state, seat)
            command = legal[rng.randrange(len(legal))]
            t0 = time.perf_counter_ns()
            _, state = execute(state, command, seat)
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return statistics.median(samples)


def fold_1000_ms(repeats: int = 50) -> tuple[float, int]:
    """Median time to fold the first 1,000 events of a long (to_million) game from scratch."""
    ruleset = RuleSet(players=4, end_mode=EndMode.TO_MILLION)
    events, _ = play_game(ruleset, bytes(32), [random_policy] * 4, rng_seed=1)
    log = events[:1000]
    timings = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fold(new_game(ruleset), log)
        timings.append((time.perf_counter() - t0) * 1000)
    return statistics.median(timings), len(log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="per games/s measurement")
    args = parser.parse_args()

    quick = RuleSet(players=4, end_mode=EndMode.QUICK)
    draft = preset("advanced_all", 2, end_mode=EndMode.QUICK)
    quick_rate, quick_games = games_per_second(quick, args.seconds)
    draft_rate, draft_games = games_per_second(draft, args.seconds)
    command_us = median_command_us(quick, 50)
    fold_ms, fold_events = fold_1000_ms()

    result = {
        "quick_4p_games_per_s": round(quick_rate, 1),
        "quick_4p_games_played": quick_games,
        "quick_4p_target": TARGET_QUICK_GAMES_PER_S,
        "quick_4p_aim": AIM_QUICK_GAMES_PER_S,
        "draft_2p_advanced_all_games_per_s": round(draft_rate, 1),
        "draft_2p_games_played": draft_games,
        "median_decide_evolve_us": round(command_us, 1),
        "fold_events": fold_events,
        "fold_1000_events_ms": round(fold_ms, 3),
        "fold_target_ms": TARGET_FOLD_1000_MS,
    }
    missed = [
        name
        for name, ok in (
            ("quick_4p_games_per_s", quick_rate >= TARGET_QUICK_GAMES_PER_S),
            ("fold_1000_events_ms", fold_ms <= TARGET_FOLD_1000_MS and fold_events == 1000),
        )
        if not ok
    ]
    result["missed"] = missed
    print(json.dumps(result))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
