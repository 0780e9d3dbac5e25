"""The greedy bot: a one-move heuristic that scores every legal command and takes the best."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from cya_rules import commands
from cya_rules.cards import Kind, card_table
from cya_rules.commands import SeatCommand
from cya_rules.sets import Table, pair_type
from cya_rules.state import AwaitingChallengeReply, AwaitingMoveDirections, Direction
from cya_rules.views import GameView, SetView

from .card_counting import chance_at_most, matching_units, unseen_cards

# The greedy bot: score every legal command with a small heuristic and take the best.
# Scores are in dollars of expected stack value; ties break on the rng, so a game is
# reproducible from its seeds.

WILD_KEEP = 20_000  # a wild in hand defends and steals any set: worth more than its face value
PAIR_KEEP = 6_000  # a hand card that already has a partner in hand
ACTION_KEEP = 2_000  # a Swap or Move held for later
DISCARD_SAVES_CARD = 4_000  # pairing with the discard top spends one hand card, not two
DRAFT_CARD_BONUS = 4_000  # each draft pile card is a card no hand paid for
EXPOSURE = 0.3  # rough chance an exposed top set is challenged away before the round ends
END_TURN = -4_000  # a second action must beat simply stopping
FOLLOW_UP_STAKE = 5_000  # each further matching card we may have to commit to a challenge


class _Seat(NamedTuple):
    """What one decision needs: the view, its card table, and the cards this seat cannot see."""

    view: GameView
    me: int
    hand: tuple[str, ...]
    table: Table
    unseen: Counter[str]  # what this seat has not seen (card_counting.unseen_cards)
    memo: dict[Any, float] | None = None  # figures a decision asks for often (the expert's)


def greedy_policy(view: GameView, legal: Sequence[SeatCommand], rng: random.Random) -> SeatCommand:
    """The legal command with the best heuristic score (see the scoring functions below)."""
    assert view.viewer is not None and view.hand is not None
    seat = _Seat(view, view.viewer, view.hand, card_table(view.ruleset.edition), unseen_cards(view))
    return max(legal, key=lambda cmd: (_SCORES[type(cmd)](seat, cmd), rng.random()))


# Card and set values.


def _value(seat: _Seat, cards: Iterable[str]) -> int:
    return sum(seat.table[c].value for c in cards)


def _set_value(seat: _Seat, card_set: SetView) -> int:
    if card_set.cards is not None:
        return _value(seat, card_set.cards)
    return card_set.count * seat.table[card_set.top].value  # composition hidden: a guess


def _keep_value(seat: _Seat, card: str) -> int:
    """How much holding `card` is worth to us: what a discard or a spent card costs."""
    info = seat.table[card]
    if info.kind is Kind.WILD:
        return info.value + WILD_KEEP
    if info.kind is Kind.ACTION:
        return ACTION_KEEP
    partners = sum(1 for c in seat.hand if c != card and pair_type(seat.table, c, card))
    return info.value + (PAIR_KEEP if partners else 0)


def _top_at_risk(seat: _Seat, target: int) -> int:
    """Value of a seat's top set if it can be challenged (the bottom set is safe)."""
    stack = seat.view.seats[target].stack
    return _set_value(seat, stack[-1]) if len(stack) >= 2 else 0


# Challenges: who could hold how many matching cards.


def _units(seat: _Seat, cards: Iterable[str], set_type: str) -> int:
    return matching_units(seat.table, cards, set_type)


def _at_most(seat: _Seat, other: int, set_type: str, limit: int) -> float:
    """P(seat `other` holds at most `limit` cards matching `set_type`), by card counting."""
    return chance_at_most(seat.unseen, seat.view.seats[other].hand_count, set_type, limit)


def _fight_value(win_chance: float, prize: int, stake: int) -> float:
    """Expected gain of fighting on: win the prize, or lose the cards we stake."""
    return win_chance * prize - (1 - win_chance) * stake


def _score_challenge(seat: _Seat, cmd: commands.Challenge) -> float:
    stack = seat.view.seats[cmd.target_seat].stack
    target = stack[-1] if cmd.position == "top" else stack[-2]
    return _opening_value(seat, cmd.target_seat, target.type, _set_value(seat, target), cmd.cards)


def _score_challenge_draft(seat: _Seat, cmd: commands.ChallengeDraft) -> float:
    draft = seat.view.draft
    assert draft is not None
    prize = _value(seat, draft.set.cards)
    return _opening_value(seat, draft.drafter, draft.set.type, prize, cmd.cards)


def _opening_value(
    seat: _Seat, defender: int, set_type: str, prize: int, opening: tuple[str, ...]
) -> float:
    """A challenge is won if the defender runs out first: it must answer our every card."""
    mine = _units(seat, seat.hand, set_type)
    chance = _at_most(seat, defender, set_type, mine - _units(seat, opening, set_type))
    stake = sum(_keep_value(seat, c) for c in opening) + FOLLOW_UP_STAKE * (mine - 1)
    return _fight_value(chance, prize, stake)


