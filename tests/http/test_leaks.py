"""No answer ever tells a seat or a spectator a secret while the round runs: every route, every
seat and a spectator, every step of random games (RULES §15, §17 A45; issues 4 and 31).

The secrets: other seats' hands, the draw pile, the draft piles' face-down cards, the secret
cards of sets others formed (public_set_composition off), the round's seed until the round
ends and the game's master seed until the game does."""

from __future__ import annotations

import base64
import json
import random
import re

import pytest

from cya_rules.events import RevealedActionReturned, RoundStarted
from cya_rules.views import sets_shown
from service.wiring.bootstrap import build

from .contract_check import assert_fits

RULESETS = [
    {"players": 2, "end_mode": "quick", "advanced": {"action_cards": True}},  # draft piles
    {"players": 3, "end_mode": "quick", "public_set_composition": False,
     "advanced": {"action_cards": True, "two_actions": True, "improve_set": True}},
    {"players": 4, "edition": "classic_2011", "end_mode": "quick"},  # sets hidden by default
]
WALKED_STEPS = 25  # every route after each of the first commands; then a walk every 10th


def _put_back(log) -> set[str]:
    """Action cards seen going back face down into a draft pile this round (§14.5, §14.6):
    where each lies is secret, not the card."""
    start = max(i for i, e in enumerate(log) if isinstance(e, RoundStarted))
    known = {pc.card for pc in log[start].pushed_back}
    return known | {e.card for e in log[start:] if isinstance(e, RevealedActionReturned)}


def _hidden_from(state, seat: int | None, put_back: set[str]) -> set[str]:
    hidden = set(state.draw_pile)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(hand)
    for pile, up in zip(state.draft_piles, state.draft_face_up, strict=True):
        hidden |= set(pile[1 if up else 0:]) - put_back
    if not sets_shown(state):
        hidden |= {card for card, former in state.set_secrets if former != seat}
    return hidden


def _secret_seeds(state) -> set[str]:
    """The seeds as JSON would carry them (base64) and as a person might (hex)."""
    seeds = [state.round_seed] if state.status != "finished" else []
    if state.status != "finished":
        seeds.append(state.master_seed)
    return {form for seed in seeds if seed
            for form in (base64.b64encode(seed).decode(), seed.hex())}


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


def _leaks(texts: list[str], hidden: set[str], seeds: set[str] = frozenset()) -> set[str]:
    named = {m for t in texts for m in re.findall(r'"([a-z_]+#\d+)"', t)}
    return (named & hidden) | {seed for seed in seeds if any(seed in t for t in texts)}


@pytest.mark.parametrize("rules", RULESETS, ids=["2p-draft", "3p-advanced-hidden-sets",
                                                 "4p-classic"])
async def test_given_random_games_then_no_seat_nor_spectator_ever_sees_a_secret(
        api, live, rules):
    rng = random.Random(hash(str(rules)) & 0xFFFF)
    people = [await api.player(f"p{i}") for i in range(rules["players"])]
    spectator = await api.player("watcher")
    game_id = await api.game(people[0], people[1:], ruleset=rules)
    seats = await api.seats(game_id, people)
    walkers: list[tuple[int | None, object]] = [*seats.items(), (None, spectator)]
    services = build(live.settings)
    secrets_seen = 0
    try:
        for step in range(2000):
            game = await services.pipeline.load(game_id, fresh=True)
            if game.status == "finished":
                break
            state = game.state
            log = [s.event for s in await _log(services, game_id)]
            put_back, seeds = _put_back(log), _secret_seeds(state)
            secrets_seen += bool(state.set_secrets)
            if step < WALKED_STEPS or step % 10 == 0:
                round_from = await _round_start(api, seats[0], game_id)
                for seat, who in walkers:
                    texts = await _answers_for(api, who, game_id, round_from)
                    hidden = _hidden_from(state, seat, put_back)
                    leaked = [(route, _leaks([t], hidden, seeds))
                              for route, t in enumerate(texts)]
                    assert not _leaks(texts, hidden, seeds), (step, seat, leaked)
            result = await api.step(game_id, seats, rng)
            if result is not None:  # what the command revealed (the mover's draw, a pile's
                # next card, a round's seed) is no secret in its answer; nothing else is told
                mover = state.pending_seats()[0]
                after = (await services.pipeline.load(game_id, fresh=True)).state
                later = _put_back([s.event for s in await _log(services, game_id)])
                hidden = (_hidden_from(state, mover, put_back)
                          & _hidden_from(after, mover, later)) - _drawn(result, mover)
                assert not _leaks([json.dumps(result)], hidden, seeds & _secret_seeds(after))
        else:
            pytest.fail("the game did not finish")
    finally:
        await services.close()
    if rules.get("public_set_composition") is False or rules.get("edition") == "classic_2011":
        assert secrets_seen, "no secret set was formed: the walk proved nothing about them"


async def _log(services, game_id: str):
    async with services.store.read() as conn:
        return await services.store.load(conn, game_id)


def _drawn(result: dict, seat: int) -> set[str]:
    return {c for e in result["events"] if e["event"]["type"] == "cards_drawn"
            and e["event"]["seat"] == seat for c in e["event"]["cards"] or ()}


async def _round_start(api, who, game_id: str) -> int:
    """Cards of an earlier round are public history; judge this round's events only."""
    page = (await api.get(who, f"/v1/games/{game_id}/events", params={"limit": 500})).json()
    starts = [e["version"] for e in page["events"] if e["event"]["type"] == "round_started"]
    return starts[-1] - 1 if starts else 0
