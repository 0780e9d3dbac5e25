"""Browser tests: Debian's Chromium driven by Playwright against a real server process.

The server runs as `scripts/serve.sh` runs it (uvicorn, the app factory, its in-process bots
and clocks) on a temporary SQLite file and a free port. Playwright's own browser download is
out of reach here, so it drives /usr/bin/chromium (`.ci/run` installs the package).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.processes import ROOT, free_port, wait_healthy

playwright_api = pytest.importorskip("playwright.sync_api")
# What a page shows after a server's answer can take a few seconds on a busy machine (other
# suites share its two cores): wait for it as long as a person would, not Playwright's 5 s.
playwright_api.expect.set_options(timeout=20_000)

CHROMIUM = os.environ.get("CYA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).parent / "screenshots"
AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1" / "axe.min.js"
WIDTHS = (375, 1280)
STARTUP_S = 90

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


class Server:
    """One API process on a SQLite file; `restart` stops it and starts it again on the same
    port and file, as an operator's restart would."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = workdir / "cya.sqlite3"
        self.log = workdir / "api.log"
        self.env = {**os.environ, "CYA_DATABASE_URL": f"sqlite+aiosqlite:///{self.db}"}
        for name in ("CYA_REDIS_URL", "CYA_BOT_DELAY_MS", "CYA_SCHEDULER", "CYA_DUE_WORK"):
            self.env.pop(name, None)
        subprocess.run([str(Path(sys.executable).parent / "cya"), "db", "upgrade"], cwd=ROOT,
                       env=self.env, check=True, capture_output=True)
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory", "service.http.app:app_from_env",
                 "--host", "127.0.0.1", "--port", str(self.port), "--no-access-log",
                 "--log-level", "warning"],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        # Starting takes seconds of imports: far longer when other suites load the machine.
        wait_healthy(self.url, timeout_s=STARTUP_S)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


# Package scope: Playwright's sync API keeps an event loop running in this thread while it
# lives, and the suites after this one call asyncio.run().
@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web"))
    yield s
    s.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Person:
    """One person at one browser (a context of its own: its own localStorage, its own key).
    Console errors and uncaught exceptions are collected; the test fails if any appear."""

    def __init__(self, browser: object, server: Server, name: str) -> None:
        self.name = name
        self.context = browser.new_context(  # type: ignore[attr-defined]
            base_url=server.url, viewport={"width": 1280, "height": 900})
        self.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                       origin=server.url)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.allowed_errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        # A failed request's console line does not say which: keep the addresses for that.
        self.page.on("response", lambda r: r.status >= 400 and self.errors.append(
            f"(answer {r.status} {r.request.method} {r.url} {r.text()[:200]})"))

    def unexpected_errors(self) -> list[str]:
        found = [e for e in self.errors if not any(a in e for a in self.allowed_errors)]
        return found if any(not e.startswith("(answer") for e in found) else []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    report = yield
    if report.when == "call":  # type: ignore[attr-defined]
        item.stash[FAILED] = report.failed  # type: ignore[attr-defined]
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def people(request: pytest.FixtureRequest, browser: object, server: Server
           ) -> Iterator[Callable[[str], Person]]:
    made: list[Person] = []

    def person(name: str, on: Server = server) -> Person:
        made.append(Person(browser, on, name))
        return made[-1]

    yield person
    if request.node.stash.get(FAILED, False):  # what each person saw when it went wrong
        SCREENSHOTS.mkdir(exist_ok=True)
        for p in made:
            p.page.screenshot(path=str(SCREENSHOTS / f"failed-{p.name}.png"), full_page=True)
    errors = {p.name: p.unexpected_errors() for p in made}
    for p in made:
        p.context.close()
    assert not any(errors.values()), f"console errors: {errors}"


def screenshot(page: object, name: str) -> None:
    """The screen as a person sees it at a phone's and a desktop's width."""
    SCREENSHOTS.mkdir(exist_ok=True)
    size = page.viewport_size  # type: ignore[attr-defined]
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})  # type: ignore[attr-defined]
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True)  # type: ignore[attr-defined]
        # Nothing wider than the screen: a phone would scroll sideways to read it.
        wide = page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
        assert wide <= width, f"{name} is {wide} px wide at {width} px"
    page.set_viewport_size(size)  # type: ignore[attr-defined]


def serious_accessibility_issues(page: object) -> list[str]:
    """axe-core's serious and critical findings on the page as it is."""
    if not page.evaluate("typeof axe !== 'undefined'"):  # type: ignore[attr-defined]
        page.add_script_tag(path=str(AXE))  # type: ignore[attr-defined]
    # The motion layer holds fading copies of cards in flight (aria-hidden, no clicks): the
    # cards themselves are checked where the table shows them.
    found = page.evaluate(  # type: ignore[attr-defined]
        "axe.run({exclude: [['.motion-layer']]}).then(r => r.violations)")
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in ("serious", "critical")]
