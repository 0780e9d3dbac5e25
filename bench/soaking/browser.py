"""People in Chromium (Debian's, /usr/bin/chromium, driven by Playwright; never a downloaded
browser) playing through the web client: each page opens its player's table and clicks the
move a person who likes challenges would (`tests/web/steps.py`), until the game is over.

Playwright's sync API runs on a thread of its own, which drives every open page in turn.
What each page held (the card ids in its DOM and state, with the version it showed) is kept
for the leak check, which is the browser tests' (`tests.web.steps.leaks`).
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from .calls import Calls

CHROMIUM = os.environ.get("CYA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGE_LIMIT_S = 900.0


@dataclass
class PageResult:
    game_id: str
    snapshots: list[tuple[int, set[str]]] = field(default_factory=list)
    shown: int = 0  # the version the page showed last
    over: bool = False  # it showed the final scores
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    streams_opened: int = 0  # the table's event stream, first opening included


@dataclass
class _Open:
    url: str
    player: dict[str, Any]
    game_id: str
    done: Future[PageResult]
    page: Any = None
    result: PageResult | None = None
    since: float = field(default_factory=time.monotonic)
    loaded: bool = False


class Browser:
    def __init__(self, calls: Calls) -> None:
        self.calls = calls
        self._asked: queue.Queue[_Open | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, daemon=True, name="browser")
        self.open_pages = 0
        self.failure: str | None = None
        self._pages: list[_Open] = []  # the browser thread's own

    def start(self) -> None:
        self._thread.start()

    def play(self, url: str, player: dict[str, Any], game_id: str) -> Future[PageResult]:
        done: Future[PageResult] = Future()
        self.open_pages += 1
        done.add_done_callback(lambda _: setattr(self, "open_pages", self.open_pages - 1))
        self._asked.put(_Open(url, player, game_id, done))
        return done

    def stop(self) -> None:
        self._asked.put(None)
        self._thread.join(30)

    def _run(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                self._drive(browser)
                browser.close()
        except Exception as e:  # every page open or asked for fails with it
            self.failure = repr(e)
            for item in self._pages:
                if not item.done.done():
                    item.done.set_exception(e)
            while True:
                try:
                    item = self._asked.get_nowait()
                except queue.Empty:
                    break
                if item is not None and not item.done.done():
                    item.done.set_exception(e)

    def _drive(self, browser: Any) -> None:
        pages = self._pages
        while True:
            try:
                while (item := self._asked.get(timeout=0.05 if pages else 1.0)) is not None:
                    self._open(browser, item)
                    pages.append(item)
            except queue.Empty:
                pass
            else:  # None: stop
                for item in pages:
                    self._close(item)
                return
            for item in list(pages):
                if self._step(item):
                    self._close(item)
                    pages.remove(item)

    def _open(self, browser: Any, item: _Open) -> None:
        who = item.player
        context = browser.new_context(base_url=item.url,
                                      viewport={"width": 1280, "height": 900})
        context.add_init_script(
            f"localStorage.setItem('cya.key', {json.dumps(who['api_key'])});"
            f"localStorage.setItem('cya.name', {json.dumps(who['name'])});"
            f"localStorage.setItem('cya.player', {json.dumps(who['player_id'])});")
        page = context.new_page()
        result = item.result = PageResult(item.game_id)
        page.on("pageerror", lambda e: result.errors.append(f"uncaught: {e}"))
        page.on("response", lambda r: r.status >= 500 and self.calls.note(
            f"{r.request.method} (browser) {r.url.split('?')[0][-40:]}", r.status,
            time.time(), 0.0))
        page.on("request", lambda r: "event-stream" in r.headers.get("accept", "")
                and setattr(result, "streams_opened", result.streams_opened + 1))
        item.page = page
        self._load(item)

    @staticmethod
    def _load(item: _Open) -> None:
        """The table's page; a failure (its API process down for a fault) is tried again at
        the next look."""
        from playwright.sync_api import Error as PlaywrightError

        assert item.result is not None
        try:
            item.page.goto(f"/#/game/{item.game_id}")
            item.loaded = True
        except PlaywrightError as e:
            item.result.errors.append(f"loading: {str(e)[:200]}")

    def _step(self, item: _Open) -> bool:
        """One look at the page, and a move when it offers one. True: the page is done."""
        from playwright.sync_api import Error as PlaywrightError

        from tests.web.steps import cards_on_page, play_one_move, shown_version

        page, result = item.page, item.result
        assert result is not None
        if not item.loaded:
            self._load(item)
            return False
        try:
            if page.locator(".game-over").count():
                result.snapshots.append(cards_on_page(page))
                result.shown, result.over = shown_version(page), True
                return True
            if page.locator(".move-list button.move:not([disabled])").count():
                result.snapshots.append(cards_on_page(page))
                play_one_move(page)
                result.moves += 1
            result.shown = shown_version(page) or result.shown
        except (PlaywrightError, AssertionError, ValueError) as e:
            result.errors.append(f"{type(e).__name__}: {str(e)[:200]}")
        return time.monotonic() - item.since > PAGE_LIMIT_S

    @staticmethod
    def _close(item: _Open) -> None:
        if item.page is not None:
            item.page.context.close()
        if item.result is not None and not item.done.done():
            item.done.set_result(item.result)
