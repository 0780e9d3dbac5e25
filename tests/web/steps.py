"""What a person does in the web client, step by step, with the locators a person would use:
labels, button names, regions. Each test reads as a list of these steps."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Page, expect

# A move a person picks when several are offered, best first: the tests want challenges.
PREFERENCE = ("m-respond", "m-challenge_draft", "m-challenge", "m-draft_set", "m-form_set",
              "m-improve_set", "m-play_swap", "m-play_move", "m-choose_move_direction",
              "m-pass_draft", "m-discard", "m-end_turn", "m-concede")
CARD_ID = re.compile(r"[a-z_]+#\d+")
EDITIONS = {"en_2022": "English edition (2022)", "de_2024": "German edition (2024)",
            "classic_2011": "Classic edition (2011)"}


def sign_up(page: Page, name: str) -> str:
    """From the start screen: a name, a key (copied), then on. Returns the key."""
    page.get_by_label("Your display name").fill(name)
    page.get_by_role("button", name="Get my key").click()
    key = page.get_by_label("Your API key").input_value()
    assert key.startswith("cya_")
    page.get_by_role("button", name="Copy key").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    page.get_by_role("link", name="Continue").click()
    return key


def create_game(page: Page, *, players: int, seats: list[str], edition: str = "en_2022",
                public: bool = True, unchecked: tuple[str, ...] = (),
                turn_clock: int | None = None, spectator_delay: int = 0) -> str:
    """From the lobby, the custom game's form: the rules, each other seat ("open for a person"
    or "greedy bot"), public or private, the spectator delay. Returns the game id (from the
    address the page moved to)."""
    page.get_by_role("link", name="Custom game").click()
    form = page.get_by_role("form", name="Custom game")
    form.get_by_label("Players", exact=True).select_option(label=f"{players} players")
    form.get_by_label("Edition", exact=True).select_option(label=EDITIONS[edition])
    form.get_by_label("How the game ends", exact=True).select_option(label="one round")
    for n, choice in enumerate(seats, start=2):
        form.get_by_label(f"Seat {n}", exact=True).select_option(label=choice)
    if not public:
        form.get_by_label(re.compile("^Public: listed")).uncheck()
    for option in unchecked:
        form.get_by_label(option, exact=True).uncheck()
    if turn_clock:
        form.get_by_label(re.compile("^Seconds per decision")).fill(str(turn_clock))
    if spectator_delay:
        form.get_by_label(re.compile("^Delay for watchers")).fill(str(spectator_delay))
    form.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"#/game/[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


# What the server says of the page's game, beside what the page shows: a settle that times out
# tells whether the game waited (for whom, since which version) or the page fell behind it.
GAME_AS_SERVED = """async () => {
  const id = location.hash.split('/')[2], key = localStorage.getItem('cya.key');
  const res = await fetch(`/v1/games/${id}/turn?timeout=0`,
                          { headers: { Authorization: `Bearer ${key}` } });
  const turn = await res.json();
  return { shown: document.querySelector('.board')?.dataset.version ?? null,
           served: turn.version, status: turn.status, awaiting: turn.awaiting,
           moves: (turn.legal_commands ?? []).length };
}"""
# No card flies and no replay waits; and, when that does not come, what keeps it from coming.
IDLE = """() => document.getAnimations().length === 0
  && document.querySelector('.skip-motion')?.hidden !== false"""
MOTION_STATE = """() => ({
  animations: document.getAnimations().map((a) => `${a.playState} ${a.effect?.target?.className}`),
  skip: document.querySelector('.skip-motion')?.textContent ?? null,
  skipHidden: document.querySelector('.skip-motion')?.hidden ?? null,
  visibility: document.visibilityState,
  version: document.querySelector('.board')?.dataset.version ?? null })"""


def _wait_for(page: Page, condition: str, timeout_ms: float, what: str, state: str) -> None:
    """`condition` true on the page, or an AssertionError saying `what` did not come and
    what `state` read from the page then."""
    try:
        page.wait_for_function(condition, timeout=timeout_ms)
    except Exception as timed_out:
        raise AssertionError(f"{what} in {timeout_ms / 1000:.0f} s: "
                             f"{page.evaluate(state)}") from timed_out


def wait_idle(page: Page, timeout_ms: float) -> None:
    """Until no card flies and no replay waits (`IDLE`)."""
    _wait_for(page, IDLE, timeout_ms, "the table did not idle", MOTION_STATE)


def settle(page: Page, timeout_s: float = 20) -> str:
    """Wait until the page shows a decision of ours or the game's end: 'move' or 'over'."""
    _wait_for(page, """() => document.querySelector('.game-over')
                  || document.querySelector('.move-list button.move:not([disabled])')""",
              timeout_s * 1000, "no decision nor end shown", GAME_AS_SERVED)
    return "over" if page.locator(".game-over").count() else "move"


