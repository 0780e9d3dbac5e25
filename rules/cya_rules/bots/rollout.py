"""The search's rollout policy: a fast greedy that reads a determinized state, not a view.

A rollout plays on inside one determinization (`determinize.sample_state`), whose hidden cards
are a guess the search made from the bot's view; reading that guess directly is what
determinized search does, and it is twenty times cheaper than building a view and counting
cards for every command. Challenges are judged by who holds more matching cards in the
guessed hands.
`rollout_turn.rollout_command` makes the same choices without listing every legal command.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NamedTuple

from cya_rules import commands
from cya_rules.cards import PENNY_JAR, Edition, Kind, card_table
from cya_rules.commands import SeatCommand
from cya_rules.sets import Table
from cya_rules.state import (
    AwaitingChallengeReply,
    AwaitingMoveDirections,
    CardSet,
    GameState,
)

from .card_counting import matching_units

WILD_SPENT = 15_000  # a wild spent on a pair is a defence given up
ACTION_HELD = 2_000
LOST_FIGHT = -60_000  # never open a challenge the guessed hands say we lose
EXPLORE = 0.1  # share of random commands, so rollouts from one deal differ


_WILDS = ""  # the key of a hand's wild units in `_unit_counts` (no set type is empty)


# Draft choices from the face-up tops, each as (pile cards, gain, group), in `legal_commands`'
# order: those that may lie in one set, their group the one asset type (_WILDS if all wilds);
# and the largest gain of any
DraftChoices = tuple[list[tuple[tuple[str, ...], int, str]], float]


class Cards(NamedTuple):
    """What the rollout reads of each card of an edition, built once: a rollout reads a whole
    hand on every step, and a tuple or dict lookup is several times cheaper than a `CardInfo`'s
    attributes and the sums over them."""

    table: Table
    rows: dict[str, tuple[int, int, Kind, str]]  # value, the cost of spending it, kind, type
    values: dict[str, int]
    units: dict[str, tuple[str, int]]  # its units in a challenge, by type (_WILDS for wilds)
    counts: dict[tuple[str, ...], dict[str, int]]  # `_unit_counts` of hands met lately
    # `rollout_turn`'s draft choices from the face-up tops met lately (and whether one only)
    drafts: dict[tuple[tuple[str, ...], bool], DraftChoices]


@cache
def edition_cards(edition: Edition) -> Cards:
    table = card_table(edition)
    rows = {c: (i.value, WILD_SPENT if i.kind is Kind.WILD else 0, i.kind, i.type)
            for c, i in table.items()}
    units = {c: (_WILDS, 2 if i.type == PENNY_JAR else 1) if i.kind is Kind.WILD else (i.type, 1)
             for c, i in table.items() if i.kind is Kind.WILD or i.kind is Kind.ASSET}
    return Cards(table, rows, {c: i.value for c, i in table.items()}, units, {}, {})


class _Ctx:
    __slots__ = ("cards", "draft_fight", "seat", "state", "table")

    def __init__(self, state: GameState, seat: int) -> None:
        self.state, self.seat = state, seat
        self.cards = edition_cards(state.ruleset.edition)
        self.table = self.cards.table
        self.draft_fight: float | None = None  # `_challenge_draft`'s score, once worked out


def rollout_choice(state: GameState, seat: int, legal: Sequence[SeatCommand],
                   rng: random.Random, explore: float = EXPLORE) -> SeatCommand:
    """The rollout's choice among `legal`, scoring every one (`rollout_command` is quicker)."""
    if len(legal) == 1:
        return legal[0]
    if explore and rng.random() < explore:
        return legal[rng.randrange(len(legal))]
    ctx = _Ctx(state, seat)
    return max(legal, key=lambda c: (_SCORES[type(c)](ctx, c), rng.random()))


def rollout_scores(state: GameState, seat: int, legal: Sequence[SeatCommand]) -> list[float]:
    """The rollout policy's score of each legal command (higher is better)."""
    ctx = _Ctx(state, seat)
    return [_SCORES[type(c)](ctx, c) for c in legal]


def _value(ctx: _Ctx, cards: Sequence[str]) -> int:
    values = ctx.cards.values
    return sum([values[c] for c in cards])


def _spent(ctx: _Ctx, cards: Sequence[str]) -> int:
    return sum(WILD_SPENT for c in cards if ctx.table[c].kind is Kind.WILD)


def _set_value(ctx: _Ctx, card_set: CardSet) -> int:
    return _value(ctx, card_set.cards)


def _units(ctx: _Ctx, seat: int, set_type: str) -> int:
    """`matching_units` of the seat's hand, from its counts (`hand_units`)."""
    counts = hand_units(ctx.cards, ctx.state.hands[seat])
    return counts.get(set_type, 0) + counts[_WILDS]


KEPT = 4_096  # hands (or draft tops) whose reading an edition keeps: a search meets each often


