"""Lighthouse (mobile) on the web client, as issue 40 asks: the start page and a table.

One API process on loopback (as bench/web.py starts it: a fresh SQLite file), a public
four-seat game dealt (a person and three bots, so it waits on the person and holds still), and
Lighthouse 12 (pinned in bench/lighthouse/package.json, installed there with `npm ci` when
missing) driving Debian's Chromium. The table is the watcher's (`#/watch/ID`): the same table
code, reached without a key, which a Lighthouse run cannot put into localStorage.

Targets: performance ≥ 95 and accessibility ≥ 98 on both pages. Lighthouse's scores are its
own simulation of a throttled phone, not a time on this machine, so there is no baseline run.
Prints one JSON object on its last line; exits 1 on a miss.

    .venv/bin/python bench/lighthouse.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent / "lighthouse"
CHROMIUM = os.environ.get("CYA_CHROMIUM", "/usr/bin/chromium")
TARGETS = {"performance": 95, "accessibility": 98}
CATEGORIES = ("performance", "accessibility", "best-practices")


def lighthouse(url: str, out: Path) -> dict[str, int]:
    subprocess.run(
        [str(HERE / "node_modules" / ".bin" / "lighthouse"), url, "--form-factor=mobile",
         "--chrome-flags=--headless=new --no-sandbox", f"--only-categories={','.join(CATEGORIES)}",
         "--output=json", f"--output-path={out}", "--quiet"],
        env={**os.environ, "CHROME_PATH": CHROMIUM}, check=True, timeout=300)
    report = json.loads(out.read_text())
    return {k: round(v["score"] * 100) for k, v in report["categories"].items()}


def main() -> int:
    argparse.ArgumentParser(description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    import httpx  # the service's dependency; the web bench's server below
    from web import Server  # bench/, first on the path of a script run from it

    if not (HERE / "node_modules").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                       check=True)
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(Path(workdir))
        try:
            key = httpx.post(f"{server.url}/v1/players", json={"name": "Ada"}).json()["api_key"]
            ada = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"})
            game = ada.post("/v1/games", json={
                "ruleset": {"players": 4, "end_mode": "quick"}, "public": True,
                "bots": [{"level": "greedy"}, {"level": "random"}, {"level": "random"}]}
                           ).json()["game_id"]
            ada.post(f"/v1/games/{game}/start").raise_for_status()
            pages = {"start": f"{server.url}/", "table": f"{server.url}/#/watch/{game}"}
            scores: dict[str, Any] = {
                name: lighthouse(url, Path(workdir) / f"{name}.json")
                for name, url in pages.items()}
        finally:
            server.stop()
    met = {f"{page}_{k}": scores[page][k] >= target
           for page in pages for k, target in TARGETS.items()}
    print(json.dumps({"benchmark": "lighthouse", "scores": scores, "targets": TARGETS,
                      "met": met, "ok": all(met.values())}))
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
