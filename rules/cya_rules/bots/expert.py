"""The expert bot: greedy's bookkeeping, played the way a good human plays.

Where greedy counts only what a command adds to its own stack, the expert weighs every
transfer both ways: a set taken from a rival is worth its value to us and its loss to them
(all of it against one opponent, more against the leader), and a challenge lost hands our
cards to the defender. It counts cards (the unseen cards, including those revealed in
challenges and on draft piles) to judge how likely each exposed top set is to be challenged,
rather than one flat rate; it covers a rich top set, keeps its wilds for defence while its
stack is worth defending, and aims Swaps, Moves and move directions by that same exposure.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from cya_rules.cards import Kind, card_table
from cya_rules.commands import (
    Challenge,
    ChallengeDraft,
    ChooseMoveDirection,
    DraftSet,
    FormSet,
    ImproveSet,
    PlayMove,
    PlaySwap,
    Respond,
    SeatCommand,
)
from cya_rules.state import AwaitingChallengeReply, AwaitingMoveDirections
from cya_rules.views import GameView, SetView

from . import greedy
from .card_counting import chance_at_most, unseen_cards
from .greedy import _Seat

LEADER_BONUS = 0.5  # extra weight of a loss inflicted on the leader, in 3+ player games
THREAT = 0.9  # share of the chance that some rival holds a match which becomes a challenge
COVER_WEIGHT = 0.5  # how much covering an exposed top set counts (it may be challenged anyway)


def expert_policy(view: GameView, legal: Sequence[SeatCommand], rng: random.Random) -> SeatCommand:
    """The legal command with the best expert score; ties break on the rng."""
    scores = expert_scores(view, legal)
    return max(zip(scores, legal, strict=True), key=lambda sc: (sc[0], rng.random()))[1]


def expert_scores(view: GameView, legal: Sequence[SeatCommand]) -> list[float]:
    """Each legal command's score, in dollars of expected standing (higher is better)."""
    assert view.viewer is not None and view.hand is not None
    seat = _Seat(view, view.viewer, view.hand, card_table(view.ruleset.edition),
                 unseen_cards(view), {})
    return [_score(seat, cmd) for cmd in legal]


def _score(seat: _Seat, cmd: SeatCommand) -> float:
    own = _SCORES.get(type(cmd))
    return own(seat, cmd) if own else greedy._SCORES[type(cmd)](seat, cmd)


# Standing: whose losses help us most.


def _standing(seat: _Seat, other: int) -> int:
    s = seat.view.seats[other]
    return s.total + sum(greedy._set_value(seat, cs) for cs in s.stack)


def _denial(seat: _Seat, other: int) -> float:
    """What a dollar taken from `other` is worth to us, beside the dollar we gain."""
    assert seat.memo is not None
    key = ("denial", other)
    if key not in seat.memo:
        seat.memo[key] = _denial_of(seat, other)
    return seat.memo[key]


def _denial_of(seat: _Seat, other: int) -> float:
    n = len(seat.view.seats)
    if n == 2:
        return 1.0
    leader = max((i for i in range(n) if i != seat.me), key=lambda i: _standing(seat, i))
    return 1 / (n - 1) + (LEADER_BONUS if other == leader else 0.0)


def _threat(seat: _Seat, owner: int, set_type: str) -> float:
    """Chance that the top set of `owner`, of `set_type`, is challenged before its next turn:
    some other seat holds a matching card (counted from the unseen cards)."""
    assert seat.memo is not None
    key = ("threat", owner, set_type)
    if key not in seat.memo:
        seat.memo[key] = _threat_of(seat, owner, set_type)
    return seat.memo[key]


def _threat_of(seat: _Seat, owner: int, set_type: str) -> float:
    none = 1.0
    for other in seat.view.seats:
        if other.seat in (owner, seat.me) or other.hand_count == 0:
            continue
        none *= chance_at_most(seat.unseen, other.hand_count, set_type, 0)
    if owner != seat.me:  # we see our own hand: do we hold a match?
        mine = greedy._units(seat, seat.hand, set_type)
        none *= 0.0 if mine else 1.0
    return THREAT * (1 - none)


def _exposed_loss(seat: _Seat, owner: int, top: SetView | None, value: int, bottom: bool) -> float:
    if top is None or bottom:
        return 0.0
    return _threat(seat, owner, top.type) * value


# Our stack: what a new top set gains, covers and exposes.


def _new_top(seat: _Seat, set_type: str, value: int) -> float:
    stack = seat.view.seats[seat.me].stack
    if not stack:
        return float(value)  # the bottom set: safe for the round
    covered = 0.0
    if len(stack) >= 2:
        covered = _threat(seat, seat.me, stack[-1].type) * greedy._set_value(seat, stack[-1])
    exposed = _threat(seat, seat.me, set_type) * value
    return value + COVER_WEIGHT * covered - exposed


def _score_form_set(seat: _Seat, cmd: FormSet) -> float:
    cards = cmd.hand_cards
    if cmd.source == "discard":
        cards = (*cards, seat.view.discard_pile[-1])
    value = greedy._value(seat, cards)
    spent = sum(greedy._keep_value(seat, c) - seat.table[c].value for c in cmd.hand_cards)
    saved = greedy.DISCARD_SAVES_CARD if cmd.source == "discard" else 0
    set_type = next(seat.table[c].type for c in cards if seat.table[c].kind is Kind.ASSET)
    return _new_top(seat, set_type, value) - spent + saved


