"""Issue 27, tests 2 and 6: two people in two browsers play a private 2-player draft game
that one of them made, the other joining by the invitation link; challenges are opened and
answered, a drafted set is challenged, all through the page; neither page ever holds a card
of the other's hand."""

from __future__ import annotations

import base64
import json
import time

import httpx
from playwright.sync_api import Page, expect

from .conftest import Server, screenshot, serious_accessibility_issues
from .steps import cards_on_page, create_game, leaks, play_one_move, sign_up


def deciding(pages: list[Page], timeout_s: float = 30) -> Page | None:
    """The page whose player the game waits for, once one shows its moves (None: over)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if all(page.locator(".game-over").count() for page in pages):
            return None
        for page in pages:
            if page.locator(".move-list button.move:not([disabled])").count():
                return page
        pages[0].wait_for_timeout(25)
    raise AssertionError(f"nobody's decision in {timeout_s} s")


def test_two_people_play_a_private_draft_game_by_invitation(people, server: Server):
    ada, bob = people("ada"), people("bob")
    ada.page.goto("/")
    ada_key = sign_up(ada.page, "Ada")
    # Any drafted set may be challenged, so that one surely is.
    game = create_game(ada.page, players=2, seats=["open for a person"], public=False,
                       unchecked=("Challenging a drafted set needs a set of your own",))
    expect(ada.page.get_by_role("heading", name="Waiting for 1 more player")).to_be_visible()
    link = ada.page.get_by_label("Invitation link").input_value()
    assert link.endswith(f"#/join/{game}")

    # Bob opens the link: he has no key yet, so he gets one, and the link seats him.
    bob.page.goto(link)
    sign_up(bob.page, "Bob")
    expect(bob.page.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    expect(ada.page.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    ada.page.get_by_role("button", name="Start the game").click()

    pages, seats = [ada.page, bob.page], {ada.page: 0, bob.page: 1}
    seen: dict[Page, list[tuple[int, set[str]]]] = {ada.page: [], bob.page: []}
    moves: list[str] = []
    while (page := deciding(pages)) is not None:
        for p in pages:
            seen[p].append(cards_on_page(p))
        if page.locator(".duel").count() and not any(".duel" in m for m in moves):
            screenshot(page, "challenge")
            assert not serious_accessibility_issues(page)
            moves.append(".duel")
        moves.append(play_one_move(page))
        assert len(moves) < 400

    for page in pages:
        expect(page.get_by_role("region", name="Final scores")).to_be_visible()
        expect(page.locator(".verify")).to_contain_text("Verified")
        seen[page].append(cards_on_page(page))

    history = [json.loads(line) for line in httpx.get(
        f"{server.url}/v1/games/{game}/history",
        headers={"Authorization": f"Bearer {ada_key}"}).iter_lines() if line]
    for page in pages:
        assert not leaks(seen[page], history, seat=seats[page])
    # Each browser sent its seat's client seed, 32 bytes from its CSPRNG (fair-shuffle §7).
    started = next(line["data"] for line in history if line["data"]["type"] == "game_started")
    assert [c["source"] for c in started["client_seeds"]] == ["player", "player"]
    assert [len(base64.b64decode(c["seed"])) for c in started["client_seeds"]] == [32, 32]
    kinds = [(line["data"]["type"], line["data"].get("kind")) for line in history]
    assert ("challenge_opened", "stack_top") in kinds, "no challenge on a stack"
    assert ("challenge_opened", "draft") in kinds, "no drafted set challenged"
    assert any(t == "challenge_answered" for t, _ in kinds), "no challenge answered"
