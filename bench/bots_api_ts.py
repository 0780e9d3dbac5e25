"""The TypeScript runner (`cya-bot` for Node, clients/typescript) against the Python one, in the
same run, on one API process of its own (uvicorn, a fresh SQLite file, bot moves in-process,
rate limits off), as bench/bots_api.py starts it:

(a) HTTP requests per own decision of the TypeScript example bot (`examples/random_bot.ts` run
    by `cya-bot`, the compiled `dist/src/bot/cli.js` that `npx cya-bot` runs) in four-player
    `quick` games against greedy, random and random, counted at the runner's `fetch`,
    everything included (the news stream, `GET /players/me`, each game's creation and start,
    every command; only the player's creation is left out): <= 1.2;
(b) the median time of such a game under `cya-bot` (Node) is <= 1.5x the median under the
    Python runner playing the Python example (`clients/python/examples/random_bot.py`), each
    from the start to the end seen by the runner. The two kinds alternate in blocks
    (`--rounds`), so that a change in the machine's load falls on both.

Prints the figures and targets as one JSON object on its last line; exits 1 on a miss.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bots_api import EXAMPLE, _player, start_server  # noqa: E402  (the same server and baseline)
from cya_client.bot import Plan, Runner  # noqa: E402
from cya_client.bot.cli import load_choose  # noqa: E402

PACKAGE = ROOT / "clients" / "typescript"
CLI = PACKAGE / "dist" / "src" / "bot" / "cli.js"
TS_EXAMPLE = PACKAGE / "examples" / "random_bot.ts"
BOTS = ["greedy", "random", "random"]
TARGETS = {"requests_per_decision": 1.2, "game_time_ratio": 1.5}


def ensure_built() -> None:
    """`npm ci` (from the committed lockfile; its `prepare` compiles dist/) when needed."""
    if not (PACKAGE / "node_modules" / ".package-lock.json").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=PACKAGE, check=True)
    subprocess.run(["npx", "tsc", "-p", "tsconfig.json"], cwd=PACKAGE, check=True)


def python_block(base: str, games: int) -> dict[str, Any]:
    starts: dict[str, float] = {}
    times: list[float] = []
    with _player(base, "python-example") as client:
        runner = Runner(client, load_choose(EXAMPLE), Plan(new=True, players=4, bots=BOTS,
                                                           games=games),
                        on_start=lambda r: starts.setdefault(r.game_id, time.perf_counter()),
                        on_result=lambda r: times.append(
                            (time.perf_counter() - starts[r.game_id]) * 1000))
        results = runner.run()
    return {"game_ms": times, "decisions": sum(r.decisions for r in results),
            "errors": runner.errors + sum(r.errors for r in results)}


def node_block(base: str, games: int) -> dict[str, Any]:
    done = subprocess.run(
        ["node", str(CLI), "play", str(TS_EXAMPLE), "--server", base, "--new", "4p",
         "--bots", ",".join(BOTS), "--games", str(games), "--quiet", "--json"],
        cwd=PACKAGE, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"cya-bot failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=20, help="games of each kind (20)")
    parser.add_argument("--rounds", type=int, default=4,
                        help="blocks of each kind, alternating (4)")
    args = parser.parse_args()
    ensure_built()
    per_block = max(args.games // args.rounds, 1)
    python_ms: list[float] = []
    node_ms: list[float] = []
    requests = decisions = errors = python_decisions = 0
    routes: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="cya-bots-api-ts-") as folder:
        proc, base = start_server(Path(folder))
        try:
            python_block(base, 1), node_block(base, 1)  # warm both paths up
            for _ in range(args.rounds):
                py = python_block(base, per_block)
                python_ms += py["game_ms"]
                python_decisions += py["decisions"]
                errors += py["errors"]
                ts = node_block(base, per_block)
                node_ms += ts["game_ms"]
                requests += ts["requests"]
                decisions += ts["decisions"]
                errors += ts["errors"]
                for route, n in ts["requests_by_route"].items():
                    routes[route] = routes.get(route, 0) + n
        finally:
            proc.terminate()
            proc.wait(10)
    node, python = statistics.median(node_ms), statistics.median(python_ms)
    figures = {
        "games_each": len(node_ms), "node_decisions": decisions, "node_requests": requests,
        "node_requests_by_route": routes,
        "requests_per_decision": round(requests / max(decisions, 1), 3),
        "node_game_ms_median": round(node, 1), "python_game_ms_median": round(python, 1),
        "game_time_ratio": round(node / python, 3), "errors": errors,
    }
    met = {"requests_per_decision": figures["requests_per_decision"] <= 1.2 and not errors,
           "game_time_ratio": figures["game_time_ratio"] <= 1.5}
    print(json.dumps({"figures": figures, "targets": TARGETS, "met": met}))
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
