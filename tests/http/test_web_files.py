"""The web client's files at `/` and the API reference's vendored scripts: no key needed, no
rate limit counted, and the API's own routes and 404s unchanged beside them."""

from __future__ import annotations

import re

import anyio.to_thread
import httpx
from litestar import Litestar
from litestar.testing import TestClient

from service.http.web import WEB_DIR, web_router

from .conftest import Live


def test_given_no_key_when_the_page_and_its_modules_are_fetched_then_they_are_served_unlimited(
    sqlite_live: Live,
) -> None:
    with httpx.Client(base_url=sqlite_live.url) as client:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "ratelimit-limit" not in page.headers
        modules = re.findall(r'href="/(\w+\.js)"', page.text)
        for name in ["app.js", *modules, "style.css"]:
            answer = client.get(f"/{name}")
            assert answer.status_code == 200, name
            assert "ratelimit-limit" not in answer.headers, name
        assert client.get("/v1/rulesets").headers["ratelimit-limit"]  # the API still counts


def test_given_the_index_then_it_preloads_modules_that_exist_and_uses_no_cdn() -> None:
    index = (WEB_DIR / "index.html").read_text()
    for name in re.findall(r'href="/(\w+\.js)"', index):
        assert (WEB_DIR / name).is_file(), name
    for path in WEB_DIR.glob("*.*"):
        assert "https://" not in path.read_text(), f"{path.name} names an outside address"


def test_given_the_docs_then_their_scripts_come_from_this_server(sqlite_live: Live) -> None:
    with httpx.Client(base_url=sqlite_live.url) as client:
        for page in ("/docs", "/docs/swagger"):
            html = client.get(page).text
            sources = re.findall(r'(?:src|href)="([^"]+)"', html)
            assert sources and all(s.startswith("/") for s in sources), (page, sources)
            for source in sources:
                if not source.startswith("/docs"):
                    assert client.get(source).status_code == 200, source


def test_given_an_unknown_api_path_then_it_is_still_the_apis_problem_404(
    sqlite_live: Live,
) -> None:
    with httpx.Client(base_url=sqlite_live.url) as client:
        answer = client.get("/v1/no-such-thing")
        assert answer.status_code == 404
        assert answer.json()["code"] == "not_found"
        assert client.get("/no-such-file.js").status_code == 404


def test_given_the_web_files_then_serving_them_never_waits_for_a_thread(monkeypatch) -> None:
    """A worker thread that must start first blocks the event loop until it runs: up to
    360 ms on a busy machine (bench/soak.py's loop lag)."""
    threads: list[object] = []

    async def in_a_thread(function: object, *args: object, **kwargs: object) -> object:
        threads.append(function)
        return await run_sync(function, *args, **kwargs)

    run_sync = anyio.to_thread.run_sync
    monkeypatch.setattr(anyio.to_thread, "run_sync", in_a_thread)
    with TestClient(Litestar([web_router()])) as client:
        page = client.get("/")
        script = client.get("/app.js")
        missing = client.get("/no-such-file.js")

    assert page.status_code == 200 and page.text == (WEB_DIR / "index.html").read_text()
    assert script.content == (WEB_DIR / "app.js").read_bytes()
    assert script.headers["etag"] and missing.status_code == 404
    assert threads == []
