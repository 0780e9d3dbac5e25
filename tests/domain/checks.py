"""What must hold at every step of every game (RULES §4 invariants, §15 visibility, issue 2's
property list), as plain functions the property tests and the playthroughs share."""

from __future__ import annotations

import gc
import random
import re
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import msgspec

from cya_rules import (
    Event,
    GameState,
    RuleViolation,
    commands,
    evolve,
    execute,
    fold,
    legal_commands,
    player_view,
    redact,
    spectator_view,
)
from cya_rules.cards import Kind, card_table
from cya_rules.scoring import stack_value
from cya_rules.sets import group_type
from cya_rules.state import AwaitingAction
from cya_rules.views import sets_shown

from .table import assert_conserved

_EVENTS = msgspec.json.Decoder(list[Event])  # type: ignore[arg-type]


def assert_sets_well_formed(state: GameState) -> None:
    """RULES §4 invariant 4: every set has ≥ 1 asset and exactly one asset type."""
    table = card_table(state.ruleset.edition)
    for stack in state.stacks:
        for card_set in stack:
            assert len(card_set.cards) >= 2, card_set
            assert group_type(table, card_set.cards) == card_set.type, card_set


def assert_full_hands_while_deck_lasts(state: GameState) -> None:
    """RULES §4 invariant 3: at the start of a turn, while the draw pile lasts, hands hold H."""
    p = state.pending
    if isinstance(p, AwaitingAction) and p.actions_taken == 0 and state.draw_pile:
        assert [len(h) for h in state.hands] == [state.ruleset.hand_size] * state.players


def assert_folds(before: GameState, events: list[Event], after: GameState) -> None:
    """The events, through JSON and back, fold `before` into exactly `after`."""
    decoded = _EVENTS.decode(msgspec.json.encode(events))
    assert decoded == events
    assert fold(before, decoded) == after


_CARD_ID = re.compile(rb'"([a-z_]+#[0-9]+)"')


def assert_untracked(value: Any, path: str = "state") -> None:
    """No game value is tracked by the garbage collector (`gc=False` structs; CPython untracks
    a tuple of untracked items at its first collection): every young collection would walk
    them, stalling every command in flight (see `service.wiring.bootstrap.tune_gc`)."""
    if isinstance(value, msgspec.Struct):
        assert not gc.is_tracked(value), f"{path} ({type(value).__name__}) is GC-tracked"
        for name in value.__struct_fields__:
            assert_untracked(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, tuple | frozenset):
        for i, item in enumerate(value):
            assert_untracked(item, f"{path}[{i}]")


def card_ids_in(value: Any) -> set[str]:
    """Every card id named anywhere in a struct, as a whole JSON string."""
    return {m.decode() for m in _CARD_ID.findall(msgspec.json.encode(value))}


def hidden_from(state: GameState, viewer: int | None) -> set[str]:
    """Cards the viewer must not see (RULES §15): other seats' hands, the draw pile, the draft
    piles' face-down cards, and the secret cards of sets that others formed (§17 A45).

    A revealed action card put back face down (§14.5, §14.6) was seen going back: where it
    lies is secret, not the card; so action cards do not count among face-down cards here."""
    hidden = set(state.draw_pile)
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden.update(hand)
    table = card_table(state.ruleset.edition)
    for pile, up in zip(state.draft_piles, state.draft_face_up, strict=True):
        hidden.update(c for c in pile[1 if up else 0:] if table[c].kind is not Kind.ACTION)
    if not sets_shown(state):  # a finished game shows them (§17 A45)
        hidden.update(card for card, seat in state.set_secrets if seat != viewer)
    return hidden


def assert_view_shows_the_stacks(state: GameState) -> None:
    """A view's stacks are the state's, set by set, whatever the views' cache of stack parts
    (found by the stack's identity) holds from earlier states and other games."""
    public = sets_shown(state)
    table = card_table(state.ruleset.edition)
    view = spectator_view(state)
    for seat, stack in zip(view.seats, state.stacks or ((),) * state.players, strict=True):
        assert [(s.type, s.count, s.top, s.cards) for s in seat.stack] == [
            (cs.type, len(cs.cards), cs.cards[0], cs.cards if public else None) for cs in stack]
        assert seat.stack_value == (stack_value(table, stack) if public else None)


def assert_views_hide_cards(before: GameState, events: Sequence[Event]) -> None:
    """No seat's view, nor a spectator's, nor their redacted events, names a card that is in
    another hand or in the draw pile at that moment (each event against the state it leads to)."""
    viewers = [*range(before.players), None]
    state = before
    for event in events:
        state = evolve(state, event)
        for viewer in viewers:
            leaked = card_ids_in(redact(event, viewer)) & hidden_from(state, viewer)
            assert not leaked, f"viewer {viewer} sees {sorted(leaked)} in {event!r}"
    for viewer in viewers:
        view = player_view(state, viewer) if viewer is not None else spectator_view(state)
        leaked = card_ids_in(view) & hidden_from(state, viewer)
        assert not leaked, f"viewer {viewer} sees {sorted(leaked)} in its view"


