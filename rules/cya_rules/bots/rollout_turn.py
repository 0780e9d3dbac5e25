"""The rollout's turn without listing every legal command: a hand of seven cards has dozens
of challenge plays that all score alike. `rollout_command` scores each kind of command the
rules allow, builds only the best-scoring ones and picks one of those at random: the choice of
`rollout.rollout_choice` over `legal_commands`, at a fraction of the cost (tests/bots/
test_rollout.py holds the two together)."""

from __future__ import annotations

import math
import random

from cya_rules import commands, legal_commands
from cya_rules.cards import MOVE, SWAP, Edition, Kind
from cya_rules.challenge import plays
from cya_rules.commands import SeatCommand
from cya_rules.draft import face_up_top_cards
from cya_rules.legal import DIRECTIONS, draft_needs
from cya_rules.state import AwaitingAction, GameState

from .rollout import (
    _WILDS,
    ACTION_HELD,
    EXPLORE,
    KEPT,
    LOST_FIGHT,
    Cards,
    DraftChoices,
    _Ctx,
    _swap,
    hand_units,
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
    ctx = _Ctx(state, seat)
    hand = state.hands[seat]
    info = [ctx.cards.rows[c] for c in hand]
    # Pairs (§7.1): two assets of one type, or an asset and a wild; in the hand's order. The
    # hot loop of a rollout: `_Best` inlined, a command built only at the best score so far.
    asset, wild = Kind.ASSET, Kind.WILD
    net = [v - w for v, w, _, _ in info]
    most = max(net, default=0)
    top_score = -math.inf
    found: list[SeatCommand] = []
    for i, (_, _, kind, type_) in enumerate(info):
        if (kind is not asset and kind is not wild) or net[i] + most < top_score:
            continue
        for j in range(i + 1, len(hand)):
            score = net[i] + net[j]
            if score < top_score:
                continue
            _, _, other, other_type = info[j]
            if (type_ == other_type and kind is asset) if kind is other else (
                    other is asset or other is wild):
                command = commands.FormSet("hand", (hand[i], hand[j]))
                if score > top_score:
                    top_score, found = score, [command]
                else:
                    found.append(command)
    best = _Best()
    best.score, best.commands = top_score, found
    if state.discard_pile:
        top = state.discard_pile[-1]
        top_value, _, top_kind, top_type = ctx.cards.rows[top]
        for i, c in enumerate(hand):
            score = net[i] + top_value + 4_000
            _, _, kind, type_ = info[i]
            # `pair_type(table, c, top)`, from the rows read above
            if score >= best.score and ((type_ == top_type if top_kind is asset else
                                         top_kind is wild) if kind is asset else
                                        (kind is wild and top_kind is asset)):
                best.offer(score, commands.FormSet("discard", (c,)))
    if best.score <= 0:  # a discard scores at most 0: none can reach a positive best
        for c, (value, spent, kind, _) in zip(hand, info, strict=True):
            score = -ACTION_HELD if kind is Kind.ACTION else -value - spent
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
    state, seat, stacks = ctx.state, ctx.seat, ctx.state.stacks
    positions = ("top", "second") if state.ruleset.advanced.second_set_challenge else ("top",)
    edition = ctx.cards
    counts = hand_units(edition, state.hands[seat])  # `_units` of the seat, read once
    wilds, values = counts[_WILDS], edition.values
    for target in range(state.players):
        if target == seat:
            continue
        stack = len(stacks[target])
        for position in positions:
            # What `target_error` refuses, without building its error: the bottom set is safe
            # (§17 A10, A11), a lost challenge blocks its target (§13.2); the seat has a set and
            # `positions` holds only the allowed ones.
            if stack < (2 if position == "top" else 3) or (seat, target) in state.blocked:
                continue
            asked = 1 if position == "top" else 2
            target_set = stacks[target][-asked]
            mine = counts.get(target_set.type, 0) + wilds
            if mine < asked:
                continue  # no play opens it
            won = 2 * sum([values[c] for c in target_set.cards])  # `_fight`'s, if won
            if max(won, LOST_FIGHT) < best.score:
                continue
            theirs = hand_units(edition, state.hands[target])  # `_units` of the target
            score = won if mine > theirs.get(target_set.type, 0) + theirs[_WILDS] else LOST_FIGHT
            if score < best.score:
                continue  # every play of this challenge scores alike: none is built
            for cards in plays(ctx.table, state.hands[seat], target_set.type, asked):
                best.offer(score, commands.Challenge(target, position, cards))  # type: ignore[arg-type]


def _offer_drafts(ctx: _Ctx, best: _Best) -> None:
    state, rows = ctx.state, ctx.cards.rows
    choices, most = _draft_choices(ctx.cards, state.ruleset.edition,
                                   face_up_top_cards(state, ctx.seat), state.players == 3)
    asset, wild = Kind.ASSET, Kind.WILD
    for h in state.hands[ctx.seat]:
        value, spent, kind, type_ = rows[h]
        if kind is not asset and kind is not wild:
            continue
        own = value - spent
        if own + most < best.score:
            continue  # no draft with this card reaches the best score
        # `rollout._draft`'s score, before the command is built; the sets `group_type(table,
        # (h, *combo))` accepts: an asset takes its own type's or all-wild pile cards, a wild
        # any that hold an asset (`not group`: all wilds, _WILDS being empty).
        for combo, gain, group in choices:
            if own + gain >= best.score and (
                    (group == type_ or not group) if kind is asset else group):
                best.offer(own + gain, commands.DraftSet(h, combo))


def _draft_choices(cards: Cards, edition: Edition, tops: tuple[str, ...], one: bool
                   ) -> DraftChoices:
    """`legal_commands`' draft choices from `tops` (`draft_needs`: their order, and each
    choice's group, _WILDS where all are wilds), those that cannot lie in one set left out,
    each with its gain; and the largest gain of any. Kept while the tops recur (a search
    meets the same tops half the time)."""
    known = cards.drafts.get((tops, one))
    if known is None:
        if len(cards.drafts) >= KEPT:
            cards.drafts.clear()
        values = cards.values
        choices: list[tuple[tuple[str, ...], int, str]] = []
        most = -math.inf
        for combo, group in draft_needs(edition, tops, one):
            gain = sum([values[c] for c in combo]) + 4_000 * len(combo)
            most = max(most, gain)
            if group is not None:
                choices.append((combo, gain, group))
        known = cards.drafts[tops, one] = (choices, most)
    return known


def _offer_advanced(ctx: _Ctx, best: _Best) -> None:
    state, seat, rows = ctx.state, ctx.seat, ctx.cards.rows
    adv, hand, stacks = state.ruleset.advanced, state.hands[seat], state.stacks
    if adv.improve_set and stacks[seat]:
        top_type = stacks[seat][-1].type
        for c in hand:
            value, _, kind, type_ = rows[c]
            if kind is Kind.ASSET and type_ == top_type:
                best.offer(0.7 * value, commands.ImproveSet(c))
    if not adv.action_cards:
        return
    for c in hand:
        type_ = rows[c][3]
        if type_ == SWAP and stacks[seat]:
            for t in range(state.players):
                if t != seat and stacks[t]:
                    swap = commands.PlaySwap(c, t)
                    best.offer(_swap(ctx, swap), swap)
        elif type_ == MOVE and best.score <= -ACTION_HELD - 1:
            for t in range(state.players):
                if len(stacks[t]) >= 2:
                    for direction in DIRECTIONS:
                        best.offer(-ACTION_HELD - 1, commands.PlayMove(c, t, direction))
