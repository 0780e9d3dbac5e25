"""Outbound safety: no redirects followed, a size limit on answers, a total timeout, and no
connection to private, loopback or link-local addresses unless the settings allow it. (Only
loopback receivers are ever connected to: the other refused addresses are refused before any
packet is sent.)"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from service.webhooks.outbound import Outbound
from service.webhooks.settings import WebhookSettings

from .servers import Answer, Receiver, player, serving


async def ok(headers: dict[str, str], body: bytes) -> Answer:
    return 200, b"{}"


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9/hook", "http://localhost/hook", "http://[::1]/hook",
    "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/", "http://192.168.1.1/",
    "http://[::ffff:127.0.0.1]/", "ftp://example.com/", "http://user:pw@127.0.0.1/",
    "not a url", "http:///nohost"])
def test_given_production_settings_when_a_url_is_private_or_malformed_then_it_is_refused(
        strict_api: httpx.Client, url: str) -> None:
    who = player(strict_api, "ssrf")
    for path, body in (("/v1/webhooks/bot", {"url": url}),
                       ("/v1/webhooks/subscriptions", {"url": url, "event_types": ["events"]})):
        r = who.post(path, body)
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "webhook_url_refused"


def test_given_production_settings_when_sending_to_loopback_then_no_connection_is_made() -> None:
    receiver = Receiver(ok)
    with serving(receiver) as url:
        answer = asyncio.run(_post(WebhookSettings(), url))
        assert answer.kind == "refused" and "loopback" in (answer.error or "")
        assert receiver.received == []
        allowed = asyncio.run(_post(WebhookSettings(allow_private=True), url))
        assert allowed.ok and len(receiver.received) == 1


def test_given_a_redirect_then_it_is_not_followed() -> None:
    target = Receiver(ok)
    with serving(target) as target_url, serving(_Redirecting(target_url)) as url:
        answer = asyncio.run(_post(WebhookSettings(allow_private=True), url))
    assert answer.kind == "http_error" and answer.status == 307
    assert "redirects are not followed" in (answer.error or "")
    assert target.received == []


def test_given_a_long_answer_then_it_is_cut_at_the_limit() -> None:
    async def long(headers: dict[str, str], body: bytes) -> Answer:
        return 200, b"x" * 100_000

    with serving(Receiver(long)) as url:
        answer = asyncio.run(_post(WebhookSettings(allow_private=True,
                                                   max_answer_bytes=1000), url))
    assert answer.kind == "too_large" and answer.body == b""


def test_given_a_slow_receiver_then_the_total_timeout_ends_the_request() -> None:
    async def slow(headers: dict[str, str], body: bytes) -> Answer:
        await asyncio.sleep(2)
        return 200, b"{}"

    with serving(Receiver(slow)) as url:
        answer = asyncio.run(_post(WebhookSettings(allow_private=True,
                                                   total_timeout_s=0.3), url))
    assert answer.kind == "timeout" and answer.latency_ms < 1500


async def _post(settings: WebhookSettings, url: str):  # type: ignore[no-untyped-def]
    outbound = Outbound(settings)
    try:
        return await outbound.post(url, b"{}", {"content-type": "application/json"})
    finally:
        await outbound.close()


class _Redirecting:
    """Answers every request with a redirect to `target`."""

    def __init__(self, target: str) -> None:
        self.target = target

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await send({"type": "http.response.start", "status": 307,
                    "headers": [(b"location", self.target.encode())]})
        await send({"type": "http.response.body", "body": b""})
