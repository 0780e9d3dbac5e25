"""Web client benchmark: Debian's Chromium driven by Playwright against one API process on
loopback (uvicorn as `scripts/serve.sh` runs it, a fresh SQLite file, rate limits off).

(a) JS + CSS + SVG the table loads (uncompressed bytes, every script, stylesheet and picture
    a cold load of `#/game/ID` fetches; the cards' pictures are inline SVG in pictures.js)
                                                                            — target ≤ 200 KB
(b) the page's own command: from its POST leaving `fetch` to the first animation frame after
    the table shows the answer's version, p95 (the table is drawn in its new state at once;
    the replay of the move's events runs after that frame)                  — target ≤ 50 ms
    Reported with it: the part until the POST's answer is in (the server's), and the part
    after it (the page's: its GET /turn and the drawing).
(c) another seat's command: from the moment the other player (a scripted client in this
    process) sends its POST to the first frame after this page shows that version, which
    reaches it over the event stream, p95 (the clock starts before the commit, not after)
                                                                            — target ≤ 100 ms
(d) a cold load of a game's table (a new browser context, nothing cached): from navigation
    start to the first frame that shows the table, the slowest of the loads — target ≤ 500 ms

(b) and (c) come from the same 2-player games: the page's player clicks the moves a person
would (the first offered), the other seat answers through the API. Prints the figures and
targets as one JSON object on its last line; exits 1 on a miss.

    .venv/bin/python bench/web.py [--samples N] [--loads N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.processes import free_port, wait_healthy  # noqa: E402  (from the root, put first above)

CHROMIUM = os.environ.get("CYA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TARGETS = {"table_js_css_svg_kb": 200.0, "own_command_p95_ms": 50.0,
           "other_seat_p95_ms": 100.0, "cold_first_render_ms": 500.0}

# Timing hooks put in the page before its own scripts run. They only watch: the fetch wrapper
# notes when a command POST leaves and which version it answered; a MutationObserver notes
# when the table first shows a version, and the next animation frame is when it is painted.
PROBE = r"""
window.__bench = {posts: [], shown: {}, firstTable: null};
const realFetch = window.fetch;
window.fetch = function (url, init) {
  const p = realFetch.apply(this, arguments);
  if (init && init.method === 'POST' && /\/commands(\?|$)/.test(String(url))) {
    const t0 = performance.timeOrigin + performance.now();
    p.then(r => r.clone().json()).then(b => window.__bench.posts.push(
      {t0, answered: performance.timeOrigin + performance.now(), version: b.version}));
  }
  return p;
};
new MutationObserver(() => {
  const board = document.querySelector('.board');
  if (!board) return;
  const v = Number(board.dataset.version);
  if (window.__bench.firstTable === null) {
    requestAnimationFrame(() => { window.__bench.firstTable = performance.now(); });
  }
  if (v && !(v in window.__bench.shown)) {
    window.__bench.shown[v] = null;
    requestAnimationFrame(() => {
      window.__bench.shown[v] = performance.timeOrigin + performance.now();
    });
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


class Server:
    def __init__(self, workdir: Path) -> None:
        self.url = f"http://127.0.0.1:{free_port()}"
        env = {**os.environ, "CYA_DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/cya.sqlite3",
               "CYA_RATE_LIMIT_PER_MINUTE": "0"}
        for name in ("CYA_REDIS_URL", "CYA_BOT_DELAY_MS", "CYA_SCHEDULER", "CYA_DUE_WORK"):
            env.pop(name, None)
        subprocess.run([str(Path(sys.executable).parent / "cya"), "db", "upgrade"], cwd=ROOT,
                       env=env, check=True, capture_output=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "service.http.app:app_from_env",
             "--host", "127.0.0.1", "--port", self.url.rsplit(":", 1)[1], "--no-access-log",
             "--log-level", "warning"], cwd=ROOT, env=env)
        wait_healthy(self.url)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def player(server: Server, name: str) -> tuple[httpx.Client, dict[str, Any]]:
    made = httpx.post(f"{server.url}/v1/players", json={"name": name}).json()
    return httpx.Client(base_url=server.url,
                        headers={"Authorization": f"Bearer {made['api_key']}"}), made


def new_game(ada: httpx.Client, bob: httpx.Client) -> str:
    game = ada.post("/v1/games", json={"ruleset": {"players": 2, "end_mode": "quick"}}
                    ).json()["game_id"]
    bob.post(f"/v1/games/{game}/seats").raise_for_status()
    ada.post(f"/v1/games/{game}/start").raise_for_status()
    return game


def open_table(browser: Any, server: Server, who: dict[str, Any], game: str) -> Page:
    context = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900})
    context.add_init_script(
        f"localStorage.setItem('cya.key', {json.dumps(who['api_key'])});"
        f"localStorage.setItem('cya.name', {json.dumps(who['name'])});"
        f"localStorage.setItem('cya.player', {json.dumps(who['player_id'])});" + PROBE)
    page = context.new_page()
    page.goto(f"/#/game/{game}")
    page.wait_for_selector(".board")
    return page