def shown_version(page: Page) -> int:
    return int(page.locator(".board").get_attribute("data-version") or 0)


def click_and_wait(page: Page, button: Any) -> None:
    """Click a move and wait until the table shows its result: a newer version than the one
    the move was offered at, or the game's end."""
    version = shown_version(page)
    button.click()
    page.wait_for_function(
        """v => document.querySelector('.game-over')
              || Number(document.querySelector('.board')?.dataset.version ?? v) > v""",
        arg=version, timeout=30_000)


def play_one_move(page: Page) -> str:
    """Click the move a person who likes challenges would: the first offered of the most
    wanted kind. Returns its kind. The kinds are read in one go from the page (the table can
    be redrawn between two questions), and the click goes to a button of that kind. No two
    moves offered read alike (two copies of a card make one move, not two buttons)."""
    # A German edition's table speaks German: "Deine Züge".
    moves = page.get_by_role("region", name=re.compile(r"^(Your moves|Deine Züge)$"))
    buttons: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll('.move-list button.move:not([disabled])')]
              .map(b => [[...b.classList].find(c => c.startsWith('m-')), b.textContent])""")
    texts = [text for _, text in buttons]
    assert len(set(texts)) == len(texts), f"moves alike: {texts}"
    offered = [kind for kind, _ in buttons]
    for kind in PREFERENCE:
        if kind in offered:
            click_and_wait(page, moves.locator(f"button.{kind}:not([disabled])").first)
            return kind
    raise AssertionError(f"no move offered (the page offered {offered})")


def play_moves(page: Page, moves: int) -> None:
    """Up to `moves` of this player's moves (`play_one_move`), then until the page settles."""
    for _ in range(moves):
        if settle(page) != "move":
            break
        play_one_move(page)
    settle(page)


def cards_on_page(page: Page) -> tuple[int, set[str]]:
    """Every card id in the page (the DOM's text and attributes) and in the app's state
    (`window.cya`), with the version the table shows."""
    found: dict[str, Any] = page.evaluate(
        """() => ({version: Number(document.querySelector('.board')?.dataset.version || 0),
                   text: document.documentElement.outerHTML + JSON.stringify(
                       window.cya.state, (k, v) => v instanceof Set ? [...v] : v)})""")
    return found["version"], set(CARD_ID.findall(found["text"]))


def hands_by_version(history: list[dict[str, Any]]) -> dict[int, list[list[str]]]:
    """Every seat's hand after each version, from the finished game's unredacted history."""
    hands: list[list[str]] = []
    out: dict[int, list[list[str]]] = {}
    for line in history:
        e = line["data"]
        if e["type"] == "round_started":
            hands = [list(h) for h in e["hands"]]
        elif e["type"] == "cards_drawn":
            hands[e["seat"]].extend(e["cards"])
        else:
            named = [e.get("card"), e.get("hand_card"), *(e.get("cards") or [])]
            for hand in hands:
                hand[:] = [c for c in hand if c not in named]
        out[line["version"]] = [list(h) for h in hands]
    return out


def leaks(snapshots: list[tuple[int, set[str]]], history: list[dict[str, Any]],
          seat: int | None) -> list[str]:
    """Card ids of another seat's hand that a page held, at the version it showed."""
    hands = hands_by_version(history)
    found = []
    for version, ids in snapshots:
        for other, hand in enumerate(hands.get(version, [])):
            if other != seat and (seen := ids & set(hand)):
                found.append(f"v{version}: seat {other}'s {sorted(seen)}")
    return found


def wait_until(check: Any, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
