"""Issue 36, defect 7: on a phone a seat can be out of sight (since issue 40 the others sit
above the hand, out of sight once the page is scrolled down to the moves). A person drags a
card from the hand with the mouse (real pointer moves, not a synthetic drop event): holding it
near the window's edge scrolls the page to the seat, and the drop plays the card there. A card
dropped where no move takes it says so, in the status line, which stays in sight."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import screenshot, serious_accessibility_issues
from .steps import create_game, play_one_move, settle, shown_version, sign_up, wait_until

PHONE = {"width": 375, "height": 640}
# Where a thumb holds a card "at the edge": Chromium scrolls a dragging page by itself only
# within about 20 px of it, and a phone's own bars cover those.
NEAR_EDGE = 40
AWAY = 120  # px from the edges: holding a card there leaves the page where it is
AIMED = ("challenge", "play_swap", "play_move")
BOTS = (1, 2, 3)


def cards_of(command: dict[str, Any]) -> list[str]:
    return command.get("cards") or [command.get("card")]


def one_card_move_onto_a_bot(legal: list[dict[str, Any]]) -> tuple[str, int] | None:
    """A hand card and a bot's seat where the card alone makes exactly one move (what its
    drop there plays), or None."""
    moves: dict[tuple[str, int], set[str]] = {}
    for c in legal:
        if c["type"] in AIMED and c["target_seat"] in BOTS and len(cards_of(c)) == 1:
            kind = f"{c['type']} {c.get('position')} {c.get('direction')}"
            moves.setdefault((cards_of(c)[0], c["target_seat"]), set()).add(kind)
    return next((aim for aim, kinds in moves.items() if len(kinds) == 1), None)


def in_view(page: Page, selector: str, margin: float = 0) -> bool:
    """The element's middle is on the screen, `margin` px or more from its edges."""
    box = page.locator(selector).bounding_box()
    return box is not None and margin <= box["y"] + box["height"] / 2 <= PHONE["height"] - margin


def still(page: Page) -> None:
    """Until the page has stopped scrolling."""
    last = None
    while (now := page.evaluate("scrollY")) != last:
        last = now
        page.wait_for_timeout(200)


def hold(page: Page, x: float, y: float, until: Callable[[], bool] = lambda: True) -> None:
    """The card rests at (x, y) for a moment, or until `until()`. A browser tells the page
    where a resting card is again and again; Playwright only as the pointer moves, so the
    pointer trembles a pixel as a hand does."""
    page.mouse.move(x, y, steps=4)
    for n in range(200):
        page.wait_for_timeout(100)
        page.mouse.move(x + n % 2, y)
        if n >= 2 and until():
            return
    raise AssertionError(f"still not so after holding the card at {x}, {y}")


def drag(page: Page, card: str, target: str) -> None:
    """Press on the card, move off it (the drag starts); while the target is out of sight,
    hold the card near the edge it lies beyond; let go over the target."""
    source = page.locator(f'.hand [data-card="{card}"]')
    source.scroll_into_view_if_needed()
    box = source.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 8, y + 8, steps=2)
    for _ in range(5):
        end = page.locator(target).bounding_box()
        assert end is not None
        # Its middle away from the edges, where holding the card scrolls the page.
        if not in_view(page, target, margin=AWAY):
            edge = NEAR_EDGE if end["y"] < AWAY else PHONE["height"] - NEAR_EDGE
            hold(page, x, edge, until=lambda: in_view(page, target, margin=AWAY))
            continue
        over = [end["x"] + end["width"] / 2, end["y"] + end["height"] / 2]
        hold(page, *over)
        still(page)  # it may have scrolled on a moment: let go only if still over the target
        if page.evaluate("([x, y, t]) => !!document.elementFromPoint(x, y)?.closest(t)",
                         [*over, target]):
            break
    page.mouse.up()


def test_a_card_dragged_to_a_seat_below_the_fold_is_played_or_says_why_not(people):
    ada = people("ada")
    page = ada.page
    page.goto("/")
    sign_up(page, "Ada")
    aim = None
    for _ in range(3):  # a game can end before Ada holds a card for a bot's stack
        create_game(page, players=4, seats=["greedy bot", "random bot", "greedy bot"])
        page.get_by_role("button", name="Start the game").click()
        page.set_viewport_size(PHONE)
        # Ada plays until she holds a card that makes one move onto a bot's seat (a
        # challenge of its top set, mostly).
        while settle(page) == "move":
            if aim := one_card_move_onto_a_bot(page.evaluate("window.cya.state.legal")):
                break
            play_one_move(page)
        if aim:
            break
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto("/#/lobby")
    assert aim, "no card for a bot's seat in three games"
    card, bot = aim
    legal = page.evaluate("window.cya.state.legal")
    hand = page.locator(".hand [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    other = next(c for c in hand if not any(
        c in cards_of(m) and m.get("target_seat") == 0 for m in legal))
    name = page.locator(f'.hand [data-card="{other}"] .name').inner_text()
    version = shown_version(page)

    # A card dropped on her own seat, where no move takes it: the page says so, in sight.
    page.evaluate("window.scrollTo(0, 0)")
    drag(page, other, '.seat[data-seat="0"]')
    status = page.get_by_role("status")
    expect(status).to_have_text(f"No move plays {name} on your seat.")
    expect(status).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")  # a whole-page picture shows it where it sits
    screenshot(page, "drop-refused")
    assert not serious_accessibility_issues(page)

    # Let go of on the draw pile, which takes no card: not played, and the page says that.
    drag(page, other, ".pile:not(.discard):not(.draft)")
    expect(status).to_have_text(re.compile(f"^{re.escape(name)} was not played: drop it on"))
    assert shown_version(page) == version

    # The card for the bot, from the page scrolled down to the moves: held at the top edge
    # until the bot's seat scrolls down into sight.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert not in_view(page, f'.seat[data-seat="{bot}"]'), "the bot's seat is in sight"
    drag(page, card, f'.seat[data-seat="{bot}"]')
    wait_until(lambda: shown_version(page) > version)
    expect(page.get_by_role("region", name="Game log")).to_contain_text(
        re.compile(r"Ada (challenges|plays a (Swap|Move))"))
