"""A decision in progress: the events decided so far and the state they lead to."""

from __future__ import annotations

from .cards import CardInfo, card_table
from .errors import RuleCode, RuleViolation
from .events import Event
from .evolve import HANDLERS
from .state import GameState


class Decision:
    __slots__ = ("events", "state", "table")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []
        self.table: dict[str, CardInfo] = card_table(state.ruleset.edition)

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = HANDLERS[type(event)](self.state, event)  # `evolve`, one call fewer

    # Checks shared by the command handlers.

    def require_cards_in_hand(self, seat: int, cards: tuple[str, ...]) -> None:
        if len(cards) > 1 and len(set(cards)) != len(cards):  # most name one card
            raise RuleViolation(RuleCode.DUPLICATE_CARDS, "A card may be named only once.")
        hand = self.state.hands[seat]
        for card in cards:
            if card not in hand:
                raise RuleViolation(RuleCode.CARD_NOT_IN_HAND,
                                    f"Card {card!r} is not in your hand.")

    def require_seat(self, seat: int, *, other_than: int | None = None) -> None:
        if not 0 <= seat < self.state.players or seat == other_than:
            raise RuleViolation(RuleCode.INVALID_TARGET, f"Seat {seat} is not an opponent's seat.")
