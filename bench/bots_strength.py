"""Bot speed benchmark (issues 29 and 41): how long each level thinks per decision.

Decisions are taken from real positions (greedy games of 2-player advanced_all and 4-player
classic, every decision with a choice); greedy, expert and ismcts as the service runs it (the
level's own settings object: its default iterations a decision, its time cap) each decide
every one. One process pinned to one core. Reports the iterations ismcts ran a decision on
this machine (up to its default: a search stops once its answer is out of reach), its
iterations per CPU second, and its decision times, in CPU time and in wall time (which on a
shared machine also holds other processes' turns on the core); and, in the same run, the CPU
times of the whole search, every iteration run (the same answers). Targets:
ismcts p95 ≤ 150 ms of CPU time a decision; no decision stopped short by its CPU cap (so this
machine plays the level at the strength the ladder publishes); expert p95 ≤ 2 ms. Greedy is
the baseline, timed in the same run.
Prints one JSON object on the last line; exits 1 when a target is missed.

    .venv/bin/python bench/bots_strength.py [--positions 120]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence

from cya_rules import (
    EndMode,
    SeatCommand,
    StartGame,
    execute,
    legal_commands,
    new_game,
    player_view,
    preset,
)
from cya_rules.bots import LEVELS, Ismcts, expert_policy, greedy_policy
from cya_rules.bots.ismcts import Search
from cya_rules.views import GameView

TARGET_ISMCTS_P95_MS = 150.0
TARGET_ISMCTS_CAPPED = 0
TARGET_EXPERT_P95_MS = 2.0


def positions(count: int) -> list[tuple[GameView, list[SeatCommand]]]:
    """Decisions with more than one legal command, from seeded greedy games."""
    out: list[tuple[GameView, list[SeatCommand]]] = []
    rulesets = [preset("advanced_all", 2, end_mode=EndMode.QUICK),
                preset("classic", 4, end_mode=EndMode.QUICK)]
    game = 0
    while len(out) < count:
        ruleset = rulesets[game % 2]
        rng = random.Random(game)
        _, state = execute(new_game(ruleset), StartGame(game.to_bytes(32, "big")), None)
        step = 0
        while state.status != "finished":
            seat = state.pending_seats()[0]
            view, legal = player_view(state, seat), legal_commands(state, seat)
            if len(legal) > 1 and step % 7 == 0:  # spread over the game
                out.append((view, legal))
            _, state = execute(state, greedy_policy(view, legal, rng), seat)
            step += 1
        game += 1
    return out[:count]


def searched(bot: Ismcts, cases: Sequence[tuple[GameView, list[SeatCommand]]]
             ) -> tuple[list[Search], list[float]]:
    """Each case's search, and the CPU time the searching thread spent on it."""
    searches, cpu_s = [], []
    for i, (view, legal) in enumerate(cases):
        cpu = time.thread_time()
        searches.append(bot.search(view, legal, random.Random(i)))
        cpu_s.append(time.thread_time() - cpu)
    return searches, cpu_s


def timed(policy: object, cases: Sequence[tuple[GameView, list[SeatCommand]]]) -> list[float]:
    seconds = []
    for i, (view, legal) in enumerate(cases):
        started = time.perf_counter()
        policy(view, legal, random.Random(i))  # type: ignore[operator]
        seconds.append(time.perf_counter() - started)
    return seconds


def p95(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=120)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    cases = positions(args.positions)

    greedy_s = timed(greedy_policy, cases)
    expert_s = timed(expert_policy, cases)
    bot = LEVELS["ismcts"].policy
    assert isinstance(bot, Ismcts) and bot.iterations is not None and bot.cpu_cap_s is not None
    searches, cpu_s = searched(bot, cases)
    # The baseline in the same run: every search runs all its iterations, as before the level
    # stopped a search once its answer was out of reach (the same answers).
    whole = Ismcts(None, bot.iterations, bot.prior, bot.rollout_steps, bot.cpu_cap_s,
                   stop_when_decided=False)
    _, whole_cpu_s = searched(whole, cases)
    ismcts_s = [s.seconds for s in searches]
    iterations = sum(s.iterations for s in searches)
    capped = sum(s.capped for s in searches)

    result: dict[str, object] = {
        "decisions": len(cases),
        "greedy_p95_ms": round(p95(greedy_s) * 1000, 3),
        "expert_p95_ms": round(p95(expert_s) * 1000, 3),
        "expert_target_p95_ms": TARGET_EXPERT_P95_MS,
        "ismcts_default_iterations": bot.iterations,
        "ismcts_cpu_cap_ms": bot.cpu_cap_s * 1000,
        "ismcts_iterations_per_decision": round(iterations / len(cases), 1),
        "ismcts_min_iterations": min(s.iterations for s in searches),
        "ismcts_decided": sum(s.decided for s in searches),
        "ismcts_capped": capped,
        "ismcts_target_capped": TARGET_ISMCTS_CAPPED,
        "ismcts_iterations_per_cpu_s": round(iterations / sum(cpu_s)),
        "ismcts_cpu_p50_ms": round(statistics.median(cpu_s) * 1000, 1),
        "ismcts_cpu_p95_ms": round(p95(cpu_s) * 1000, 1),
        "ismcts_cpu_max_ms": round(max(cpu_s) * 1000, 1),
        "ismcts_target_cpu_p95_ms": TARGET_ISMCTS_P95_MS,
        "ismcts_whole_search_cpu_p50_ms": round(statistics.median(whole_cpu_s) * 1000, 1),
        "ismcts_whole_search_cpu_p95_ms": round(p95(whole_cpu_s) * 1000, 1),
        "ismcts_wall_p50_ms": round(statistics.median(ismcts_s) * 1000, 1),
        "ismcts_wall_p95_ms": round(p95(ismcts_s) * 1000, 1),
        "ismcts_wall_max_ms": round(max(ismcts_s) * 1000, 1),
    }
    missed = [name for name, ok in (
        ("ismcts_cpu_p95_ms", p95(cpu_s) * 1000 <= TARGET_ISMCTS_P95_MS),
        ("ismcts_capped", capped <= TARGET_ISMCTS_CAPPED),
        ("expert_p95_ms", p95(expert_s) * 1000 <= TARGET_EXPERT_P95_MS),
    ) if not ok]
    result["missed"] = missed
    print(json.dumps(result))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
