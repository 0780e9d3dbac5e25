"""A greedy bot: form sets and take sets when it can, defend cheaply, never waste a wild."""

import random

from cya_client.models import Challenge, Command, Concede, Discard, FormSet, GameView, Respond

WILDS = ("gold", "silver", "penny_jar")  # card ids are `<type>#<n>`, e.g. `gold#2`


def is_wild(card: str) -> bool:
    return card.split("#")[0] in WILDS


def score(command: Command, view: GameView) -> float:
    match command:
        case FormSet(hand_cards=cards, source=source):  # a new set, better from the discard
            return 10 + (2 if source == "discard" else 0) - 3 * sum(map(is_wild, cards))
        case Challenge(cards=cards):  # steal a set, with assets rather than wilds
            return 8 - 3 * sum(map(is_wild, cards))
        case Respond(cards=cards):  # keeping a set is worth a card
            return 6 - 2 * sum(map(is_wild, cards))
        case Concede():
            return 1
        case Discard(card=card):  # throw away what is worth least
            return -5 if is_wild(card) else 0
    return 2  # drafts, action cards, ending the turn, move directions


def choose(view: GameView, legal: list[Command]) -> Command:
    return max(legal, key=lambda c: (score(c, view), random.random()))