def _score_draft_set(seat: _Seat, cmd: DraftSet) -> float:
    cards = (cmd.hand_card, *cmd.pile_cards)
    value = greedy._value(seat, cards)
    spent = greedy._keep_value(seat, cmd.hand_card) - seat.table[cmd.hand_card].value
    set_type = next(seat.table[c].type for c in cards if seat.table[c].kind is Kind.ASSET)
    # The eligible rival may challenge it out of turn: weigh that like any exposure.
    return _new_top(seat, set_type, value) - spent + greedy.DRAFT_CARD_BONUS * len(cmd.pile_cards)


def _score_improve_set(seat: _Seat, cmd: ImproveSet) -> float:
    stack = seat.view.seats[seat.me].stack
    value = seat.table[cmd.card].value
    risk = _threat(seat, seat.me, stack[-1].type) if len(stack) >= 2 else 0.0
    return (1 - risk) * value - (greedy._keep_value(seat, cmd.card) - value)


# Challenges: the prize both ways, the stake both ways.


def _fight(seat: _Seat, rival: int, chance: float, prize: float, stake_keep: float,
           stake_value: float) -> float:
    """Win: the prize, taken from the rival. Lose: our cards, given to the rival."""
    d = _denial(seat, rival)
    return chance * prize * (1 + d) - (1 - chance) * (stake_keep + d * stake_value)


def _opening(seat: _Seat, defender: int, set_type: str, prize: float,
             opening: tuple[str, ...]) -> float:
    mine = greedy._units(seat, seat.hand, set_type)
    chance = greedy._at_most(seat, defender, set_type,
                             mine - greedy._units(seat, opening, set_type))
    keep = sum(greedy._keep_value(seat, c) for c in opening)
    keep += greedy.FOLLOW_UP_STAKE * (mine - 1)
    return _fight(seat, defender, chance, prize, keep, greedy._value(seat, opening))


def _score_challenge(seat: _Seat, cmd: Challenge) -> float:
    stack = seat.view.seats[cmd.target_seat].stack
    target = stack[-1] if cmd.position == "top" else stack[-2]
    prize = greedy._set_value(seat, target)
    return _opening(seat, cmd.target_seat, target.type, prize, cmd.cards)


def _score_challenge_draft(seat: _Seat, cmd: ChallengeDraft) -> float:
    draft = seat.view.draft
    assert draft is not None
    prize = greedy._value(seat, draft.set.cards)
    return _opening(seat, draft.drafter, draft.set.type, prize, cmd.cards)


def _score_respond(seat: _Seat, cmd: Respond) -> float:
    p = seat.view.pending
    assert isinstance(p, AwaitingChallengeReply)
    other = p.defender if p.awaiting == p.challenger else p.challenger
    left = greedy._units(seat, seat.hand, p.set_type) - greedy._units(seat, cmd.cards, p.set_type)
    chance = greedy._at_most(seat, other, p.set_type, left)
    contested = greedy._contested_value(seat, p)
    keep = sum(greedy._keep_value(seat, c) for c in cmd.cards)
    # Conceding (score 0) gives the rival the contested cards: answering risks only ours more.
    d = _denial(seat, other)
    win = chance * contested * (1 + d)
    lose = (1 - chance) * (keep + d * greedy._value(seat, cmd.cards))
    return win - lose


# Action cards.


def _score_swap(seat: _Seat, cmd: PlaySwap) -> float:
    theirs_set = seat.view.seats[cmd.target_seat].stack[-1]
    ours_set = seat.view.seats[seat.me].stack[-1]
    theirs, ours = greedy._set_value(seat, theirs_set), greedy._set_value(seat, ours_set)
    d = _denial(seat, cmd.target_seat)
    return (theirs - ours) * (1 + d) - greedy.ACTION_KEEP


def _score_move(seat: _Seat, cmd: PlayMove) -> float:
    stack = seat.view.seats[cmd.target_seat].stack
    after = greedy._moved(stack, cmd.direction)
    before_top, after_top = stack[-1], after[-1]
    owner = cmd.target_seat
    exposed_before = _threat(seat, owner, before_top.type) * greedy._set_value(seat, before_top)
    exposed_after = _threat(seat, owner, after_top.type) * greedy._set_value(seat, after_top)
    # The bottom set is safe for good: which set lands there matters as much.
    safe_change = greedy._set_value(seat, after[0]) - greedy._set_value(seat, stack[0])
    if owner == seat.me:
        return exposed_before - exposed_after + safe_change - greedy.ACTION_KEEP
    d = _denial(seat, owner)
    return d * (exposed_after - exposed_before - safe_change) - greedy.ACTION_KEEP


def _score_move_direction(seat: _Seat, cmd: ChooseMoveDirection) -> float:
    p = seat.view.pending
    assert isinstance(p, AwaitingMoveDirections)
    other = greedy._move_partner(seat, p.pile)
    stack = seat.view.seats[other].stack
    after = greedy._moved(stack, cmd.direction)
    exposed = _threat(seat, other, after[-1].type) * greedy._set_value(seat, after[-1])
    return exposed - greedy._set_value(seat, after[0])


_SCORES: dict[type, Callable[[_Seat, Any], float]] = {
    FormSet: _score_form_set,
    DraftSet: _score_draft_set,
    ImproveSet: _score_improve_set,
    Challenge: _score_challenge,
    ChallengeDraft: _score_challenge_draft,
    Respond: _score_respond,
    PlaySwap: _score_swap,
    PlayMove: _score_move,
    ChooseMoveDirection: _score_move_direction,
}
