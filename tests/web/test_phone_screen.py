"""Issue 40, the phone's one screen, measured: a six-card hand and a challenge duel leave the
moves on a 375 × 667 and a 375 × 812 screen; the "your decision" line never lies over the
cards, the stacks or the moves; your own compact seat shows its stack value whole; in German a
value chip is one line and no word breaks in its middle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import SCREENSHOTS, Person, Server, screenshot, serious_accessibility_issues
from .steps import play_moves, play_one_move, settle, wait_idle
from .test_table_look import bots_game, sit_down

PHONES: tuple[ViewportSize, ...] = ({"width": 375, "height": 667}, {"width": 375, "height": 812})

# Where the parts a turn needs are, scrolled to the top: the viewport's rectangles.
PARTS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const all = (s) => [...document.querySelectorAll(s)].map(box);
  const status = document.getElementById('status');
  return { move: all('.move-list button.move')[0] || null,
           status: status.textContent ? box(status) : null,
           covered: all(`.hand .card, .move-list button.move, .seat .fan, .seat h3,
                         .piles .card, .duel`) };
}"""

# Every word of the page's text cut across two lines (not at a space, a hyphen or a <wbr>),
# and every amount ("685.000 $" is one). Text the page keeps for screen readers alone (a 1 px
# box) is not drawn, so not read here.
BROKEN_WORDS = """() => {
  const found = [];
  const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const parent = node.parentElement;
    if (parent.getBoundingClientRect().width <= 2 || parent.closest('[aria-hidden=true]')) continue;
    for (const m of node.data.matchAll(/\\d[\\d.]*\\s\\$|[^\\s-]+/g)) {
      const r = document.createRange();
      r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      const tops = [...r.getClientRects()].filter((b) => b.width > 0).map((b) => b.top);
      if (tops.some((t) => tops.some((u) => Math.abs(t - u) > 3))) found.push(m[0]);
    }
  }
  return found;
}"""

# A draft pile as the table draws one whose top card is face down, put beside the others.
FACE_DOWN_PILE = """async () => {
  const { cardBack } = await import('/cards.js');
  const { h } = await import('/dom.js');
  const { t } = await import('/i18n.js');
  const card = cardBack(h, t('board.faceDown'));
  document.querySelector('.piles').append(h('div', { class: 'pile draft' }, card));
  return card.textContent;
}"""

# The value chips that take more than one line, or stick out of their card.
WRAPPED_CHIPS = """() => [...document.querySelectorAll('main .card .value')].filter((v) => {
  const line = parseFloat(getComputedStyle(v).lineHeight), r = v.getBoundingClientRect();
  const card = v.closest('.card').getBoundingClientRect();
  return r.width > 0 && (r.height > line * 1.5 || r.right > card.right + 1);
}).map((v) => v.textContent)"""


def overlapping(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
            and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)


def moves_in_sight(page: Page, scene: str) -> None:
    """At each phone's size, scrolled to the top: the first move is inside the screen, and
    the status line covers nothing of the table, there or scrolled further down."""
    for phone in PHONES:
        page.set_viewport_size(phone)
        page.evaluate("window.scrollTo(0, 0)")
        parts: dict[str, Any] = page.evaluate(PARTS)
        move = parts["move"]
        if not (move and move["top"] >= 0 and move["bottom"] <= phone["height"]):
            SCREENSHOTS.mkdir(exist_ok=True)  # the state that pushed them out, to look at
            page.screenshot(path=str(SCREENSHOTS / f"{scene}-moves-out-of-sight.png"))
        assert move and move["top"] >= 0 and move["bottom"] <= phone["height"], (
            f"{scene} at {phone}: the first move is at {move}")
        for y in (0, 150, 400):
            page.evaluate(f"window.scrollTo(0, {y})")
            parts = page.evaluate(PARTS)
            if parts["status"]:
                hit = [b for b in parts["covered"] if overlapping(parts["status"], b)]
                assert not hit, f"{scene}, scrolled {y}: the status line covers {hit}"
        page.evaluate("window.scrollTo(0, 0)")
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"phone-{scene}-{phone['height']}.png"))


def own_value_whole(page: Page) -> None:
    meta = page.locator(".seat.me > p.meta")
    whole = meta.evaluate("m => m.scrollWidth <= m.clientWidth")
    assert whole, f"your stack value is cut: {meta.inner_text()!r}"


