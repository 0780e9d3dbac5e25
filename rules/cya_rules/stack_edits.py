"""Small pure edits of a game state's tuples, shared by the evolve modules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from .cards import Kind, card_table
from .state import AwaitingAction, CardSet, Flipping, GameState, Pending, TurnOver
from .state import Direction as Dir

Stack = tuple[CardSet, ...]


def without(cards: tuple[str, ...], remove: Iterable[str]) -> tuple[str, ...]:
    out = list(cards)
    for c in remove:
        out.remove(c)
    return tuple(out)


def put(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(seq)  # half the time of slicing and unpacking into a new tuple
    out[index] = value
    return tuple(out)


def assets_first(state: GameState, cards: Iterable[str]) -> tuple[str, ...]:
    """Card order inside a set is cosmetic (§17 A22); assets first, wilds below, for display.
    A stable partition (the order a stable sort on "is not an asset" gives), without the sort."""
    table = card_table(state.ruleset.edition)
    assets: list[str] = []
    others: list[str] = []
    for c in cards:
        (assets if table[c].kind is Kind.ASSET else others).append(c)
    return (*assets, *others)


def move_stack(stack: Stack, direction: Dir) -> Stack:
    if direction == "top_to_bottom":
        return (stack[-1], *stack[:-1])
    return (*stack[1:], stack[0])


def swap_tops(stacks: tuple[Stack, ...], a: int, b: int) -> tuple[Stack, ...]:
    top_a, top_b = stacks[a][-1], stacks[b][-1]
    stacks = put(stacks, a, (*stacks[a][:-1], top_b))
    return put(stacks, b, (*stacks[b][:-1], top_a))


def max_actions(state: GameState) -> int:
    return 2 if state.ruleset.advanced.two_actions else 1


def resume_turn(state: GameState) -> Pending:
    """What the turn waits for once an action (and all it set off) is complete."""
    return resume_after(state, state.actions_taken)


def resume_after(state: GameState, actions_taken: int) -> Pending:
    """`resume_turn` of `state` once its actions taken are `actions_taken`: lets an action's
    handler build the next state in one `replace` (the engine's hot path)."""
    if actions_taken < max_actions(state):
        return AwaitingAction(state.active, actions_taken)
    return TurnOver(state.active)


def after_flip(state: GameState) -> GameState:
    return replace(state, pending=Flipping() if state.flip_queue else resume_turn(state))


def take_hand(state: GameState, seat: int, cards: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    return put(state.hands, seat, without(state.hands[seat], cards))


def push_set(stacks: tuple[Stack, ...], seat: int, card_set: CardSet) -> tuple[Stack, ...]:
    return put(stacks, seat, (*stacks[seat], card_set))
