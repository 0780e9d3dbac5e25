"""Issue 39 part 3: the audit viewer checks a finished game's history in the browser itself,
with WebCrypto (SHA-256, HMAC, Ed25519): the hash chain, the seeds, and the receipts the
browser kept against the server's public keys, shown apart from the server's own /verify. A
history changed on its way to the browser fails there while the server still vouches for the
log it holds; one rewritten with a consistent chain is caught by the receipt. The files it
offers are the ones `cya-verify` checks offline."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from cya_rules.log.chain import GENESIS_HASH, event_hash
from cya_rules.verify.cli import main as cya_verify

from .conftest import Server, screenshot, serious_accessibility_issues
from .test_audit import played_game, sign_in_with_key


def _finished_game(server: Server) -> tuple[str, str, list[bytes]]:
    api = httpx.Client(base_url=server.url)
    key = api.post("/v1/players", json={"name": "Ada"}).json()["api_key"]
    api.headers["Authorization"] = f"Bearer {key}"
    game = played_game(api, seated=False)
    return key, game, api.get(f"/v1/games/{game}/history").content.splitlines()


def _open_audit(page: Page, key: str, game: str) -> None:
    sign_in_with_key(page, key)
    page.goto(f"/#/audit/{game}")


def _changed(lines: list[bytes], game: str, *, rechain: bool) -> tuple[bytes, int]:
    """The history with one discard's card changed; its hash kept, or the chain rebuilt."""
    parsed = [json.loads(line) for line in lines]
    at = next(i for i, line in enumerate(parsed) if line["type"] == "card_discarded")
    event = parsed[at]["data"]
    event["card"] = "gold#1" if event["card"] != "gold#1" else "gold#2"
    prev, out = GENESIS_HASH, []
    for i, line in enumerate(parsed):
        data = json.dumps(line["data"], separators=(",", ":")).encode()
        if i >= at and rechain:
            line["hash"] = event_hash(prev, game, line["version"], line["type"],
                                      line["schema_version"], line["visibility"],
                                      line["command_id"], line["actor"], data)
        prev = line["hash"]
        head = json.dumps({k: v for k, v in line.items() if k != "data"},
                          separators=(",", ":"))[:-1]
        out.append(head.encode() + b',"data":' + data + b"}")
    return b"\n".join(out) + b"\n", at + 1


def _serve_instead(page: Page, game: str, body: bytes) -> None:
    """What reaches the browser: the server's answer, its headers (the genuine receipt and
    salt), with `body` in place of the history it sent."""
    def swap(route: Route) -> None:
        answer = route.fetch()
        headers = {k: v for k, v in answer.headers.items() if k.lower() != "content-length"}
        route.fulfill(response=answer, headers=headers, body=body)
    page.route(f"**/v1/games/{game}/history", swap)


def test_a_finished_game_is_verified_in_the_browser_apart_from_the_server(
        people, server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    key, game, lines = _finished_game(server)
    page = people("ada").page

    _open_audit(page, key, game)

    here = page.get_by_role("region", name="Checked in your browser")
    expect(here).to_contain_text("✓ Verified in your browser (WebCrypto: SHA-256, HMAC, Ed25519)")
    expect(page.locator(".verify-box")).to_contain_text("✓ Verified by the server")
    expect(here.locator("[data-check='Hash chain']")).to_contain_text(
        f"✓ Hash chain: it holds over {len(lines)} events")
    expect(here.locator("[data-check='Seeds']")).to_contain_text(
        "the master seed matches its commitment, every seat's client seed as sent; 1 round "
        "seed derives")
    # The history's own receipt, kept from its header, its Ed25519 signature checked here.
    expect(here.locator("[data-check='Receipts']")).to_contain_text(
        "✓ Receipts: 1 receipt kept here agrees with this history, signed by the server's key")
    screenshot(page, "audit-in-browser")
    assert not serious_accessibility_issues(page)

    # The files it offers are what cya-verify checks offline, and it agrees.
    for label in ("history", "salt", "receipts", "keys"):
        with page.expect_download() as download:
            here.get_by_role("link", name=label, exact=True).click()
        download.value.save_as(tmp_path / download.value.suggested_filename)
    assert (tmp_path / f"{game}.history.ndjson").read_bytes().splitlines() == lines
    code = cya_verify([str(tmp_path / f"{game}.history.ndjson"), "--receipts", str(tmp_path),
                       "--keys", str(tmp_path / "keys.json")])
    assert code == 0, capsys.readouterr().out


def test_a_history_changed_on_its_way_fails_in_the_browser(people, server: Server):
    key, game, lines = _finished_game(server)
    changed, version = _changed(lines, game, rechain=False)
    page = people("ada").page
    _serve_instead(page, game, changed)

    _open_audit(page, key, game)

    here = page.get_by_role("region", name="Checked in your browser")
    expect(here.get_by_role("alert")).to_have_text(
        f"✗ Not verified in your browser: the hash chain breaks at version {version}: the "
        "event or its hash was changed")
    # The chain goes on past the break: the history's receipt seals its last hash, unchanged.
    expect(here.locator("[data-check='Receipts']")).to_contain_text("✓ Receipts")
    # The server checks the log it holds, which nobody changed: the two are shown apart.
    expect(page.locator(".verify-box")).to_contain_text("✓ Verified by the server")
    screenshot(page, "audit-in-browser-tampered")


def test_a_history_rewritten_with_a_consistent_chain_is_caught_by_its_receipt(
        people, server: Server):
    key, game, lines = _finished_game(server)
    changed, version = _changed(lines, game, rechain=True)
    page = people("ada").page
    _serve_instead(page, game, changed)

    _open_audit(page, key, game)

    here = page.get_by_role("region", name="Checked in your browser")
    expect(here.locator("[data-check='Hash chain']")).to_contain_text("✓ Hash chain")
    expect(here.locator("[data-check='Receipts']")).to_contain_text(
        f"✗ Receipts: the receipt for version {len(lines)}: the history at version "
        f"{len(lines)} is not the log the server signed")
    expect(here.get_by_role("alert")).to_contain_text("✗ Not verified in your browser")
    assert version < len(lines)
