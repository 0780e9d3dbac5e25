"""The rollout's turn without listing every legal command: a hand of seven cards has dozens
of challenge plays that all score alike. `rollout_command` scores each kind of command the
rules allow, builds only the best-scoring ones and picks one of those at random: the choice of
`rollout.rollout_choice` over `legal_commands`, at a fraction of the cost (tests/bots/
test_rollout.py holds the two together)."""

from __future__ import annotations

import math
import random
from itertools import combinations

from cya_rules import commands, legal_commands
from cya_rules.cards import MOVE, SWAP, Kind, card_table
from cya_rules.challenge import plays, target_error
from cya_rules.commands import SeatCommand
from cya_rules.draft import face_up_tops
from cya_rules.legal import DIRECTIONS
from cya_rules.sets import group_type, pair_type
from cya_rules.state import AwaitingAction, GameState

from .rollout import (
    ACTION_HELD,
    EXPLORE,
    LOST_FIGHT,
    WILD_SPENT,
    _Ctx,
    _set_value,
    _swap,
    _units,
    rollout_choice,
)


def rollout_command(state: GameState, seat: int, rng: random.Random,
                    explore: float = EXPLORE) -> SeatCommand:
    """The rollout's command for `seat`: with chance `explore` any legal command, else one of
    the best by `rollout_scores`, at random."""
    p = state.pending
    if not (isinstance(p, AwaitingAction) and p.seat == seat):
        return rollout_choice(state, seat, legal_commands(state, seat), rng, explore)
    if rng.random() < explore:
        legal = legal_commands(state, seat)
        return legal[rng.randrange(len(legal))]
    best = best_turn_commands(state, seat)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


class _Best:
    """The best score offered so far and every command offered at it."""

    __slots__ = ("commands", "score")

    def __init__(self) -> None:
        self.score = -math.inf
        self.commands: list[SeatCommand] = []

    def offer(self, score: float, command: SeatCommand) -> None:
        if score > self.score:
            self.score, self.commands = score, [command]
        elif score == self.score:
            self.commands.append(command)


def best_turn_commands(state: GameState, seat: int) -> list[SeatCommand]:
    """The turn's legal commands (of those `legal_commands` lists) that `rollout_scores` rates
    best, each built only if its kind can reach the best score. `seat` must be the one to act."""
    pending = state.pending
    assert isinstance(pending, AwaitingAction) and pending.seat == seat
    table = card_table(state.ruleset.edition)
    ctx = _Ctx(state, seat, table)
    hand = state.hands[seat]
    best = _Best()
    info = [table[c] for c in hand]
    value = [i.value for i in info]
    spent = [WILD_SPENT if i.kind is Kind.WILD else 0 for i in info]
    # Pairs (§7.1): two assets of one type, or an asset and a wild; in the hand's order. The
    # hot loop of a rollout: a command is built only at the best score so far.
    asset, wild = Kind.ASSET, Kind.WILD
    net = [v - w for v, w in zip(value, spent, strict=True)]
    most = max(net, default=0)
    for i, a in enumerate(info):
        if (a.kind is not asset and a.kind is not wild) or net[i] + most < best.score:
            continue
        for j in range(i + 1, len(hand)):
            b = info[j]
            if (a.type == b.type and a.kind is asset) if a.kind is b.kind else (
                    b.kind is asset or b.kind is wild):
                score = value[i] + value[j] - spent[i] - spent[j]
                if score >= best.score:
                    best.offer(score, commands.FormSet("hand", (hand[i], hand[j])))
    if state.discard_pile:
        top = state.discard_pile[-1]
        top_value = table[top].value + 4_000
        for i, c in enumerate(hand):
            if value[i] + top_value - spent[i] >= best.score and pair_type(table, c, top):
                best.offer(value[i] + top_value - spent[i], commands.FormSet("discard", (c,)))
    for i, c in enumerate(hand):
        score = -ACTION_HELD if info[i].kind is Kind.ACTION else -value[i] - spent[i]
        if score >= best.score:
            best.offer(score, commands.Discard(c))
    if state.stacks[seat]:
        _offer_challenges(ctx, best)
    if state.ruleset.uses_draft_piles:
        _offer_drafts(ctx, best)
    _offer_advanced(ctx, best)
    if pending.actions_taken:
        best.offer(-4_000.0, commands.EndTurn())
    return best.commands


def _offer_challenges(ctx: _Ctx, best: _Best) -> None:
    state, seat = ctx.state, ctx.seat
    positions = ("top", "second") if state.ruleset.advanced.second_set_challenge else ("top",)
    for target in range(state.players):
        if target == seat:
            continue
        stack = len(state.stacks[target])
        for position in positions:
            # The bottom set is safe (§17 A10, A11): skip what `target_error` would refuse
            # without building its error.
            if stack < (2 if position == "top" else 3) or target_error(
                    state, seat, target, position):
                continue
            asked = 1 if position == "top" else 2
            target_set = state.stacks[target][-asked]
            mine = _units(ctx, seat, target_set.type)
            if mine < asked:
                continue  # no play opens it
            won = 2 * _set_value(ctx, target_set)  # the score of `_fight`, without its cost
            if max(won, LOST_FIGHT) < best.score:
                continue
            score = won if mine > _units(ctx, target, target_set.type) else LOST_FIGHT
            if score < best.score:
                continue  # every play of this challenge scores alike: none is built
            for cards in plays(ctx.table, state.hands[seat], target_set.type, asked):
                best.offer(score, commands.Challenge(target, position, cards))  # type: ignore[arg-type]


def _offer_drafts(ctx: _Ctx, best: _Best) -> None:
    state, table = ctx.state, ctx.table
    tops = list(face_up_tops(state, ctx.seat))
    sizes = (1,) if state.players == 3 else range(1, len(tops) + 1)
    choices = [combo for k in sizes for combo in combinations(tops, k)]
    gains = [sum(table[c].value for c in combo) + 4_000 * len(combo) for combo in choices]
    most = max(gains, default=-math.inf)
    for h in state.hands[ctx.seat]:
        info = table[h]
        if info.kind is Kind.ACTION:
            continue
        own = info.value - (WILD_SPENT if info.kind is Kind.WILD else 0)
        if own + most < best.score:
            continue  # no draft with this card reaches the best score
        for combo, gain in zip(choices, gains, strict=True):
            # `rollout._draft`'s score, before the command is built
            if own + gain >= best.score and group_type(table, (h, *combo)):
                best.offer(own + gain, commands.DraftSet(h, combo))


def _offer_advanced(ctx: _Ctx, best: _Best) -> None:
    state, seat, table = ctx.state, ctx.seat, ctx.table
    adv, hand, stacks = state.ruleset.advanced, state.hands[seat], state.stacks
    if adv.improve_set and stacks[seat]:
        top_type = stacks[seat][-1].type
        for c in hand:
            if table[c].kind is Kind.ASSET and table[c].type == top_type:
                best.offer(0.7 * table[c].value, commands.ImproveSet(c))
    if not adv.action_cards:
        return
    for c in hand:
        if table[c].type == SWAP and stacks[seat]:
            for t in range(state.players):
                if t != seat and stacks[t]:
                    swap = commands.PlaySwap(c, t)
                    best.offer(_swap(ctx, swap), swap)
        elif table[c].type == MOVE and best.score <= -ACTION_HELD - 1:
            for t in range(state.players):
                if len(stacks[t]) >= 2:
                    for direction in DIRECTIONS:
                        best.offer(-ACTION_HELD - 1, commands.PlayMove(c, t, direction))
