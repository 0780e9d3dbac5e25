"""Measure how often one bot level wins alone against random bots in the other seats.

    .venv/bin/python scripts/bot_winrates.py --games 5000 --preset classic --players 4

Game n uses master seed n (32 bytes, big-endian) and bot rng seed n; the measured bot sits in
seat n mod players. A shared win counts as a loss.
"""

from __future__ import annotations

import argparse
import time

from service.domain import Edition, EndMode, preset
from service.domain.bots import POLICIES, play_game, random_policy


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
    sole = shared = 0
    started = time.perf_counter()
    for game in range(args.games):
        seat = game % args.players
        policies = [random_policy] * args.players
        policies[seat] = POLICIES[args.level]
        _, final = play_game(ruleset, game.to_bytes(32, "big"), policies, rng_seed=game)
        sole += final.winners == (seat,)
        shared += seat in final.winners and len(final.winners) > 1
    seconds = time.perf_counter() - started
    print(
        f"{args.level} vs random, {args.preset} {args.edition} {args.players}p {args.end_mode}: "
        f"sole wins {sole / args.games:.1%}, shared {shared / args.games:.1%} "
        f"over {args.games} games ({seconds:.1f} s)"
    )


if __name__ == "__main__":
    main()
