"""Issue 40, "Rematch" as the other player sees it: two people finish a game, one asks for a
rematch, the other's table tells of the offer, the other accepts it, and both sit at the new
game's table."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import Person, Server, screenshot, serious_accessibility_issues
from .steps import wait_until
from .test_table_look import sit_down


def player(server: Server, name: str) -> tuple[dict[str, Any], httpx.Client]:
    me = httpx.post(f"{server.url}/v1/players", json={"name": name}).json()
    return me, httpx.Client(base_url=f"{server.url}/v1", timeout=30,
                            headers={"Authorization": f"Bearer {me['api_key']}"})


def play_to_the_end(game: str, seats: list[httpx.Client]) -> None:
    """Each seat takes the first move it is offered, until the game is over."""
    def over() -> bool:
        for api in seats:
            turn = api.get(f"/games/{game}/turn", params={"timeout": 0}).json()
            if turn["view"]["status"] == "finished":
                return True
            if turn["legal_commands"]:
                api.post(f"/games/{game}/commands", json=turn["legal_commands"][0])
        return False
    wait_until(over, timeout_s=120)


def test_the_other_player_sees_the_rematch_offer_and_both_sit_at_the_new_table(
        people: Callable[[str], Person], server: Server) -> None:
    (ada_me, ada_api), (bob_me, bob_api) = player(server, "Ada"), player(server, "Bob")
    game = ada_api.post("/games", json={
        "ruleset": {"players": 2, "end_mode": "quick"}, "public": False}).json()["game_id"]
    bob_api.post(f"/games/{game}/seats").raise_for_status()
    ada_api.post(f"/games/{game}/start").raise_for_status()
    play_to_the_end(game, [ada_api, bob_api])

    ada, bob = people("ada"), people("bob")
    for person, me in ((ada, ada_me), (bob, bob_me)):
        sit_down(person.page, me, game)
        expect(person.page.get_by_role("region", name="Final scores")).to_be_visible()
    ada.page.get_by_role("button", name="Rematch").click()
    ada.page.wait_for_url(re.compile(rf"#/game/(?!{game})[\w-]+$"))
    rematch = ada.page.url.rsplit("/", 1)[1]
    expect(ada.page.get_by_role("heading", name="Waiting for 1 more player")).to_be_visible()
    # Bob's seat is kept for him, and says so (it read "Open seat 1").
    expect(ada.page.get_by_text("Seat 1, kept for Bob")).to_be_visible()
    screenshot(ada.page, "rematch-waiting")

    # Bob's finished table hears of it (the page reads the log after the end) and offers it.
    expect(bob.page.get_by_role("status").filter(has_text="Ada offers a rematch.")
           ).to_be_visible(timeout=30_000)
    expect(bob.page.get_by_role("button", name="Rematch")).to_have_count(0)
    screenshot(bob.page, "rematch-offered")
    assert not serious_accessibility_issues(bob.page)
    bob.page.get_by_role("link", name="Join the rematch").click()

    bob.page.wait_for_url(re.compile(rf"#/game/{rematch}$"))
    for p in (ada.page, bob.page):
        expect(p.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    ada.page.get_by_role("button", name="Start the game").click()
    for p in (ada.page, bob.page):
        expect(p.get_by_role("region", name="The table")).to_be_visible()
        summary = p.evaluate("() => window.cya.state.summary")
        assert summary["game_id"] == rematch and summary["rematch_of"] == game
        assert summary["status"] == "playing"
    screenshot(bob.page, "rematch-table")
