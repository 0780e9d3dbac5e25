"""`cya-bot simulate` benchmark (issue 41 part 3): four-player games a second on one core,
the SDK's greedy example (its own `choose(view, legal)`, on the SDK's models) against three
built-in greedy bots, as `cya-bot simulate clients/python/examples/greedy_bot.py --against
greedy --players 4` plays them.

Baseline in the same run: the same deals played by four built-in greedy bots with
`cya_rules.bots.play_game`, on the engine's own values, so the cost of the SDK's models shows.
The two alternate in rounds, so that a busy machine slows both alike. Also the conversion
alone, per decision of the bot. Prints one JSON object on the last line; exits 1 on a miss.

    .venv/bin/python bench/simulate.py [--games 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "clients" / "python" / "examples" / "greedy_bot.py"
TARGET_GAMES_PER_S = 50.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games a side (default 300)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternate the two sides this many times (default 3)")
    args = parser.parse_args()

    from cya_client.bot.loading import load_choose
    from cya_client.simulate.games import Settings, deal_seed, play, schedule

    from cya_rules import EndMode, RuleSet
    from cya_rules.bots import greedy_policy, play_game

    ruleset = RuleSet(players=4, end_mode=EndMode.QUICK).for_new_game()
    settings = Settings(ruleset, ("greedy",), games=args.games, seed=0)
    games = schedule(settings)
    choose = load_choose(EXAMPLE)
    chunks = [games[i::args.rounds] for i in range(args.rounds)]
    timed = {"simulate": 0.0, "baseline": 0.0}
    decisions = 0
    for chunk in chunks:
        started = time.perf_counter()
        for game in chunk:
            decisions += play(settings, game, choose).decisions
        timed["simulate"] += time.perf_counter() - started
        started = time.perf_counter()
        for game in chunk:
            play_game(ruleset, deal_seed(settings, game), [greedy_policy] * 4,
                      rng_seed=game.number)
        timed["baseline"] += time.perf_counter() - started
    conversion_us = _conversion_us(ruleset)
    simulate_rate = len(games) / timed["simulate"]
    baseline_rate = len(games) / timed["baseline"]
    figures = {
        "games": len(games),
        "players": 4,
        "simulate_games_per_s": round(simulate_rate, 1),
        "baseline_play_game_games_per_s": round(baseline_rate, 1),
        "simulate_vs_baseline": round(simulate_rate / baseline_rate, 3),
        "bot_decisions_per_game": round(decisions / len(games), 1),
        "conversion_us_per_decision": round(conversion_us, 1),
        # The models' share of a simulated game's time.
        "conversion_share": round(conversion_us * decisions / len(games) * simulate_rate / 1e6,
                                  4),
        "target_simulate_games_per_s": TARGET_GAMES_PER_S,
        "met": simulate_rate >= TARGET_GAMES_PER_S,
    }
    print(json.dumps(figures))
    return 0 if figures["met"] else 1


def _conversion_us(ruleset: object) -> float:
    """Median time, per decision of seat 0, to turn the engine's view and legal commands into
    the SDK's models and the chosen one back (`cya_client.simulate.convert`)."""
    import random

    from cya_client.simulate.convert import commands_of, engine_command, view_of

    from cya_rules import RuleSet
    from cya_rules.bots import greedy_policy, play_game

    assert isinstance(ruleset, RuleSet)
    samples: list[float] = []

    def timed(view, legal, rng):  # type: ignore[no-untyped-def]
        if view.viewer == 0:
            started = time.perf_counter()
            offered = commands_of(legal)
            engine_command(offered[-1], offered, legal)
            view_of(view)
            samples.append((time.perf_counter() - started) * 1e6)
        return greedy_policy(view, legal, rng)

    for game in range(20):
        play_game(ruleset, random.Random(game).randbytes(32), [timed] * 4, rng_seed=game)
    return statistics.median(samples)


if __name__ == "__main__":
    sys.exit(main())
