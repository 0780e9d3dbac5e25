"""The active seat's simple actions (RULES §7.1, 7.2, 7.5–7.8)."""

from __future__ import annotations

from .cards import MOVE, SWAP, Kind
from .commands import Discard, EndTurn, FormSet, ImproveSet, PlayMove, PlaySwap
from .decision import Decision
from .errors import RuleCode, RuleViolation
from .events import (
    CardDiscarded,
    CardsDrawn,
    MovePlayed,
    SetFormed,
    SetImproved,
    SwapPlayed,
    TurnEnded,
)
from .sets import pair_type
from .state import AwaitingAction


def require_turn(d: Decision, actor: int | None) -> AwaitingAction:
    pending = d.state.pending
    if not isinstance(pending, AwaitingAction):
        raise RuleViolation(RuleCode.NOT_EXPECTED, "The game is not waiting for a turn action.")
    if actor != pending.seat:
        raise RuleViolation(RuleCode.NOT_YOUR_TURN, f"It is seat {pending.seat}'s turn.")
    return pending


def form_set(d: Decision, cmd: FormSet, actor: int) -> None:
    require_turn(d, actor)
    if cmd.source == "hand":
        if len(cmd.hand_cards) != 2:
            raise RuleViolation(RuleCode.INVALID_SET,
                                "A set from hand takes exactly two hand cards.")
        cards = cmd.hand_cards
    else:
        if len(cmd.hand_cards) != 1:
            raise RuleViolation(RuleCode.INVALID_SET,
                                "A set with the discard top takes one hand card.")
        if not d.state.discard_pile:
            raise RuleViolation(RuleCode.DISCARD_PILE_EMPTY, "The discard pile is empty (§17 A7).")
        cards = (cmd.hand_cards[0], d.state.discard_pile[-1])
    d.require_cards_in_hand(actor, cmd.hand_cards)
    set_type = pair_type(d.table, *cards)
    if set_type is None:
        raise RuleViolation(
            RuleCode.INVALID_SET,
            "A set is two assets of one type, or one asset and one wild (§7.1)."
        )
    rs = d.state.ruleset
    d.emit(SetFormed(actor, set_type, cards, cmd.source, not rs.sets_public and rs.since(3)))


def discard(d: Decision, cmd: Discard, actor: int) -> None:
    # §17 A18–A20: always legal with a card in hand, whatever the card; it goes face up.
    require_turn(d, actor)
    d.require_cards_in_hand(actor, (cmd.card,))
    first_action = d.state.actions_taken == 0
    d.emit(CardDiscarded(actor, cmd.card))
    # §13.2: a discard as the first of two actions refills the hand at once (to H, §17 A38).
    if first_action and d.state.ruleset.advanced.two_actions:
        missing = d.state.ruleset.hand_size - len(d.state.hands[actor])
        drawn = d.state.draw_pile[:missing]
        if drawn:
            d.emit(CardsDrawn(actor, len(drawn), drawn, "discard_refill"))


def improve_set(d: Decision, cmd: ImproveSet, actor: int) -> None:
    require_turn(d, actor)
    if not d.state.ruleset.advanced.improve_set:
        raise RuleViolation(RuleCode.OPTION_DISABLED,
                            "Improve a Set is not on in this game (§13.3).")
    d.require_cards_in_hand(actor, (cmd.card,))
    stack = d.state.stacks[actor]
    if not stack:
        raise RuleViolation(RuleCode.NO_OWN_SET, "You have no set to improve.")
    info = d.table[cmd.card]
    if info.kind is not Kind.ASSET or info.type != stack[-1].type:
        raise RuleViolation(
            RuleCode.INVALID_CARD,
            "Only an asset of your top set's type improves it, never a wild (§7.5)."
        )
    d.emit(SetImproved(actor, cmd.card))


def _require_action_card(d: Decision, actor: int, card: str, card_type: str) -> None:
    if not d.state.ruleset.advanced.action_cards:
        raise RuleViolation(RuleCode.OPTION_DISABLED,
                            "Action cards are not on in this game (§13.4).")
    d.require_cards_in_hand(actor, (card,))
    if d.table[card].type != card_type:
        raise RuleViolation(RuleCode.INVALID_CARD, f"Card {card!r} is not a {card_type} card.")


def play_swap(d: Decision, cmd: PlaySwap, actor: int) -> None:
    require_turn(d, actor)
    _require_action_card(d, actor, cmd.card, SWAP)
    d.require_seat(cmd.target_seat, other_than=actor)
    # §17 A34: both stacks need a set; the bottom set is not protected from a Swap.
    if not d.state.stacks[actor]:
        raise RuleViolation(RuleCode.NO_OWN_SET, "You need a set of your own to swap.")
    if not d.state.stacks[cmd.target_seat]:
        raise RuleViolation(RuleCode.TARGET_HAS_NO_SET,
                            f"Seat {cmd.target_seat} has no set to swap.")
    d.emit(SwapPlayed(actor, cmd.card, cmd.target_seat))  # cannot be answered (§17 A36)


def play_move(d: Decision, cmd: PlayMove, actor: int) -> None:
    require_turn(d, actor)
    _require_action_card(d, actor, cmd.card, MOVE)
    d.require_seat(cmd.target_seat)
    if len(d.state.stacks[cmd.target_seat]) < 2:  # §17 A35
        raise RuleViolation(RuleCode.STACK_TOO_SMALL, "Move needs a stack with at least two sets.")
    d.emit(MovePlayed(actor, cmd.card, cmd.target_seat, cmd.direction))


def end_turn(d: Decision, cmd: EndTurn, actor: int) -> None:
    pending = require_turn(d, actor)
    if pending.actions_taken == 0:
        raise RuleViolation(RuleCode.ACTION_REQUIRED,
                            "Take an action first; passing is not allowed (§6).")
    d.emit(TurnEnded(actor))