SHOWN = """v => { const t = Object.entries(window.__bench.shown)
    .filter(([k, x]) => Number(k) >= v && x !== null).map(([, x]) => x);
  return t.length ? Math.min(...t) : null; }"""


def shown_at(page: Page, version: int) -> float:
    """Epoch ms of the first frame that showed `version` (or a later one). The wait runs in
    the page (once a frame), so the bench does not keep the page's thread busy asking."""
    return float(page.wait_for_function(SHOWN, arg=version, timeout=10_000).json_value())


def play(browser: Any, server: Server, samples: int
         ) -> tuple[list[float], list[float], list[float], list[float], float]:
    """Games until both kinds of sample are in; also the JS + CSS a table loads."""
    ada, ada_made = player(server, "ada")
    bob, _ = player(server, "bob")
    rng = random.Random(1)
    own: list[float] = []
    answers: list[float] = []  # the part of `own` until the POST's answer is in
    page_part: list[float] = []  # the rest: the page's reload (GET /turn) and drawing
    other: list[float] = []
    shipped = 0.0
    while len(own) < samples or len(other) < samples:
        game = new_game(ada, bob)
        page = open_table(browser, server, ada_made, game)
        if not shipped:
            shipped = page.evaluate(
                "performance.getEntriesByType('resource').filter(e => /\\.(js|css|svg)$/"
                ".test(new URL(e.name).pathname)).reduce((n, e) => n + e.decodedBodySize, 0)")
        while page.locator(".game-over").count() == 0:
            legal = bob.get(f"/v1/games/{game}/legal-commands").json()["commands"]
            if legal:
                sent = time.time() * 1000
                version = bob.post(f"/v1/games/{game}/commands",
                                   json=rng.choice(legal)).json()["version"]
                other.append(shown_at(page, version) - sent)
                continue
            button = page.locator(".move-list button.move:not([disabled])")
            if not button.count():
                time.sleep(0.005)
                continue
            posts = page.evaluate("window.__bench.posts.length")
            button.first.click()
            post = page.wait_for_function("n => window.__bench.posts.length > n && "
                                          "window.__bench.posts.at(-1)", arg=posts).json_value()
            own.append(shown_at(page, post["version"]) - post["t0"])
            answers.append(post["answered"] - post["t0"])
            page_part.append(own[-1] - answers[-1])
        page.context.close()
    return own, answers, page_part, other, shipped / 1024


def cold_loads(browser: Any, server: Server, loads: int) -> list[float]:
    ada, made = player(server, "cold")
    bob, _ = player(server, "cold-bob")
    game = new_game(ada, bob)
    times = []
    for _ in range(loads):
        page = open_table(browser, server, made, game)
        page.wait_for_function("window.__bench.firstTable !== null")
        times.append(float(page.evaluate("window.__bench.firstTable")))
        page.context.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--loads", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                cold = cold_loads(browser, server, args.loads)
                own, answers, page_part, other, kb = play(browser, server, args.samples)
                browser.close()
        finally:
            server.stop()
    figures = {
        "table_js_css_svg_kb": round(kb, 1),
        "own_command_p50_ms": round(statistics.median(own), 1),
        "own_command_p95_ms": round(pct(own, 0.95), 1),
        "own_command_post_answered_p50_ms": round(statistics.median(answers), 1),
        "own_command_post_answered_p95_ms": round(pct(answers, 0.95), 1),
        "own_command_after_answer_p50_ms": round(statistics.median(page_part), 1),
        "own_command_after_answer_p95_ms": round(pct(page_part, 0.95), 1),
        "other_seat_p50_ms": round(statistics.median(other), 1),
        "other_seat_p95_ms": round(pct(other, 0.95), 1),
        "cold_first_render_median_ms": round(statistics.median(cold), 1),
        "cold_first_render_ms": round(max(cold), 1),
        "own_samples": len(own), "other_samples": len(other), "loads": len(cold),
    }
    met = {k: figures[k] <= target for k, target in TARGETS.items()}
    print(json.dumps({"benchmark": "web", **figures, "targets": TARGETS, "met": met,
                      "ok": all(met.values())}))
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
