"""The URL policy, defence in depth against SSRF: an IPv6 address that carries an IPv4 one
(NAT64, 6to4, IPv4-mapped, -compatible and -translated, Teredo) is judged by the IPv4 address
a translator or tunnel would reach, at registration (through the API, on a real server) and at
every connection (where the delivery resolves the host); and a URL that could not be sent as
written (control characters, spaces, port 0) is refused when it is registered."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from service.events.tables import webhook_subscriptions
from service.webhooks.destinations import check_url, reached, refusal
from service.webhooks.outbound import Outbound
from service.webhooks.settings import WebhookSettings

from .conftest import HOOKS, service
from .servers import player, wait_for
from .test_event_webhooks import deliveries, subscribe

# The metadata service (169.254.169.254), loopback and a private network, carried in IPv6.
EMBEDDING_INTERNAL = {
    "NAT64": "64:ff9b::a9fe:a9fe",
    "NAT64 (dotted)": "64:ff9b::169.254.169.254",
    "local-use NAT64": "64:ff9b:1:a9fe:a900:fe00::",
    "6to4": "2002:a9fe:a9fe::1",
    "6to4 of loopback": "2002:7f00:1::1",
    "IPv4-compatible": "::127.0.0.1",
    "IPv4-compatible private": "::10.0.0.1",
    "IPv4-mapped": "::ffff:169.254.169.254",
    "IPv4-translated": "::ffff:0:a9fe:a9fe",
    "IPv4-translated loopback": "::ffff:0:127.0.0.1",
    "Teredo": "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "Teredo of a private client": "2001:0:a00:1::f5ff:fffe",
}
# Written so that the service could not send them as they are: they crashed the delivery job.
MALFORMED = {
    "CR LF in the path": "http://127.0.0.1:9/hook\r\nX-Injected: 1",
    "LF in the host": "http://127.0.0.1\n:9/hook",
    "a tab": "http://127.0.0.1:9/\thook",
    "a space in the path": "http://127.0.0.1:9/a hook",
    "a space in the host": "http://127.0.0. 1:9/hook",
    "a leading space": " http://127.0.0.1:9/hook",
    "port 0": "http://127.0.0.1:0/hook",
    "port 00": "http://127.0.0.1:00/hook",
    "port past 65535": "http://127.0.0.1:65536/hook",
    "NUL": "http://127.0.0.1:9/\x00",
}
ROUTES = (("/v1/webhooks/bot", {}),
          ("/v1/webhooks/subscriptions", {"event_types": ["events"]}))


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """One server for the module: private and loopback receivers refused, as in production."""
    hooks = replace(HOOKS, allow_private=False)
    with contextmanager(service)(tmp_path_factory.mktemp("production"), hooks) as api:
        yield api


@pytest.fixture(scope="module")
def lenient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """Loopback receivers allowed: what refuses a URL here is its form alone."""
    with contextmanager(service)(tmp_path_factory.mktemp("lenient")) as api:
        yield api


@pytest.mark.parametrize("address", EMBEDDING_INTERNAL.values(), ids=EMBEDDING_INTERNAL.keys())
def test_given_production_settings_when_an_ipv6_url_embeds_an_internal_ipv4_then_it_is_refused(
        production: httpx.Client, address: str) -> None:
    who = player(production, "ssrf6")
    for path, extra in ROUTES:
        r = who.post(path, {"url": f"http://[{address}]:8080/hook", **extra})
        assert r.status_code == 422, (path, r.text)
        assert r.json()["code"] == "webhook_url_refused"
        assert "refused" in r.json()["detail"]


@pytest.mark.parametrize("address", ["64:ff9b::808:808", "2002:808:808::1",
                                     "2606:4700:4700::1111"])
def test_given_production_settings_when_an_ipv6_url_reaches_a_public_address_then_it_is_taken(
        production: httpx.Client, address: str) -> None:
    # NAT64 to a public IPv4 address is how an IPv6-only cluster reaches the IPv4 internet
    # (DNS64 answers every IPv4-only name so): judged by the address it reaches, not refused.
    who = player(production, "public6")
    for path, extra in ROUTES:
        r = who.post(path, {"url": f"http://[{address}]:8080/hook", **extra})
        assert r.status_code == 201, (path, r.text)


@pytest.mark.parametrize("url", MALFORMED.values(), ids=MALFORMED.keys())
def test_given_a_url_that_cannot_be_sent_as_written_then_registering_it_is_refused(
        lenient: httpx.Client, url: str) -> None:
    who = player(lenient, "typo")
    for path, extra in ROUTES:
        r = who.post(path, {"url": url, **extra})
        assert r.status_code == 422, (path, r.text)
        assert r.json()["code"] == "webhook_url_refused"


@pytest.mark.parametrize("address", EMBEDDING_INTERNAL.values(), ids=EMBEDDING_INTERNAL.keys())
def test_given_production_settings_when_connecting_to_an_embedded_internal_address_then_refused(
        address: str) -> None:
    # The guarded client judges the address the host resolves to as each connection is made.
    answer = asyncio.run(_post(WebhookSettings(), f"http://[{address}]:8080/hook"))
    assert answer.kind == "refused", answer
    assert "refused" in (answer.error or "")


def test_given_the_embedding_rules_then_each_judges_the_address_a_packet_reaches() -> None:
    assert str(reached("64:ff9b::a9fe:a9fe")) == "169.254.169.254"
    assert str(reached("2002:a9fe:a9fe::1")) == "169.254.169.254"
    assert str(reached("::ffff:0:a9fe:a9fe")) == "169.254.169.254"
    assert str(reached("::ffff:a9fe:a9fe")) == "169.254.169.254"
    assert str(reached("64:ff9b::808:808")) == "8.8.8.8"
    assert str(reached("2606:4700:4700::1111")) == "2606:4700:4700::1111"
    assert refusal("64:ff9b::808:808") is None and refusal("8.8.8.8") is None
    assert "which reaches 169.254.169.254" in (refusal("64:ff9b::a9fe:a9fe") or "")
    for refused in ("64:ff9b:1::808:808", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
                    "::8.8.8.8", "fec0::1", "100::1", "fc00::1", "fe80::1%eth0", "ff02::1",
                    "4000::1", "100.64.0.1", "0.0.0.0"):
        assert refusal(refused) is not None, refused


def test_given_stored_urls_the_policy_now_refuses_then_deliveries_record_the_refusal(
        strict_api: httpx.Client, tmp_path: Path) -> None:
    # Subscriptions stored before this policy (or written past it): each delivery judges the
    # URL again and records a refused attempt instead of crashing the job.
    stored = {"control": "http://127.0.0.1:9/hook\r\nX-Injected: 1",
              "port 0": "http://127.0.0.1:0/hook",
              "NAT64": "http://[64:ff9b::7f00:1]:9/hook",
              "6to4": "http://[2002:a9fe:a9fe::1]:9/hook"}
    who = player(strict_api, "stored")
    subs = {name: subscribe(who, "https://[2606:4700:4700::1111]/hook", ["game_started"])
            for name in stored}
    _overwrite_urls(tmp_path, {subs[n]["subscription_id"]: u for n, u in stored.items()})
    game = who.post("/v1/games", {"ruleset": {"players": 2}, "bots": [{"level": "random"}]})
    assert who.post(f"/v1/games/{game.json()['game_id']}/start").status_code == 200
    for name in stored:
        log = wait_for(lambda n=name: [  # type: ignore[misc]
            d for d in deliveries(who, subs[n]["subscription_id"]) if d["attempts"]])
        attempt = log[0]["attempts"][0]
        assert not attempt["ok"] and attempt["status_code"] is None, (name, attempt)
        assert "refused" in attempt["error"], (name, attempt)


def _overwrite_urls(tmp_path: Path, urls: dict[str, str]) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path}/cya.sqlite3")
    with engine.begin() as conn:
        for sub_id, target in urls.items():
            conn.execute(sa.update(webhook_subscriptions).where(
                webhook_subscriptions.c.subscription_id == sub_id).values(url=target))
    engine.dispose()


def test_check_url_answers_the_parsed_url() -> None:
    parsed = asyncio.run(check_url("http://[::1]:8080/hook?x=1", allow_private=True))
    assert parsed.host == "::1" and parsed.port == 8080 and parsed.path == "/hook"


async def _post(settings: WebhookSettings, url: str):  # type: ignore[no-untyped-def]
    outbound = Outbound(settings)
    try:
        return await outbound.post(url, b"{}", {"content-type": "application/json"})
    finally:
        await outbound.close()
