"""The bench's games, each a two-seat game of two players it made through the API, each seat
followed by its own event stream: seat 0's on one API process, seat 1's on the other. A seat
knows its hand from its own stream alone, so a command costs one request."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .streams import Stream

RULES = {"players": 2, "edition": "classic_2011", "end_mode": "quick",
         "tie_policy": "shared_win"}


@dataclass
class Table:
    game_id: str
    ports: tuple[int, int]  # seat 0's API process, seat 1's
    keys: tuple[str, str]
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    awaiting: list[int] = field(default_factory=list)
    seen: list[int] = field(default_factory=lambda: [0, 0])  # the last version each stream had
    arrived: list[dict[int, float]] = field(default_factory=lambda: [{}, {}])
    streams: list[Stream] = field(default_factory=list)
    version: int = 0  # the last version a command's answer gave
    busy: bool = False
    over: bool = False

    def follower(self, seat: int) -> Any:
        def on_event(version: int, event: dict[str, Any], awaiting: list[int],
                     at: float) -> None:
            self.arrived[seat][version] = at
            self.seen[seat] = version
            self.awaiting = awaiting
            kind, hand = event["type"], self.hands[seat]
            if kind == "game_ended":
                self.over = True
            if kind == "round_started":
                self.hands[seat] = list(event["hands"][seat])
            elif event.get("seat") != seat:
                return
            elif kind == "set_formed" and event.get("source") == "hand":
                for card in event["cards"]:
                    if card in hand:
                        hand.remove(card)
            elif kind == "card_discarded" and event["card"] in hand:
                hand.remove(event["card"])
            elif kind == "cards_drawn" and event["cards"]:
                hand.extend(event["cards"])
        return on_event

    def ready(self) -> bool:
        """A command can be chosen: no answer outstanding, and the seat to act has heard
        everything up to the last answer (its hand is current)."""
        if self.busy or self.over or not self.awaiting:
            return False
        return self.seen[self.awaiting[0]] >= self.version and bool(self.hands[self.awaiting[0]])


@dataclass
class Sent:
    """A command answered 200: its game, the last version it made, when it was due, when
    sent and when answered (`time.monotonic`)."""

    table: Table
    version: int
    due: float
    sent: float
    answered: float


def choose(hand: list[str]) -> dict[str, Any]:
    """A pair from the hand if it holds one (no wild), else a discard (as bench/http_api.py)."""
    by_kind: dict[str, str] = {}
    for card in hand:
        kind = card.split("#", 1)[0]
        if kind in by_kind and kind not in {"gold", "silver"}:
            return {"type": "form_set", "source": "hand", "hand_cards": [by_kind[kind], card]}
        by_kind[kind] = card
    return {"type": "discard", "card": hand[0]}


def now() -> float:
    return time.monotonic()
