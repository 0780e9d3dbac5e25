"""Issue 27, test 1 (and 6, 7 for it): a new person opens the site, makes a 4-seat game
against three bots, plays it to the end by clicking, and sees the scores and a passing
verification. A second person watches it live with a key of their own. Neither page ever
holds a card of a hand that is not theirs."""

from __future__ import annotations

import json

import httpx
import msgspec
from cya_client.models import Receipt, ReceiptKeys
from cya_client.receipts import agrees, history_lines, verify_receipt
from playwright.sync_api import expect

from .conftest import Server, screenshot, serious_accessibility_issues
from .steps import cards_on_page, create_game, leaks, play_one_move, settle, sign_up


def test_a_new_player_beats_three_bots_by_clicking_and_a_watcher_follows(people, server: Server):
    ada = people("ada")
    page = ada.page
    page.goto("/")
    screenshot(page, "start")
    assert not serious_accessibility_issues(page)
    key = sign_up(page, "Ada")

    expect(page.get_by_role("heading", name="My games")).to_be_visible()
    screenshot(page, "lobby")
    assert not serious_accessibility_issues(page)
    game = create_game(page, players=4, seats=["greedy bot", "random bot", "greedy bot"],
                       edition="de_2024")

    # A German edition's table speaks German to a reader who chose no language.
    expect(page.get_by_role("heading", name="Alle sitzen")).to_be_visible()
    screenshot(page, "waiting-room")
    assert not serious_accessibility_issues(page)
    page.get_by_role("button", name="Spiel starten").click()

    cara = people("cara")
    cara.page.goto("/")
    sign_up(cara.page, "Cara")
    cara.page.goto(f"/#/watch/{game}")
    expect(cara.page.get_by_role("region", name="Der Tisch")).to_be_visible()
    assert cara.page.get_by_role("region", name="Deine Hand").count() == 0

    # The log and the watcher's too (they were made before the game's language was known).
    expect(page.get_by_role("heading", name="Spielprotokoll")).to_be_visible()
    expect(cara.page.get_by_role("heading", name="Spielprotokoll")).to_be_visible()

    # The German edition's cards go by their German names, with their values.
    german = {c["type"]: (c["name_de"], c["value"]) for e in httpx.get(
        f"{server.url}/v1/rulesets").json()["editions"] if e["id"] == "de_2024"
        for c in e["classic_cards"]}
    hand = page.get_by_role("group", name="Karten auf deiner Hand").locator("[data-card]")
    expect(hand.first).to_be_visible()
    for card in hand.all():
        name, value = german[card.get_attribute("data-card").split("#")[0]]
        expect(card).to_have_text(f"{name} {value:,} $".replace(",", "."))  # German amounts

    seen, watched, kinds = [], [], []
    while settle(page) == "move":
        seen.append(cards_on_page(page))
        watched.append(cards_on_page(cara.page))
        if len(kinds) == 2:
            screenshot(page, "table")
            assert not serious_accessibility_issues(page)
            screenshot(cara.page, "watch")
            assert not serious_accessibility_issues(cara.page)
        kinds.append(play_one_move(page))
    seen.append(cards_on_page(page))

    over = page.get_by_role("region", name="Endstand")
    expect(over).to_be_visible()
    expect(over.get_by_role("row")).to_have_count(5)  # a header and four seats
    expect(page.locator(".verify")).to_contain_text("Geprüft: die Hash-Kette hält")
    screenshot(page, "game-over")
    assert not serious_accessibility_issues(page)

    # The watcher saw it end live, without a reload.
    expect(cara.page.get_by_role("region", name="Endstand")).to_be_visible()
    watched.append(cards_on_page(cara.page))

    history = [json.loads(line) for line in httpx.get(
        f"{server.url}/v1/games/{game}/history",
        headers={"Authorization": f"Bearer {key}"}).iter_lines() if line]
    assert not leaks(seen, history, seat=0)
    assert not leaks(watched, history, seat=None)
    assert len(kinds) > 3

    # Both browsers kept the server's signed receipts of the game (docs/receipts.md), and
    # each one checks against the history with the published key alone.
    signed = httpx.get(f"{server.url}/v1/games/{game}/history",
                       headers={"Authorization": f"Bearer {key}"})
    keys = msgspec.convert(httpx.get(f"{server.url}/v1/receipt-keys").json(), ReceiptKeys)
    for person in (page, cara.page):
        kept = person.evaluate("(g) => JSON.parse(localStorage.getItem(`cya.receipts.${g}`))",
                               game)
        assert len(kept) > len(kinds)  # a command's, the pages', the stream's
        for raw in kept.values():
            receipt = msgspec.convert(raw, Receipt)
            assert verify_receipt(receipt, keys)
            assert agrees(receipt, history_lines(signed.content),
                          signed.headers["Cya-Receipt-Salt"])
