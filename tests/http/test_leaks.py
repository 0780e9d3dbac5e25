"""No answer to a seat ever names a card in another hand or in the draw pile while the round
runs: every route, every seat, every step of random games (RULES §15; issue 4)."""

from __future__ import annotations

import json
import random
import re

import pytest

from service.wiring.bootstrap import build

from .contract_check import assert_fits

RULESETS = [
    {"players": 2, "end_mode": "quick"},  # draft piles
    {"players": 3, "end_mode": "quick", "advanced": {"action_cards": True, "two_actions": True,
                                                     "improve_set": True}},
    {"players": 4, "edition": "classic_2011", "end_mode": "quick"},
]
WALKED_STEPS = 25  # every route after each of the first commands; then a walk every 10th


def _hidden_from(state, seat: int) -> set[str]:
    hidden = set(state.draw_pile)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(hand)
    return hidden


async def _answers_for(api, who, game_id: str, round_from: int) -> list[str]:
    """Every route's answer to `who`; each also held against the contract on the way."""
    base, path = f"/v1/games/{game_id}", "/v1/games/{game_id}"
    view = await api.get(who, f"{base}/view")
    version = view.json()["version"]
    answers = [
        (view, "/view"), (await api.get(who, base), ""),
        (await api.get(who, f"{base}/legal-commands"), "/legal-commands"),
        (await api.get(who, f"{base}/events", params={"after": round_from}), "/events"),
        (await api.get(who, f"{base}/state", params={"version": version}), "/state"),
        (await api.get(who, f"{base}/history"), "/history"),
        (await api.get(who, f"{base}/verify"), "/verify"),
        (await api.post(who, f"{base}/commands", {"type": "end_turn"},
                        params={"dry_run": "true"}), "/commands"),
    ]
    for answer, route in answers:
        assert_fits(answer, path + route)
    return [r.text for r, _ in answers] + [await _sse_text(api, who, base, round_from, version)]


async def _sse_text(api, who, base: str, after: int, upto: int) -> str:
    """The event stream from `after` until it has delivered version `upto`."""
    lines = []
    async with api.http.stream("GET", f"{base}/events", params={"after": after}, headers={
            **who.auth, "Accept": "text/event-stream"}) as r:
        async for line in r.aiter_lines():
            lines.append(line)
            if line.startswith("id:") and int(line[3:]) >= upto:
                break
    return "\n".join(lines)


def _leaks(texts: list[str], hidden: set[str]) -> set[str]:
    named = {m for t in texts for m in re.findall(r'"([a-z_]+#\d+)"', t)}
    return named & hidden


@pytest.mark.parametrize("rules", RULESETS, ids=["2p-draft", "3p-advanced", "4p-classic"])
async def test_given_random_games_then_no_seat_ever_sees_another_hand_or_the_draw_pile(
        api, live, rules):
    rng = random.Random(hash(str(rules)) & 0xFFFF)
    people = [await api.player(f"p{i}") for i in range(rules["players"])]
    game_id = await api.game(people[0], people[1:], ruleset=rules)
    seats = await api.seats(game_id, people)
    services = build(live.settings)
    try:
        for step in range(2000):
            game = await services.pipeline.load(game_id, fresh=True)
            if game.status == "finished":
                break
            if step < WALKED_STEPS or step % 10 == 0:
                round_from = await _round_start(api, seats[0], game_id)
                for seat, who in seats.items():
                    texts = await _answers_for(api, who, game_id, round_from)
                    hidden = _hidden_from(game.state, seat)
                    leaked = [(route, _leaks([t], hidden)) for route, t in enumerate(texts)]
                    assert not _leaks(texts, hidden), (step, seat, leaked)
            result = await api.step(game_id, seats, rng)
            if result is not None:  # the mover sees its own draw; nothing else hidden
                mover = game.state.pending_seats()[0]
                assert not _leaks([json.dumps(result)], _hidden_from(game.state, mover)
                                  - _drawn(result, mover))
        else:
            pytest.fail("the game did not finish")
    finally:
        await services.close()


def _drawn(result: dict, seat: int) -> set[str]:
    return {c for e in result["events"] if e["event"]["type"] == "cards_drawn"
            and e["event"]["seat"] == seat for c in e["event"]["cards"] or ()}


async def _round_start(api, who, game_id: str) -> int:
    """Cards of an earlier round are public history; judge this round's events only."""
    page = (await api.get(who, f"/v1/games/{game_id}/events", params={"limit": 500})).json()
    starts = [e["version"] for e in page["events"] if e["event"]["type"] == "round_started"]
    return starts[-1] - 1 if starts else 0
