"""A small scenario builder: start a real game, then lay out the cards a story needs.

Cards are named by type (`"classic_auto"` takes the next free copy) or by id (`"gold#2"`).
Every card of the round's deck stays in exactly one place: the cards a scenario does not
name go to the draw pile (or under the discard pile, with `rest="discard"`), so card
conservation holds and the engine sees an ordinary state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from msgspec.structs import replace

from cya_rules import GameState, RuleSet, StartGame, execute, new_game
from cya_rules.cards import all_cards, card_table, card_type
from cya_rules.commands import Command
from cya_rules.events import Event
from cya_rules.sets import group_type
from cya_rules.state import AwaitingAction, CardSet

SEED = bytes(range(32))


def started(ruleset: RuleSet, seed: bytes = SEED) -> GameState:
    return execute(new_game(ruleset), StartGame(seed), None)[1]


class _Pool:
    def __init__(self, cards: Iterable[str]) -> None:
        self.cards = list(cards)

    def take(self, spec: str) -> str:
        if "#" in spec:
            if spec not in self.cards:
                raise ValueError(f"{spec} is not free in this round's deck")
            self.cards.remove(spec)
            return spec
        for card in self.cards:
            if card_type(card) == spec:
                self.cards.remove(card)
                return card
        raise ValueError(f"no free {spec} card left in this round's deck")

    def take_all(self, specs: Iterable[str]) -> tuple[str, ...]:
        return tuple(self.take(s) for s in specs)


def lay_out(
    ruleset: RuleSet,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    stacks: Mapping[int, Sequence[Sequence[str]]] | None = None,
    discard: Sequence[str] = (),
    draft_piles: Sequence[Sequence[str]] | None = None,
    draw: Sequence[str] = (),
    rest: Literal["draw", "discard"] = "draw",
    active: int = 0,
    actions_taken: int = 0,
    seed: bytes = SEED,
) -> GameState:
    """A started game with exactly these cards in these places (stacks bottom → top; draft
    piles and the draw pile top first; the discard pile bottom → top)."""
    state = started(ruleset, seed)
    pool = _Pool(c for c in all_cards(ruleset.edition) if c not in state.removed)
    n = state.players
    hands = hands or {}
    stacks = stacks or {}
    table_hands = tuple(pool.take_all(hands.get(seat, ())) for seat in range(n))
    table_stacks = tuple(
        tuple(_card_set(ruleset, pool.take_all(cards)) for cards in stacks.get(seat, ()))
        for seat in range(n)
    )
    piles: tuple[tuple[str, ...], ...] = ()
    if ruleset.uses_draft_piles:
        piles = tuple(pool.take_all(p) for p in (draft_piles or ((), (), ())))
    top_discard = pool.take_all(discard)
    top_draw = pool.take_all(draw)
    leftover = tuple(pool.cards)
    if rest == "draw":
        draw_pile, discard_pile = top_draw + leftover, top_discard
    else:
        draw_pile, discard_pile = top_draw, leftover + top_discard
    return replace(
        state,
        hands=table_hands,
        stacks=table_stacks,
        draw_pile=draw_pile,
        discard_pile=discard_pile,
        draft_piles=piles,
        draft_face_up=tuple(bool(p) for p in piles),
        out_of_play=(),
        active=active,
        actions_taken=actions_taken,
        pending=AwaitingAction(active, actions_taken),
    )


def _card_set(ruleset: RuleSet, cards: tuple[str, ...]) -> CardSet:
    set_type = group_type(card_table(ruleset.edition), cards)
    assert set_type is not None, f"{cards} is not a set"
    return CardSet(set_type, cards)


def run(state: GameState, *steps: tuple[int | None, Command]) -> tuple[list[Event], GameState]:
    """Execute commands one after another; returns all their events and the final state."""
    events: list[Event] = []
    for actor, command in steps:
        new, state = execute(state, command, actor)
        events.extend(new)
    return events, state


def kinds(events: Iterable[Event]) -> list[str]:
    """The event tags, for asserting the shape of a story."""
    return [type(e).__name__ for e in events]


def locations(state: GameState) -> dict[str, list[str]]:
    """Every place a card can be (RULES §2.5), each with the cards it holds."""
    places: dict[str, list[str]] = {
        "draw_pile": list(state.draw_pile),
        "discard_pile": list(state.discard_pile),
        "out_of_play": list(state.out_of_play),
        "removed": list(state.removed),
        "draft_piles": [c for pile in state.draft_piles for c in pile],
        "hands": [c for hand in state.hands for c in hand],
        "stacks": [c for stack in state.stacks for s in stack for c in s.cards],
        "draft_limbo": list(state.draft.set.cards) if state.draft else [],
    }
    pot = getattr(state.pending, "pot", ())
    places["challenge_pot"] = [c for play in pot for c in play.cards]
    return places


def assert_conserved(state: GameState) -> None:
    """All 110 cards of the edition are in exactly one place (RULES §2.5)."""
    found = [c for cards in locations(state).values() for c in cards]
    assert sorted(found) == sorted(all_cards(state.ruleset.edition)), _diff(state, found)


def _diff(state: GameState, found: list[str]) -> str:
    expected = set(all_cards(state.ruleset.edition))
    missing = expected - set(found)
    extra = [c for c in set(found) if found.count(c) > 1 or c not in expected]
    return f"missing {sorted(missing)}, duplicated or foreign {sorted(extra)}"