def hand_units(cards: Cards, hand: tuple[str, ...]) -> dict[str, int]:
    """`_unit_counts` of `hand`, counted once while it is kept: in a rollout a hand stays the
    same through every other seat's turns."""
    counts = cards.counts.get(hand)
    if counts is None:
        if len(cards.counts) >= KEPT:
            cards.counts.clear()
        counts = cards.counts[hand] = _unit_counts(cards.units, hand)
    return counts


def _unit_counts(units: dict[str, tuple[str, int]], hand: Sequence[str]) -> dict[str, int]:
    """Assets per type, and under _WILDS the wilds' units (a Penny Jar counts two, §8.2)."""
    counts = {_WILDS: 0}
    get = counts.get
    for c in hand:
        unit = units.get(c)
        if unit is not None:
            key, n = unit
            counts[key] = get(key, 0) + n
    return counts


def _form(ctx: _Ctx, cmd: commands.FormSet) -> float:
    cards = cmd.hand_cards
    if cmd.source == "discard":
        cards = (*cards, ctx.state.discard_pile[-1])
    return _value(ctx, cards) - _spent(ctx, cmd.hand_cards) + (4_000 if cmd.source == "discard"
                                                              else 0)


def _draft(ctx: _Ctx, cmd: commands.DraftSet) -> float:
    return (_value(ctx, (cmd.hand_card, *cmd.pile_cards)) - _spent(ctx, (cmd.hand_card,))
            + 4_000 * len(cmd.pile_cards))


def _improve(ctx: _Ctx, cmd: commands.ImproveSet) -> float:
    return 0.7 * ctx.table[cmd.card].value


def _discard(ctx: _Ctx, cmd: commands.Discard) -> float:
    info = ctx.table[cmd.card]
    if info.kind is Kind.ACTION:
        return -ACTION_HELD
    return -info.value - (WILD_SPENT if info.kind is Kind.WILD else 0)


def _fight(ctx: _Ctx, defender: int, set_type: str, prize: int) -> float:
    if _units(ctx, ctx.seat, set_type) > _units(ctx, defender, set_type):
        return 2 * prize
    return LOST_FIGHT


def _challenge(ctx: _Ctx, cmd: commands.Challenge) -> float:
    stack = ctx.state.stacks[cmd.target_seat]
    target = stack[-1] if cmd.position == "top" else stack[-2]
    return _fight(ctx, cmd.target_seat, target.type, _set_value(ctx, target))


def _challenge_draft(ctx: _Ctx, cmd: commands.ChallengeDraft) -> float:
    # The same for every play that opens it: worked out once a decision.
    if ctx.draft_fight is None:
        draft = ctx.state.draft
        assert draft is not None
        ctx.draft_fight = _fight(ctx, draft.drafter, draft.set.type, _set_value(ctx, draft.set))
    return ctx.draft_fight


def _respond(ctx: _Ctx, cmd: commands.Respond) -> float:
    p = ctx.state.pending
    assert isinstance(p, AwaitingChallengeReply)
    other = p.defender if p.awaiting == p.challenger else p.challenger
    mine = _units(ctx, ctx.seat, p.set_type) - matching_units(ctx.table, cmd.cards, p.set_type)
    # The other side must answer this play; we win if it runs out first.
    return 1.0 if _units(ctx, other, p.set_type) <= mine else -1.0


def _swap(ctx: _Ctx, cmd: commands.PlaySwap) -> float:
    stacks = ctx.state.stacks
    return (_set_value(ctx, stacks[cmd.target_seat][-1]) - _set_value(ctx, stacks[ctx.seat][-1])
            - ACTION_HELD)


def _move(ctx: _Ctx, cmd: commands.PlayMove) -> float:
    return -ACTION_HELD - 1


def _direction(ctx: _Ctx, cmd: commands.ChooseMoveDirection) -> float:
    p = ctx.state.pending
    assert isinstance(p, AwaitingMoveDirections)
    if ctx.state.players == 2:
        other = 1 - ctx.seat
    else:  # the pile's neighbours (§14.6)
        a, b = p.pile, (p.pile + 1) % 3
        other = b if ctx.seat == a else a
    stack = ctx.state.stacks[other]
    bottom = stack[-1] if cmd.direction == "top_to_bottom" else stack[1]
    return -_set_value(ctx, bottom)  # leave the other seat the poorest safe set


def _zero(ctx: _Ctx, cmd: Any) -> float:
    return 0.0


def _end_turn(ctx: _Ctx, cmd: commands.EndTurn) -> float:
    return -4_000.0


_SCORES: dict[type, Callable[[_Ctx, Any], float]] = {
    commands.FormSet: _form,
    commands.DraftSet: _draft,
    commands.ImproveSet: _improve,
    commands.Discard: _discard,
    commands.Challenge: _challenge,
    commands.ChallengeDraft: _challenge_draft,
    commands.Respond: _respond,
    commands.Concede: _zero,
    commands.PassDraft: _zero,
    commands.PlaySwap: _swap,
    commands.PlayMove: _move,
    commands.EndTurn: _end_turn,
    commands.ChooseMoveDirection: _direction,
}
