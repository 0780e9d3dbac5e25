"""Issue 40, the play half: one click to a game against bots, played with the number keys
(one key a decision, the focus kept at the moves), then "Play again" and "Rematch"; a friend
invited by link; two people paired by quick play; preset reactions seen by the other seat and
by a watcher, at the server's pace; the page in German by the browser's language and by the
switch. Every new screen at a phone's and a desktop's width, with axe's serious findings."""

from __future__ import annotations

import re
import statistics

import httpx
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import CHROMIUM, Server, screenshot, serious_accessibility_issues
from .steps import shown_version, sign_up
from .test_phone_screen import BROKEN_WORDS

assert CHROMIUM


def decide_by_key(page: Page) -> int:
    """One decision with the keyboard, as a person would: the keys pressed until the table
    shows a newer version (or the end). The first move on offer is key 1."""
    page.wait_for_function(
        """() => document.querySelector('.game-over')
              || document.querySelector('.move-list button.move:not([disabled])')""",
        timeout=60_000)
    if page.locator(".game-over").count():
        return 0
    version = shown_version(page)
    # Focus kept at the moves: Enter takes the first; anywhere else, the number key.
    at_a_move = page.evaluate(
        "() => !!document.activeElement?.matches('.move-list button.move:not([disabled])')")
    page.keyboard.press("Enter" if at_a_move and version % 2 else "1")
    page.wait_for_function(
        """v => document.querySelector('.game-over')
              || Number(document.querySelector('.board')?.dataset.version ?? v) > v""",
        arg=version, timeout=30_000)
    return 1


def focus_is_at_the_moves(page: Page) -> bool:
    """Within a moment of the redraw (the page puts it back once the table is painted)."""
    try:
        page.wait_for_function(
            """() => { const a = document.activeElement;
                       return !!a && a !== document.body && !!a.closest('.moves, .game-over'); }""",
            timeout=2_000)
    except PlaywrightTimeout:
        return False
    return True


def test_one_click_against_bots_played_by_keys_then_play_again_and_rematch(people):
    ada = people("ada")
    page = ada.page
    page.goto("/")
    expect(page.get_by_role("button", name="Play against bots")).to_be_visible()
    screenshot(page, "one-click-start")
    assert not serious_accessibility_issues(page)

    page.get_by_role("button", name="Play against bots").click()  # the one click

    page.wait_for_url(re.compile(r"#/game/[\w-]+$"))
    expect(page.get_by_role("region", name="The table")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"^Your hand"))).to_be_visible()
    game = page.url.rsplit("/", 1)[1]
    summary = page.evaluate("() => window.cya.state.summary")
    assert summary["ruleset"]["players"] == 3 and summary["ruleset"]["end_mode"] == "quick"
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]

    keys, focus_kept = [], []
    while (pressed := decide_by_key(page)):
        keys.append(pressed)
        focus_kept.append(focus_is_at_the_moves(page))
        if len(keys) == 2:
            screenshot(page, "one-click-table")
            assert not serious_accessibility_issues(page)
    assert keys and statistics.median(keys) == 1, keys
    # After a move the focus stays at the moves, never back at the top of the page.
    assert all(focus_kept), [i for i, kept in enumerate(focus_kept) if not kept]
    expect(page.get_by_role("region", name="Final scores")).to_be_visible()
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    screenshot(page, "one-click-game-over")
    assert not serious_accessibility_issues(page)
    # The stream ended with the game; talk after it still reaches the table (read by pages).
    page.get_by_role("region", name="Reactions").get_by_role("button", name="Good game").click()
    expect(page.get_by_role("region", name="Game log")).to_contain_text(re.compile("Good game"))

    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(re.compile(r"#/game/[\w-]+$"))
    expect(page.get_by_role("heading", name=re.compile(r"^Your hand"))).to_be_visible()
    again = page.url.rsplit("/", 1)[1]
    assert again != game

    page.goto(f"/#/game/{game}")
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    rematch = page.evaluate("() => window.cya.state.summary")
    assert rematch["rematch_of"] == game and rematch["game_id"] not in (game, again)

    page.goto("/#/custom")
    expect(page.get_by_role("form", name="Custom game")).to_be_visible()
    screenshot(page, "custom")
    assert not serious_accessibility_issues(page)