def test_a_six_card_hand_and_a_duel_leave_the_moves_on_a_phone_screen(
        people: Callable[[str], Person], server: Server) -> None:
    me, game = bots_game(server, "Ada", end_mode="highest_after_3_rounds", hand_size_six=True)
    page = people("ada").page
    page.set_viewport_size(PHONES[0])
    sit_down(page, me, game)
    assert settle(page) == "move"
    wait_idle(page, 30_000)
    expect(page.get_by_role("group", name="Cards in your hand").locator("[data-card]")
           ).to_have_count(6)
    moves_in_sight(page, "six-cards")
    own_value_whole(page)
    assert not serious_accessibility_issues(page)

    # Played on, challenges first, until a duel waits for her answer.
    while settle(page, timeout_s=60) == "move":
        if page.locator(".duel").count() and page.locator(".m-respond").count():
            break
        play_one_move(page)
    else:
        raise AssertionError("the game ended before a duel waited for Ada")
    wait_idle(page, 60_000)
    moves_in_sight(page, "duel")
    own_value_whole(page)
    screenshot(page, "phone-duel")


def every_decision_fits(page: Page) -> set[str]:
    """Plays the game to its end. At each of the player's decisions on the smaller phone,
    scrolled to the top: the first move is inside the screen and no word or value chip is cut.
    Returns the kinds of decision seen beside the turn line ('draft-window', 'challenge')."""
    page.set_viewport_size(PHONES[0])
    seen: set[str] = set()
    while settle(page, timeout_s=60) == "move":
        wait_idle(page, 60_000)
        page.evaluate("window.scrollTo(0, 0)")
        kinds = {k for k in ("draft-window", "challenge")
                 if page.locator(f".centre > .{k}").count()}
        move = page.evaluate(PARTS)["move"]
        fits = bool(move and move["bottom"] <= PHONES[0]["height"])
        if not fits or page.evaluate(BROKEN_WORDS):
            SCREENSHOTS.mkdir(exist_ok=True)  # the state that broke it, to look at
            page.screenshot(path=str(SCREENSHOTS / f"phone-de-{'-'.join(sorted(kinds))}.png"))
        assert fits, f"{kinds}: the first move is at {move}"
        assert not page.evaluate(BROKEN_WORDS), kinds
        assert not page.evaluate(WRAPPED_CHIPS), kinds
        seen |= kinds
        play_one_move(page)
    return seen


def test_a_german_phone_table_keeps_its_chips_and_words_whole(browser: Browser,
                                                               server: Server) -> None:
    me, game = bots_game(server, "Anna", edition="de_2024", players=3)
    context = browser.new_context(base_url=server.url, locale="de-DE", viewport=PHONES[1])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        sit_down(page, me, game)
        play_moves(page, 3)
        wait_idle(page, 60_000)
        page.evaluate("window.scrollTo(0, 0)")
        assert not page.evaluate(WRAPPED_CHIPS)
        assert not page.evaluate(BROKEN_WORDS)
        # A draft pile whose top is face down says "verdeckt" (not "ver-deckt" over two lines).
        assert page.evaluate(FACE_DOWN_PILE) == "verdeckt"
        assert not page.evaluate(BROKEN_WORDS)
        own_value_whole(page)
        screenshot(page, "phone-de")
        assert not serious_accessibility_issues(page)
        # The rest of the game, every decision: the draft windows and duels of a 3-player
        # table (longer German lines beside the stake) still leave the moves on the screen.
        # Without the replay of the bots' moves at a person's pace (0.5–0.9 s an event, most
        # of this test's three minutes): the table at each decision is the same, and the replay's
        # own line was checked above.
        page.emulate_media(reduced_motion="reduce")
        page.reload()
        seen = every_decision_fits(page)
        # Until both were seen: one such game in 5.5 has no duel of hers or no draft window
        # (300 simulated), so six games miss them once in 27,000 runs.
        for _ in range(5):
            if seen == {"draft-window", "challenge"}:
                break
            me, game = bots_game(server, "Anna", edition="de_2024", players=3)
            sit_down(page, me, game)
            seen |= every_decision_fits(page)
        assert seen == {"draft-window", "challenge"}, seen
        # The other screens a German phone shows before a game.
        page.goto("/")
        expect(page.get_by_role("button", name="Gegen Bots spielen")).to_be_visible()
        assert not page.evaluate(BROKEN_WORDS), "the start page"
        page.get_by_role("link", name="Eigenes Spiel").click()
        expect(page.get_by_role("form", name="Eigenes Spiel")).to_be_visible()
        assert not page.evaluate(BROKEN_WORDS), "the custom game"
        assert not errors
    finally:
        context.close()
