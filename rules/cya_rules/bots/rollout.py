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
from typing import Any

from cya_rules import commands
from cya_rules.cards import PENNY_JAR, Kind, card_table
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


class _Ctx:
    __slots__ = ("seat", "state", "table", "units")

    def __init__(self, state: GameState, seat: int, table: Table) -> None:
        self.state, self.seat, self.table = state, seat, table
        self.units: dict[int, dict[str, int]] = {}  # per seat, its `_unit_counts`


def rollout_choice(state: GameState, seat: int, legal: Sequence[SeatCommand],
                   rng: random.Random, explore: float = EXPLORE) -> SeatCommand:
    """The rollout's choice among `legal`, scoring every one (`rollout_command` is quicker)."""
    if len(legal) == 1:
        return legal[0]
    if explore and rng.random() < explore:
        return legal[rng.randrange(len(legal))]
    ctx = _Ctx(state, seat, card_table(state.ruleset.edition))
    return max(legal, key=lambda c: (_SCORES[type(c)](ctx, c), rng.random()))


def rollout_scores(state: GameState, seat: int, legal: Sequence[SeatCommand]) -> list[float]:
    """The rollout policy's score of each legal command (higher is better)."""
    ctx = _Ctx(state, seat, card_table(state.ruleset.edition))
    return [_SCORES[type(c)](ctx, c) for c in legal]


def _value(ctx: _Ctx, cards: Sequence[str]) -> int:
    return sum(ctx.table[c].value for c in cards)


def _spent(ctx: _Ctx, cards: Sequence[str]) -> int:
    return sum(WILD_SPENT for c in cards if ctx.table[c].kind is Kind.WILD)


def _set_value(ctx: _Ctx, card_set: CardSet) -> int:
    return _value(ctx, card_set.cards)


def _units(ctx: _Ctx, seat: int, set_type: str) -> int:
    """`matching_units` of the seat's hand, from its counts read once a decision."""
    counts = ctx.units.get(seat)
    if counts is None:
        counts = ctx.units[seat] = _unit_counts(ctx.table, ctx.state.hands[seat])
    return counts.get(set_type, 0) + counts[_WILDS]


_WILDS = ""  # the key of a hand's wild units in `_unit_counts` (no set type is empty)


def _unit_counts(table: Table, hand: Sequence[str]) -> dict[str, int]:
    """Assets per type, and under _WILDS the wilds' units (a Penny Jar counts two, §8.2)."""
    counts = {_WILDS: 0}
    for c in hand:
        info = table[c]
        if info.kind is Kind.WILD:
            counts[_WILDS] += 2 if info.type == PENNY_JAR else 1
        elif info.kind is Kind.ASSET:
            counts[info.type] = counts.get(info.type, 0) + 1
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
    draft = ctx.state.draft
    assert draft is not None
    return _fight(ctx, draft.drafter, draft.set.type, _set_value(ctx, draft.set))


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
