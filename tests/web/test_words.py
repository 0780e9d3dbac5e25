"""Issue 36, defect 7: what the pages say, word for word. A key screen is named for what it is
(there are no accounts), an invitation opened without a key says it is one, a 2-player table
waits for "the other player", and one round win is not "1 round win(s)"."""

from __future__ import annotations

import json
import re
import time

import httpx
from playwright.sync_api import expect

from .conftest import Server, screenshot, serious_accessibility_issues
from .steps import sign_up


def player(server: Server, name: str) -> httpx.Client:
    api = httpx.Client(base_url=f"{server.url}/v1")
    key = api.post("/players", json={"name": name}).json()["api_key"]
    api.headers["Authorization"] = f"Bearer {key}"
    return api


def test_an_invitation_opened_without_a_key_says_what_the_key_is_for(people, server: Server):
    ada = player(server, "Ada")
    game = ada.post("/games", json={"ruleset": {"players": 2}, "public": False}).json()["game_id"]

    bob = people("bob").page
    bob.goto(f"/#/join/{game}")
    expect(bob.get_by_role("heading", name="You were invited to a game")).to_be_visible()
    expect(bob.get_by_text(
        "Ada invites you to a 2-player game (English edition (2022), first to a million). "
        "Choose a name (or paste your key) to take your seat.")).to_be_visible()
    # No accounts, so nothing to sign in to: the header says what it offers.
    expect(bob.get_by_role("link", name="Get or use an API key")).to_be_visible()
    expect(bob.get_by_text(re.compile("sign in", re.IGNORECASE))).to_have_count(0)
    screenshot(bob, "invited")
    assert not serious_accessibility_issues(bob)

    sign_up(bob, "Bob")
    expect(bob.get_by_role("heading", name="Everyone is seated")).to_be_visible()
    expect(bob.get_by_role("link", name="Your key")).to_be_visible()


def test_a_two_player_table_waits_for_the_other_player(people, server: Server):
    ada = people("ada")
    ada.page.goto("/")
    key = sign_up(ada.page, "Ada")
    bob = player(server, "Bob")
    api = httpx.Client(base_url=f"{server.url}/v1", headers={"Authorization": f"Bearer {key}"})
    game = api.post("/games", json={"ruleset": {"players": 2, "first_player": 1}}).json()[
        "game_id"]
    bob.post(f"/games/{game}/seats").raise_for_status()
    api.post(f"/games/{game}/start").raise_for_status()

    ada.page.goto(f"/#/game/{game}")
    expect(ada.page.get_by_role("heading", name="Waiting for the other player", exact=True)
           ).to_be_visible()


def test_one_round_win_is_said_in_the_singular(people, server: Server):
    api = player(server, "Ada")
    game = api.post("/games", json={
        "ruleset": {"players": 2, "end_mode": "first_to_2_round_wins"}, "join": False,
        "bots": [{"level": "greedy"}, {"level": "random"}]}).json()["game_id"]
    api.post(f"/games/{game}/start").raise_for_status()
    deadline = time.monotonic() + 120
    while api.get(f"/games/{game}").json()["summary"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    # The first version at which a seat has won a round: it has won one.
    history = [json.loads(line) for line in api.get(f"/games/{game}/history").iter_lines()
               if line]
    version = next(line["version"] for line in history if line["data"]["type"] == "round_ended"
                   and any(s["round_wins"] == 1 for s in api.get(
                       f"/games/{game}/state", params={"version": line["version"]}
                   ).json()["view"]["seats"]))

    page = people("ada").page
    page.goto(f"/#/audit/{game}/{version}")
    seats = page.get_by_role("region", name="The table").locator(".seat p.meta")
    expect(seats.filter(has_text=re.compile(r"· 1 round win$"))).to_have_count(1)
    page.get_by_role("button", name="Last version").click()
    expect(seats.filter(has_text=re.compile(r"· 2 round wins$"))).to_have_count(1)
