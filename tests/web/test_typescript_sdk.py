"""The TypeScript SDK in a browser (Chromium), as a page of another origin would use it: the
compiled ES modules (clients/typescript/dist/src) imported by a page that a second local HTTP
server serves, calling the real API server on its own port: another origin (CORS). It creates
a player, plays a game to its end with the bot runner (news stream, commands with `If-Match`
and `Idempotency-Key`), follows the game's event stream and reads a typed problem."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.typescript import build

from .conftest import Person, Server


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def origin() -> Iterator[str]:
    """The package's folder over HTTP on a port of its own: dist/ compiled first."""
    folder = build().parent
    (folder / "dist" / "index.html").write_text("<!doctype html><title>sdk</title>")
    http = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{http.server_address[1]}"
    http.shutdown()
    http.server_close()


PLAY = """async (api) => {
  const sdk = await import("/dist/src/index.js");
  const { Runner, defaultPlan } = await import("/dist/src/bot/runner.js");
  const cya = new sdk.Client(api);
  cya.apiKey = (await cya.players.create("browser-bot")).api_key;
  const runner = new Runner(cya, (view, legal) => legal[legal.length - 1],
                            defaultPlan({ new: true, players: 2, bots: ["random"], games: 1 }));
  const [result] = await runner.run();
  const versions = [];
  for await (const item of cya.follow.stream(result.gameId)) versions.push(item.version);
  let problem = null;
  try { await cya.games.get("no-such-game"); } catch (e) {
    problem = { game_not_found: e instanceof sdk.GameNotFound, code: e.code, status: e.status };
  }
  return { decisions: result.decisions, errors: result.errors + runner.errors,
           totals: result.totals.length, versions, problem, node: typeof process };
}"""


def test_given_a_page_of_another_origin_then_the_sdk_plays_a_game_in_the_browser(
        people: Any, server: Server, origin: str) -> None:
    person: Person = people("sdk")
    person.allowed_errors.append("404")  # the unknown game it asks for on purpose
    person.page.goto(f"{origin}/dist/index.html")
    outcome = person.page.evaluate(PLAY, server.url)

    assert outcome["node"] == "undefined"  # a browser's globals, not Node's
    assert outcome["decisions"] > 5 and outcome["errors"] == 0 and outcome["totals"] == 2
    assert outcome["versions"] == list(range(1, len(outcome["versions"]) + 1))
    assert outcome["problem"] == {"game_not_found": True, "code": "game_not_found",
                                  "status": 404}