def canonical(command: commands.Command) -> tuple[Any, ...]:
    """A command with its card lists sorted: the order of named cards carries no meaning."""
    fields = msgspec.structs.asdict(command)
    return (
        type(command).__name__,
        *(tuple(sorted(v)) if isinstance(v, tuple) else v for _, v in sorted(fields.items())),
    )


def random_command(state: GameState, rng: random.Random) -> tuple[int | None, commands.Command]:
    """A command from anyone, built from plausible and implausible parts."""
    n = state.players
    actor: int | None = rng.choice([*range(n), *state.pending_seats() * 3, -1, n, None])
    own = list(state.hands[actor]) if actor is not None and 0 <= actor < n else []
    others = [c for h in state.hands for c in h if c not in own]
    pool = own * 3 + others[:6] + list(state.draw_pile[:3]) + list(state.discard_pile[-1:])
    pool += [p[0] for p in state.draft_piles if p] + ["bogus#1"]

    def cards(k: int) -> tuple[str, ...]:
        return tuple(rng.choice(pool) for _ in range(k))

    seat = rng.randrange(-1, n + 1)
    direction = rng.choice(["top_to_bottom", "bottom_to_top"])
    makers = [
        lambda: commands.FormSet(rng.choice(["hand", "discard"]), cards(rng.randint(1, 3))),
        lambda: commands.Discard(cards(1)[0]),
        lambda: commands.Challenge(seat, rng.choice(["top", "second"]), cards(rng.randint(1, 2))),
        lambda: commands.DraftSet(cards(1)[0], cards(rng.randint(0, 3))),
        lambda: commands.ImproveSet(cards(1)[0]),
        lambda: commands.PlaySwap(cards(1)[0], seat),
        lambda: commands.PlayMove(cards(1)[0], seat, direction),
        lambda: commands.EndTurn(),
        lambda: commands.Respond(cards(rng.randint(1, 2))),
        lambda: commands.Concede(),
        lambda: commands.ChallengeDraft(cards(rng.randint(1, 2))),
        lambda: commands.PassDraft(),
        lambda: commands.ChooseMoveDirection(direction),
    ]
    if rng.random() < 0.03:
        return None, commands.StartGame(bytes(32))
    return actor, rng.choice(makers)()  # type: ignore[no-untyped-call]


def mutated(state: GameState, command: commands.Command, rng: random.Random) -> commands.Command:
    """A legal command with one field changed: a card swapped for another card of the game
    (often a foreign one), a seat moved, a card added or dropped."""
    fields = msgspec.structs.asdict(command)
    if not fields:
        return command
    name = rng.choice(sorted(fields))
    value = fields[name]
    everywhere = [c for h in state.hands for c in h] + list(state.draw_pile[:5])
    everywhere += [p[0] for p in state.draft_piles if p] + list(state.discard_pile[-2:])
    if isinstance(value, str) and "#" in value:
        fields[name] = rng.choice(everywhere)
    elif isinstance(value, tuple):
        cards = list(value)
        roll = rng.random()
        if roll < 0.5 and cards:
            cards[rng.randrange(len(cards))] = rng.choice(everywhere)
        elif roll < 0.75:
            cards.append(rng.choice(everywhere))
        elif cards:
            cards.pop(rng.randrange(len(cards)))
        fields[name] = tuple(cards)
    elif isinstance(value, int):
        fields[name] = rng.randrange(-1, state.players + 1)
    elif name == "position":
        fields[name] = "second" if value == "top" else "top"
    elif name == "direction":
        fields[name] = "top_to_bottom" if value == "bottom_to_top" else "bottom_to_top"
    return type(command)(**fields)


def assert_decide_agrees_with_legal(
    state: GameState, rng: random.Random, legal_samples: int = 3, random_samples: int = 4
) -> None:
    """`decide` accepts sampled legal commands and refuses everything else with RuleViolation."""
    for seat in range(state.players):
        if seat not in state.pending_seats():
            assert legal_commands(state, seat) == [], seat
    for seat in state.pending_seats():
        legal = legal_commands(state, seat)
        assert legal, f"seat {seat} is awaited but has no legal command"
        for command in rng.sample(legal, min(legal_samples, len(legal))):
            _, after = execute(state, command, seat)
            assert_conserved(after)
    tries: list[tuple[int | None, commands.Command]] = [
        random_command(state, rng) for _ in range(random_samples)
    ]
    for seat in state.pending_seats():
        legal = legal_commands(state, seat)
        tries += [(seat, mutated(state, rng.choice(legal), rng)) for _ in range(2)]
    for actor, command in tries:
        allowed = (
            actor is not None
            and 0 <= actor < state.players
            and canonical(command) in {canonical(c) for c in legal_commands(state, actor)}
        )
        if allowed:
            execute(state, command, actor)
            continue
        try:
            execute(state, command, actor)
        except RuleViolation:
            continue
        raise AssertionError(f"{command!r} by seat {actor} was accepted but is not legal")


@contextmanager
def finishes_within(seconds: float) -> Iterator[None]:
    """Turn a hang (a flip or an automatic step that never ends) into a test failure."""

    def hang(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: the engine is stuck in a loop")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