def test_a_friend_invited_by_link_plays_and_hears_the_reactions_at_the_servers_pace(
        people, server: Server):
    ada, bob = people("ada"), people("bob")
    ada.page.goto("/")
    ada.page.get_by_label("Your display name").fill("Ada")
    ada.page.get_by_label("Players at the table").select_option(label="2 players")
    ada.page.get_by_role("button", name="Invite a friend").click()
    expect(ada.page.get_by_role("heading", name="Waiting for 1 more player")).to_be_visible()
    screenshot(ada.page, "invite-waiting")
    assert not serious_accessibility_issues(ada.page)
    link = ada.page.get_by_label("Invitation link").input_value()

    bob.page.goto(link)
    expect(bob.page.get_by_role("heading", name="You were invited to a game")).to_be_visible()
    sign_up(bob.page, "Bob")
    expect(bob.page.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    ada.page.get_by_role("button", name="Start the game").click()
    for p in (ada.page, bob.page):
        expect(p.get_by_role("region", name="The table")).to_be_visible()

    talk = ada.page.get_by_role("region", name="Reactions")
    talk.get_by_role("button", name="Nice steal!").click()

    for p in (ada.page, bob.page):
        expect(p.locator(".reaction-bubble")).to_have_text("Ada: “Nice steal!”")
        expect(p.get_by_role("region", name="Game log")).to_contain_text("Ada: “Nice steal!”")
    screenshot(bob.page, "reaction-heard")
    assert not serious_accessibility_issues(bob.page)
    # The page rests the buttons for the server's pace; the server refuses one sooner.
    expect(talk.get_by_role("button", name="Oops")).to_be_disabled()
    game = ada.page.url.rsplit("/", 1)[1]
    key = ada.page.evaluate("() => localStorage.getItem('cya.key')")
    sooner = httpx.post(f"{server.url}/v1/games/{game}/reactions", json={"reaction": "oops"},
                        headers={"Authorization": f"Bearer {key}"})
    assert sooner.status_code == 429 and sooner.json()["code"] == "too_many_reactions"
    assert int(sooner.headers["retry-after"]) >= 1


def test_quick_play_pairs_two_browsers_and_a_watcher_sees_their_reactions(people):
    ada, bob, eve = people("ada"), people("bob"), people("eve")
    for person, name in ((ada, "Ada"), (bob, "Bob")):
        person.page.goto("/")
        person.page.get_by_label("Your display name").fill(name)
        person.page.get_by_label("Players at the table").select_option(label="2 players")
        person.page.get_by_role("button", name="Quick play").click()
        if person is ada:
            expect(ada.page.get_by_role("heading", name="Looking for players…")).to_be_visible()
            screenshot(ada.page, "quick-play-waiting")
            assert not serious_accessibility_issues(ada.page)

    for p in (ada.page, bob.page):
        p.wait_for_url(re.compile(r"#/game/[\w-]+$"), timeout=30_000)
        expect(p.get_by_role("region", name="The table")).to_be_visible()
    game = ada.page.url.rsplit("/", 1)[1]
    assert bob.page.url.rsplit("/", 1)[1] == game
    # A short game, as against bots (the matchmaker's own default plays to a million).
    ruleset = ada.page.evaluate("() => window.cya.state.summary.ruleset")
    assert ruleset["players"] == 2 and ruleset["end_mode"] == "highest_after_3_rounds"

    eve.page.goto(f"/#/watch/{game}")
    expect(eve.page.get_by_role("region", name="The table")).to_be_visible()
    bob.page.get_by_role("region", name="Reactions").get_by_role(
        "button", name="Good game").click()
    expect(eve.page.locator(".reaction-bubble")).to_have_text("Bob: “Good game”")
    expect(ada.page.locator(".reaction-bubble")).to_have_text("Bob: “Good game”")
    # A watcher has nothing to send.
    expect(eve.page.get_by_role("region", name="Reactions")).to_have_count(0)


def test_the_page_speaks_german_by_the_browsers_language_and_by_the_switch(browser, server):
    context = browser.new_context(base_url=server.url, locale="de-DE",
                                  viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto("/")
        expect(page.get_by_role("button", name="Gegen Bots spielen")).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == "de"
        screenshot(page, "start-de")
        assert not serious_accessibility_issues(page)

        page.get_by_role("button", name="Gegen Bots spielen").click()
        page.wait_for_url(re.compile(r"#/game/[\w-]+$"))
        expect(page.get_by_role("region", name="Reaktionen")).to_be_visible()
        assert page.evaluate("() => window.cya.state.summary.ruleset.edition") == "de_2024"
        expect(page.locator(".move-list button.move").first).to_be_visible(timeout=30_000)
        screenshot(page, "table-de")

        page.get_by_role("button", name="English").click()  # the switch, remembered
        expect(page.get_by_role("region", name="Reactions")).to_be_visible()
        page.goto("/")
        page.reload()
        expect(page.get_by_role("button", name="Play against bots")).to_be_visible()
        page.get_by_role("button", name="Deutsch").click()
        expect(page.get_by_role("button", name="Gegen Bots spielen")).to_be_visible()
        page.get_by_role("link", name="Eigenes Spiel").click()
        expect(page.get_by_role("form", name="Eigenes Spiel")).to_be_visible()
        screenshot(page, "custom-de")
        assert not serious_accessibility_issues(page)
    finally:
        context.close()
    assert not errors, errors


# English that a German table must not show (whole words, as the English sentences have them).
ENGLISH_MARKERS = ["discards", "pairs", "draws", "challenges", "to act", "Your hand", "Skip",
                   "Draw pile", "Discard", "in hand", "stack", "deciding", "Game log", "Round",
                   "turn", "Your moves", "Verification", "Previous", "Checking",
                   "Seeds of the deal", "Resign"]


def english_in(text: str) -> list[str]:
    return [w for w in ENGLISH_MARKERS if re.search(rf"\b{re.escape(w)}\b", text)]


def test_a_german_table_speaks_german_in_the_seats_the_log_and_the_audit(browser, server):
    context = browser.new_context(base_url=server.url, locale="de-DE",
                                  viewport={"width": 375, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto("/")
        page.get_by_role("button", name="Gegen Bots spielen").click()
        page.wait_for_url(re.compile(r"#/game/[\w-]+$"))
        game = page.url.rsplit("/", 1)[1]
        expect(page.get_by_role("heading", name=re.compile(r"^Deine Hand \("))).to_be_visible()
        decided = sum(decide_by_key(page) for _ in range(3))
        assert decided == 3
        # The seat panels, whose decision it is, the piles.
        expect(page.locator(".seat .meta").first).to_contain_text("auf der Hand")
        expect(page.locator(".pile.draw .caption")).to_have_text("Nachziehstapel")
        expect(page.locator("#turn")).to_contain_text(
            re.compile(r"ist am Zug|muss|darf|wählt|vorbei"))
        # The log tells the bots' moves in German sentences ("Bot 2 legt Klavier ab.").
        log = page.get_by_role("region", name="Spielprotokoll, älteste zuerst")
        expect(log).to_contain_text("Runde 1 ist gegeben")
        expect(log).to_contain_text(re.compile(r"Bot \d \(\w+\) (legt|paart|bildet|fordert|zieht)"))
        # The skip control says it in German even while hidden.
        assert page.locator(".skip-motion").text_content().startswith("Überspringen » ")
        assert page.get_by_role("region", name="Letzte Ereignisse").count() == 1
        # While it shows, the longer German word leaves the lines beside it readable.
        assert page.evaluate("""() => {
            const b = document.querySelector('.skip-motion');
            const l = document.querySelector('.recent-lines');
            if (b.hidden) return true;
            const pad = parseFloat(getComputedStyle(l).paddingRight);
            const right = l.getBoundingClientRect().right - pad;
            return right <= b.getBoundingClientRect().left + 1; }""")
        screenshot(page, "table-de-played")
        assert not page.evaluate(BROKEN_WORDS)
        table_text = page.locator("main").inner_text()
        assert not english_in(table_text), english_in(table_text)
        assert not english_in(page.locator(".skip-motion").text_content() or "")

        # Played to the end: the scores and the server's verification in German too.
        while decide_by_key(page):
            pass
        expect(page.get_by_role("region", name="Endstand")).to_be_visible()
        expect(page.locator(".verify")).to_contain_text("Geprüft: die Hash-Kette hält")
        assert not page.evaluate(BROKEN_WORDS)
        over_text = page.locator("main").inner_text()
        assert not english_in(over_text), english_in(over_text)

        page.goto(f"/#/audit/{game}")
        expect(page.get_by_role("heading", name=re.compile(r"^Prüfung"))).to_be_visible()
        expect(page.get_by_role("group", name="Durch die Versionen gehen")).to_be_visible()
        page.keyboard.press("End")
        expect(page.locator(".stage .event")).to_contain_text(re.compile(r"^Version \d+: "))
        expect(page.locator(".verify-box")).not_to_contain_text("Wird geprüft")
        # The checks in this browser, their names and findings in German.
        expect(page.locator("[data-check='Hash chain']")).to_contain_text(
            re.compile(r"^✓ Hash-Kette: sie hält über \d+ Ereignisse"))
        expect(page.locator("[data-check='Seeds']")).to_contain_text(
            "der Master-Seed passt zu seiner Festlegung")
        screenshot(page, "audit-de")
        assert not page.evaluate(BROKEN_WORDS)
        audit_text = page.locator("main").inner_text()
        assert not english_in(audit_text), english_in(audit_text)
    finally:
        context.close()
    assert not errors, errors
