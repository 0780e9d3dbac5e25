"""Issue 27, test 5: the audit viewer. Each step's table is the game at that version as the
viewer may see it (GET /state?version=N), every hand shows once the game is over, the
verification passes; a game whose log was altered in the database shows where and why."""

from __future__ import annotations

import json
import random
import sqlite3
import time

import httpx
from playwright.sync_api import Page, expect

from .conftest import Server, screenshot, serious_accessibility_issues
from .steps import hands_by_version


def played_game(api: httpx.Client, *, seated: bool) -> str:
    """A finished 2-player game: the caller against a bot, or (unseated) two bots."""
    bots = [{"level": "greedy"}] if seated else [{"level": "greedy"}, {"level": "random"}]
    game = api.post("/v1/games", json={"ruleset": {"players": 2, "end_mode": "quick"},
                                       "bots": bots, "join": seated}).json()["game_id"]
    api.post(f"/v1/games/{game}/start").raise_for_status()
    rng, deadline = random.Random(5), time.monotonic() + 60
    while not seated and api.get(f"/v1/games/{game}").json()["summary"]["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    while (view := api.get(f"/v1/games/{game}/view").json())["status"] != "finished":
        assert time.monotonic() < deadline
        legal = api.get(f"/v1/games/{game}/legal-commands").json()["commands"]
        if legal:
            api.post(f"/v1/games/{game}/commands", json=rng.choice(legal))
        else:
            api.get(f"/v1/games/{game}/view",
                    params={"wait_for_version": view["version"] + 1, "timeout": 5})
    return game


def sign_in_with_key(page: Page, key: str) -> None:
    page.goto("/")
    page.get_by_label("Use an existing API key").fill(key)
    page.get_by_role("button", name="Use this key").click()
    expect(page.get_by_role("heading", name="My games")).to_be_visible()


def test_stepping_through_a_finished_game_shows_each_version_as_the_api_does(
        people, server: Server):
    api = httpx.Client(base_url=server.url)
    key = api.post("/v1/players", json={"name": "Ada"}).json()["api_key"]
    api.headers["Authorization"] = f"Bearer {key}"
    game = played_game(api, seated=True)
    history = [json.loads(line) for line in api.get(f"/v1/games/{game}/history").iter_lines()
               if line]
    hands = hands_by_version(history)

    page = people("ada").page
    sign_in_with_key(page, key)
    # The lobby's filter narrows the public games to finished ones.
    page.get_by_label("Status").select_option("finished")
    public = page.get_by_role("region", name="Public games")
    expect(public.locator("li.game").first).to_be_visible()
    expect(public.locator("li.game:not(.finished)")).to_have_count(0)
    page.get_by_role("region", name="My games").locator(f"[data-game=\"{game}\"]").get_by_role(
        "link", name="Audit").click()
    expect(page.get_by_role("heading", name="Verification")).to_be_visible()
    expect(page.locator(".verify-box")).to_contain_text("✓ Verified")
    # The seeds of the deal (fair-shuffle §7): Ada's API calls sent no client seed, the bot's
    # comes from the master seed, which the commitment at creation matched.
    seeds = page.locator(".verify-box .client-seeds li")
    expect(seeds).to_have_count(2)
    expect(seeds.nth(0)).to_contain_text("sent none")
    expect(seeds.nth(1)).to_contain_text("a bot: derived from the master seed")
    expect(page.locator(".verify-box .seeds")).to_contain_text("✓ dealt with that seed")
    page.get_by_role("button", name="Next version").click()  # to version 2, by the button
    page.locator("body").press("ArrowRight")                 # and on by the keyboard

    last = len(history)
    for version in range(3, last + 1):
        page.wait_for_function(
            "v => document.querySelector('.board')?.dataset.version == v"
            " || (v < 3 && document.querySelector('.stage'))", arg=version)
        shown = page.evaluate("window.cya.state.view")
        assert shown == api.get(f"/v1/games/{game}/state", params={"version": version}
                                ).json()["view"], f"version {version}"
        if shown is not None:
            hand = page.get_by_role("group", name="Cards in your hand").locator("[data-card]")
            assert [c.get_attribute("data-card") for c in hand.all()] == shown["hand"]
            bots_hand = page.get_by_role("group", name="Bot 2 (greedy)'s hand")
            assert [c.get_attribute("data-card") for c in bots_hand.locator("[data-card]").all()
                    ] == hands[version][1], f"version {version}"
        if version == last // 2:
            screenshot(page, "audit")
            assert not serious_accessibility_issues(page)
        if version < last:
            page.locator("body").press("ArrowRight")

    page.get_by_label("Version", exact=True).fill("1")  # the slider, back to the start
    expect(page.locator("#at")).to_have_text(f"1 of {last}")


def test_an_altered_log_shows_the_version_that_fails(people, server: Server):
    api = httpx.Client(base_url=server.url)
    key = api.post("/v1/players", json={"name": "Ada"}).json()["api_key"]
    api.headers["Authorization"] = f"Bearer {key}"
    game = played_game(api, seated=False)

    # Someone with the database's file rewrites a discard in the log.
    with sqlite3.connect(server.db) as db:
        version, data = db.execute(
            "SELECT version, data FROM events WHERE game_id = ? AND type = 'card_discarded'"
            " ORDER BY version LIMIT 1", (game,)).fetchone()
        event = json.loads(data)
        event["card"] = "gold#1" if event["card"] != "gold#1" else "gold#2"
        db.execute("UPDATE events SET data = ? WHERE game_id = ? AND version = ?",
                   (json.dumps(event, separators=(",", ":")), game, version))

    ada = people("ada")
    ada.allowed_errors.append("status of 500")  # the damaged versions' GET /state answers
    page = ada.page
    sign_in_with_key(page, key)
    page.goto(f"/#/audit/{game}")
    alert = page.locator(".verify-box [role=alert]")
    expect(alert).to_contain_text(f"damaged at version {version}")
    page.get_by_role("button", name=f"Go to version {version}").click()
    expect(page.locator("#at")).to_contain_text(f"{version} of")
    screenshot(page, "audit-damaged")
