"""Issue 27, test 4: the server restarts mid-game and both players' pages carry on where they
were, without a reload. And a command the server refuses shows the server's own message."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import Server
from .steps import click_and_wait, create_game, play_one_move, shown_version, sign_up, wait_until
from .test_two_players import deciding

NETWORK_ERRORS = ["net::ERR_", "Failed to load resource"]


def test_both_pages_resume_after_a_server_restart(people, server: Server):
    ada, bob = people("ada"), people("bob")
    ada.page.goto("/")
    sign_up(ada.page, "Ada")
    game = create_game(ada.page, players=2, seats=["open for a person"])

    # Bob finds the public game in the lobby and joins it.
    bob.page.goto("/")
    sign_up(bob.page, "Bob")
    bob.page.locator(f'[data-game="{game}"]').get_by_role("link", name="Join").click()
    expect(bob.page.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    ada.page.get_by_role("button", name="Start the game").click()

    pages = [ada.page, bob.page]
    for _ in range(4):
        play_one_move(deciding(pages))
    for page in pages:
        page.evaluate("window.notReloaded = true")
    versions = [page.locator(".board").get_attribute("data-version") for page in pages]

    # The server goes away and comes back; the pages lose their streams meanwhile.
    for p in (ada, bob):
        p.allowed_errors += NETWORK_ERRORS
    server.restart()

    for _ in range(4):
        play_one_move(deciding(pages))
    for page, before in zip(pages, versions, strict=True):
        assert page.evaluate("window.notReloaded") is True
        wait_until(lambda page=page, before=before: int(
            page.locator(".board").get_attribute("data-version")) > int(before) + 4)
    # Each page learnt the other's latest move over its resumed stream.
    newest = max(int(p.locator(".board").get_attribute("data-version")) for p in pages)
    for page in pages:
        wait_until(lambda page=page: int(page.locator(".board").get_attribute("data-version"))
                   == newest)


def test_a_refused_command_shows_the_servers_reason_then_the_player_resigns(people):
    ada = people("ada")
    page = ada.page
    page.goto("/")
    sign_up(page, "Ada")
    create_game(page, players=2, seats=["greedy bot"], turn_clock=600)
    page.get_by_role("button", name="Start the game").click()
    enabled_discard = ".move-list button.m-discard:not([disabled])"
    page.wait_for_selector(enabled_discard)
    expect(page.locator("#turn .clock")).to_have_text(re.compile(r"^(9|10):\d\d left$"))

    # A card dragged from the hand onto the discard pile is discarded.
    card = page.get_by_role("group", name="Cards in your hand").get_by_role("button").first
    name = card.locator(".name").text_content()
    version = shown_version(page)
    card.drag_to(page.locator(".pile.discard"))
    expect(page.get_by_role("region", name="Game log")).to_contain_text(
        re.compile(f"Ada discards an? {name}\\."))
    wait_until(lambda: shown_version(page) > version)
    page.wait_for_selector(enabled_discard)

    # A second tab of the same table that never hears the server's news (its stream is cut
    # from the start, and its reads once it has drawn the table): it goes stale.
    ada.allowed_errors += NETWORK_ERRORS
    stale = ada.context.new_page()
    stale.on("console", lambda m: m.type == "error" and ada.errors.append(m.text))
    stale.route(re.compile(r"/v1/games/[^/]+/events$"), lambda route: route.abort())
    stale.goto(page.url)
    discard = stale.locator(enabled_discard).first
    command = discard.get_attribute("data-focus")  # "move:" and the command, card id and all
    stale.route(re.compile(r"/v1/games/[^/?]+(/turn\?.*)?$"), lambda route: route.abort())

    # The first tab plays that very card, and the table shows it; then the stale tab tries.
    click_and_wait(page, page.locator(f"[data-focus='{command}']"))
    discard.click()
    # The server says why: the card has left the hand (or the turn has passed on).
    expect(stale.get_by_role("alert")).to_contain_text(re.compile("not in your hand|turn"))

    # Ada gives up: a bot takes her seat, and she watches the rest without a hand or moves.
    stale.close()
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.get_by_role("region", name="Your hand")).to_have_count(0)
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)
    expect(page.get_by_role("region", name="Final scores")).to_be_visible(timeout=30_000)


def test_a_player_who_leaves_before_the_deal_frees_the_seat(people):
    ada, bob = people("ada"), people("bob")
    ada.page.goto("/")
    sign_up(ada.page, "Ada")
    game = create_game(ada.page, players=2, seats=["open for a person"])
    bob.page.goto("/")
    sign_up(bob.page, "Bob")
    bob.page.goto(f"/#/join/{game}")
    expect(ada.page.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    bob.page.get_by_role("button", name="Leave this game").click()
    expect(bob.page.get_by_role("heading", name="My games")).to_be_visible()
    expect(ada.page.get_by_role("heading", name="Waiting for 1 more player")).to_be_visible()
    expect(ada.page.get_by_role("region", name="Game log")).to_contain_text("Bob left seat 2.")
