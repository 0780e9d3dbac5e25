"""Issue 27, test 3 (and 6, 7 for it): a person with no key at all opens the site, finds a
public game in the lobby and watches it live. The game was created with a spectator delay of
three events: while it runs, the watcher's table trails the player's by exactly that, and
once it is over the watcher sees its end. The watcher's page never holds a card of a hand."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Page, expect

from .conftest import Server, screenshot, serious_accessibility_issues
from .steps import (
    cards_on_page,
    create_game,
    leaks,
    play_one_move,
    settle,
    shown_version,
    sign_up,
    wait_until,
)

DELAY = 3


def watching(page: Page) -> int:
    """The version the watcher's page shows (before the deal there is no table to read)."""
    return int(page.evaluate("window.cya.state.version"))


def version_now(server: Server, game: str, key: str) -> int:
    """The game's live version, as a player sees it (a watcher's summary trails it too)."""
    return int(httpx.get(f"{server.url}/v1/games/{game}",
                         headers={"Authorization": f"Bearer {key}"}).json()["summary"]["version"])


def test_an_anonymous_watcher_trails_a_delayed_game_by_its_delay(people, server: Server):
    ada = people("ada")
    ada.page.goto("/")
    key = sign_up(ada.page, "Ada")
    game = create_game(ada.page, players=3, seats=["greedy bot", "random bot"],
                       spectator_delay=DELAY)
    ada.page.get_by_role("button", name="Start the game").click()
    assert settle(ada.page) == "move"

    # No key: the start screen offers the public games, and the lobby a Watch button.
    eve = people("eve")
    watcher = eve.page
    watcher.goto("/")
    watcher.get_by_role("link", name="watch the public games").click()
    expect(watcher.get_by_role("heading", name="Public games")).to_be_visible()
    expect(watcher.get_by_role("heading", name="My games")).to_have_count(0)
    screenshot(watcher, "lobby-anonymous")
    assert not serious_accessibility_issues(watcher)
    watcher.locator(f'[data-game="{game}"]').get_by_role("link", name="Watch").click()
    # Three events ago the cards may not have been dealt yet: "not started" is right then.
    expect(watcher.get_by_text(f"{DELAY} events behind the table")).to_be_visible()
    assert watcher.evaluate("localStorage.getItem('cya.key')") is None

    watched = []
    for n in range(8):
        if settle(ada.page) == "over":
            break
        # The game waits for Ada: its version is the one her table shows. The watcher's
        # table comes to rest exactly DELAY events behind it, and never gets closer.
        live = shown_version(ada.page)
        wait_until(lambda live=live: watching(watcher) == max(live - DELAY, 1))
        watched.append((watching(watcher), cards_on_page(watcher)[1]))
        assert watched[-1][0] == max(live - DELAY, 1)
        play_one_move(ada.page)
        # Bots play on meanwhile: the game's own version (read after the watcher's) is the
        # one to trail.
        seen = watching(watcher)
        assert seen <= max(version_now(server, game, key) - DELAY, 1)
        if n == 2:
            wait_until(lambda: watching(watcher) == max(version_now(server, game, key) - DELAY, 1))
            expect(watcher.get_by_role("region", name="The table")).to_be_visible()
            assert watcher.get_by_role("region", name="Your hand").count() == 0
            screenshot(watcher, "watch-delayed")
            assert not serious_accessibility_issues(watcher)

    # Ada resigns: bots play the game out, and the watcher sees all of it, live.
    ada.page.get_by_role("button", name="Resign").click()
    ada.page.get_by_role("button", name="Yes, resign").click()
    expect(watcher.get_by_role("region", name="Final scores")).to_be_visible(timeout=60_000)
    expect(watcher.get_by_text("events behind the table")).to_have_count(0)
    watched.append(cards_on_page(watcher))
    assert watched[-1][0] == version_now(server, game, key)

    history = [json.loads(line) for line in httpx.get(
        f"{server.url}/v1/games/{game}/history",
        headers={"Authorization": f"Bearer {key}"}).iter_lines() if line]
    assert not leaks(watched, history, seat=None)
