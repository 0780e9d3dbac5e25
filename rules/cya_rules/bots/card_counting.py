"""What a seat can infer about hidden cards from its own view: the bots' card counting.

Only a `GameView` goes in, so nothing here can leak what the seat may not see (RULES §15).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from cya_rules.cards import PENNY_JAR, Kind, all_cards, card_table
from cya_rules.sets import Table, is_matching
from cya_rules.state import AwaitingChallengeReply
from cya_rules.views import GameView

WILD = "*wild*"  # the key under which unseen wilds are counted: each matches every set


def unseen_cards(view: GameView) -> Counter[str]:
    """Asset type (or WILD) -> cards the viewer has not seen: other hands, the draw pile,
    face-down draft cards, and set contents when set composition is hidden."""
    table = card_table(view.ruleset.edition)
    seen = set(view.hand or ())
    seen.update(view.discard_pile, view.out_of_play, view.removed)
    seen.update(pile.top for pile in view.draft_piles if pile.top)
    for seat in view.seats:
        for card_set in seat.stack:
            seen.update(card_set.cards or (card_set.top,))
    if view.draft:
        seen.update(view.draft.set.cards)
    if isinstance(view.pending, AwaitingChallengeReply):
        seen.update(c for play in view.pending.pot for c in play.cards)
    return Counter(_count_key(table, c) for c in all_cards(view.ruleset.edition) if c not in seen)


def _count_key(table: Table, card: str) -> str:
    info = table[card]
    return WILD if info.kind is Kind.WILD else info.type


def matching_units(table: Table, cards: Iterable[str], set_type: str) -> int:
    """Card units for a challenge on a `set_type` set: a Penny Jar counts as two wilds (§8.2)."""
    units = 0
    for c in cards:
        if is_matching(table, c, set_type):
            units += 2 if table[c].type == PENNY_JAR else 1
    return units


def chance_at_most(unseen: Counter[str], hand_count: int, set_type: str, limit: int) -> float:
    """P(a hand of `hand_count` unseen cards holds at most `limit` cards matching `set_type`).

    The hand is modelled as drawn uniformly from the unseen cards (hypergeometric).
    """
    total = sum(unseen.values())
    good = unseen[set_type] + unseen[WILD]
    hand = min(hand_count, total)
    if limit < 0:
        return 0.0
    if limit >= min(hand, good):
        return 1.0
    ways = sum(math.comb(good, k) * math.comb(total - good, hand - k) for k in range(limit + 1))
    return ways / math.comb(total, hand)
