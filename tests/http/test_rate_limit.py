"""`CountingRateLimit` answers exactly as Litestar's own rate limiter does."""

from __future__ import annotations

import litestar.middleware.rate_limit as library
import pytest
from litestar import Litestar, Request, get
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.testing import TestClient

import service.http.rate_limit as ours
from service.http.rate_limit import CountingRateLimitConfig, Windows

HEADERS = ("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy")


@get("/ping")
async def ping() -> str:
    return "pong"


@get("/pong")
async def pong() -> str:
    return "ping"


def _caller(request: Request) -> str:  # type: ignore[type-arg]
    return request.headers.get("x-caller", "nobody")


def _answers(config_class: type[RateLimitConfig], monkeypatch: pytest.MonkeyPatch
             ) -> list[tuple[int, tuple[str | None, ...]]]:
    clock = [1_000_000.0]
    for module in (library, ours):
        monkeypatch.setattr(module, "time", lambda: clock[0])
    config = config_class(rate_limit=("minute", 3), identifier_for_request=_caller)
    app = Litestar([ping, pong], middleware=[config.middleware])
    out = []
    with TestClient(app) as client:
        def call(caller: str, path: str = "/ping") -> None:
            r = client.get(path, headers={"x-caller": caller})
            out.append((r.status_code, tuple(r.headers.get(h) for h in HEADERS)))

        for n in range(5):  # over the limit on two routes (one window), the clock moving on
            call("a", "/pong" if n % 2 else "/ping")
            clock[0] += 7
        call("b")  # another caller has a window of its own
        clock[0] += 60  # a's window has passed
        call("a")
        call("a")
    return out


def test_given_the_same_requests_then_statuses_and_headers_equal_litestars(monkeypatch):
    answers = _answers(CountingRateLimitConfig, monkeypatch)

    assert answers == _answers(RateLimitConfig, monkeypatch)
    assert [status for status, _ in answers] == [200, 200, 200, 429, 429, 200, 200, 200]
    assert [headers[1] for _, headers in answers] == ["2", "1", "0", "0", "0", "2", "2", "1"]


def test_given_many_callers_whose_windows_passed_then_they_are_forgotten(monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(ours, "time", lambda: clock[0])
    windows = Windows()
    for n in range(1500):
        windows.put(f"old{n}", 1, int(clock[0]) + 60)
    clock[0] += 61
    for n in range(600):
        windows.put(f"new{n}", 1, int(clock[0]) + 60)

    assert len(windows) <= 1024
    assert windows["new0"] == (1, int(clock[0]) + 60)