def _score_respond(seat: _Seat, cmd: commands.Respond) -> float:
    p = seat.view.pending
    assert isinstance(p, AwaitingChallengeReply)
    other = p.defender if p.awaiting == p.challenger else p.challenger
    left = _units(seat, seat.hand, p.set_type) - _units(seat, cmd.cards, p.set_type)
    chance = _at_most(seat, other, p.set_type, left)
    stake = sum(_keep_value(seat, c) for c in cmd.cards)
    return _fight_value(chance, _contested_value(seat, p), stake)


def _contested_value(seat: _Seat, p: AwaitingChallengeReply) -> int:
    """The set at stake plus every card already in the pot: the winner takes it all (§8.5)."""
    pot = _value(seat, (c for play in p.pot for c in play.cards))
    if p.kind == "draft":
        draft = seat.view.draft
        return pot + (_value(seat, draft.set.cards) if draft else 0)
    stack = seat.view.seats[p.defender].stack
    return pot + _set_value(seat, stack[p.target_index])


# Building the stack.


def _score_form_set(seat: _Seat, cmd: commands.FormSet) -> float:
    cards = cmd.hand_cards
    if cmd.source == "discard":
        cards = (*cards, seat.view.discard_pile[-1])
    spent = sum(_keep_value(seat, c) - seat.table[c].value for c in cmd.hand_cards)
    saved = DISCARD_SAVES_CARD if cmd.source == "discard" else 0
    return _value(seat, cards) - spent + saved + _cover_bonus(seat, _value(seat, cards))


def _cover_bonus(seat: _Seat, new_set_value: int) -> float:
    """A new set protects the exposed top set and is itself exposed (if not the bottom set)."""
    if not seat.view.seats[seat.me].stack:
        return 0.0
    return EXPOSURE * (_top_at_risk(seat, seat.me) - new_set_value)


def _score_draft_set(seat: _Seat, cmd: commands.DraftSet) -> float:
    cards = (cmd.hand_card, *cmd.pile_cards)
    value = _value(seat, cards)
    spent = _keep_value(seat, cmd.hand_card) - seat.table[cmd.hand_card].value
    bonus = DRAFT_CARD_BONUS * len(cmd.pile_cards)
    return value - spent + bonus + _cover_bonus(seat, value)


def _score_improve_set(seat: _Seat, cmd: commands.ImproveSet) -> float:
    value = seat.table[cmd.card].value
    exposed = 1 - EXPOSURE if len(seat.view.seats[seat.me].stack) >= 2 else 1.0
    return exposed * value - (_keep_value(seat, cmd.card) - value)


def _score_discard(seat: _Seat, cmd: commands.Discard) -> float:
    return -_keep_value(seat, cmd.card)


def _score_end_turn(seat: _Seat, cmd: commands.EndTurn) -> float:
    return END_TURN


# Action cards: Swap and Move.


def _score_swap(seat: _Seat, cmd: commands.PlaySwap) -> float:
    theirs = _set_value(seat, seat.view.seats[cmd.target_seat].stack[-1])
    ours = _set_value(seat, seat.view.seats[seat.me].stack[-1])
    return theirs - ours - ACTION_KEEP


def _moved(stack: tuple[SetView, ...], direction: Direction) -> tuple[SetView, ...]:
    if direction == "top_to_bottom":
        return (stack[-1], *stack[:-1])
    return (*stack[1:], stack[0])


def _exposed_change(seat: _Seat, target: int, direction: Direction) -> float:
    """How much more value lies open to challenge on `target`'s stack after a Move."""
    stack = seat.view.seats[target].stack
    after = _moved(stack, direction)
    return _set_value(seat, after[-1]) - _set_value(seat, stack[-1])


def _score_move(seat: _Seat, cmd: commands.PlayMove) -> float:
    change = _exposed_change(seat, cmd.target_seat, cmd.direction)
    sign = -1 if cmd.target_seat == seat.me else 1
    return EXPOSURE * sign * change - ACTION_KEEP


def _score_move_direction(seat: _Seat, cmd: commands.ChooseMoveDirection) -> float:
    p = seat.view.pending
    assert isinstance(p, AwaitingMoveDirections)
    other = _move_partner(seat, p.pile)
    stack = seat.view.seats[other].stack
    safe_after = _moved(stack, cmd.direction)[0]
    return -_set_value(seat, safe_after)  # leave the other seat the poorest safe set


def _move_partner(seat: _Seat, pile: int) -> int:
    """The other seat a revealed Move acts on (the pile's neighbours, §14.6)."""
    if seat.view.ruleset.players == 2:
        return 1 - seat.me
    a, b = pile, (pile + 1) % 3
    return b if seat.me == a else a


def _score_pass(seat: _Seat, cmd: commands.PassDraft | commands.Concede) -> float:
    return 0.0


_SCORES: dict[type, Callable[[_Seat, Any], float]] = {
    commands.FormSet: _score_form_set,
    commands.Discard: _score_discard,
    commands.Challenge: _score_challenge,
    commands.DraftSet: _score_draft_set,
    commands.ImproveSet: _score_improve_set,
    commands.PlaySwap: _score_swap,
    commands.PlayMove: _score_move,
    commands.EndTurn: _score_end_turn,
    commands.Respond: _score_respond,
    commands.Concede: _score_pass,
    commands.ChallengeDraft: _score_challenge_draft,
    commands.PassDraft: _score_pass,
    commands.ChooseMoveDirection: _score_move_direction,
}
