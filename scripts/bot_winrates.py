"""Measure how often one bot level wins alone against random bots in the other seats.

    .venv/bin/python scripts/bot_winrates.py --games 5000 --preset classic --players 4

Game n uses master seed n (32 bytes, big-endian) and bot rng seed n; the measured bot sits in
seat n mod players. A shared win counts as a loss.
"""

from __future__ import annotations

import argparse
import time

from cya_rules import Edition, EndMode, preset
from cya_rules.bots import POLICIES
from cya_rules.bots.trials import head_to_head


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="greedy", choices=sorted(POLICIES))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--preset", default="classic", choices=["classic", "advanced_all"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="en_2022", choices=[e.value for e in Edition])
    parser.add_argument("--end-mode", default="quick", choices=[m.value for m in EndMode])
    args = parser.parse_args()
    ruleset = preset(
        args.preset, args.players, Edition(args.edition), end_mode=EndMode(args.end_mode)
    )
    started = time.perf_counter()
    sole, shared = head_to_head(ruleset, args.games, args.level)
    seconds = time.perf_counter() - started
    print(
        f"{args.level} vs random, {args.preset} {args.edition} {args.players}p {args.end_mode}: "
        f"sole wins {sole / args.games:.1%}, shared {shared / args.games:.1%} "
        f"over {args.games} games ({seconds:.1f} s)"
    )


if __name__ == "__main__":
    main()
