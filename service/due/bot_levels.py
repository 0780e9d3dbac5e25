"""Bot levels by name: the policies a bot seat or an expired clock plays with."""

from __future__ import annotations

import random
from collections.abc import Sequence

from service.domain import SeatCommand
from service.domain import bots as domain_bots
from service.domain.bots import Policy, random_policy
from service.domain.cards import card_table
from service.domain.commands import Discard, DraftSet, FormSet, ImproveSet, Respond
from service.domain.views import GameView


def greedy_policy(view: GameView, legal: Sequence[SeatCommand], rng: random.Random) -> SeatCommand:
    """Bank the most valuable set it can, defend what it holds, throw away its cheapest card;
    ties are broken at random so two greedy bots do not mirror each other."""
    values = card_table(view.ruleset.edition)

    def worth(command: SeatCommand) -> float:
        match command:
            case FormSet(hand_cards=cards) | DraftSet(pile_cards=cards):
                return 2_000_000 + max(values[c].value for c in cards)
            case ImproveSet(card=card):
                return 1_500_000 + values[card].value
            case Respond(cards=cards):
                return 1_000_000 - sum(values[c].value for c in cards) / 1_000
            case Discard(card=card):
                return -values[card].value
        return -500_000  # challenges, concessions, passes, ending the turn: only if nothing else

    best = max(worth(c) for c in legal)
    top = [c for c in legal if worth(c) == best]
    return top[rng.randrange(len(top))]


# The rules engine may ship its own table of levels; ours fills in what it lacks.
POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy,
    **getattr(domain_bots, "POLICIES", {}),
}
