"""What cards make a set, and what a play in a challenge is worth (RULES §4, §7.1, §8.2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from .cards import PENNY_JAR, CardInfo, Kind

Table = Mapping[str, CardInfo]
PlayKind = Literal["single", "double", "penny"]


def group_type(table: Table, cards: Iterable[str]) -> str | None:
    """The set type of cards that may lie together: ≥ 1 asset, one asset type, wilds (§4)."""
    set_type: str | None = None
    for card in cards:
        info = table[card]
        if info.kind is Kind.ASSET:
            if set_type is None:
                set_type = info.type
            elif set_type != info.type:
                return None
        elif info.kind is not Kind.WILD:
            return None
    return set_type


def pair_type(table: Table, a: str, b: str) -> str | None:
    """A formed pair: two assets of one type, or one asset and one wild; never two wilds (§7.1).
    The wild may be the hand card or the discard top (§17 A21).

    Same answer as `group_type(table, (a, b))`, spelled out: legal_commands calls it for every
    pair of hand cards on every turn."""
    ia, ib = table[a], table[b]
    if ia.kind is Kind.ASSET:
        if ib.kind is Kind.ASSET:
            return ia.type if ia.type == ib.type else None
        return ia.type if ib.kind is Kind.WILD else None
    if ia.kind is Kind.WILD and ib.kind is Kind.ASSET:
        return ib.type
    return None


def is_matching(table: Table, card: str, set_type: str) -> bool:
    info = table[card]
    return info.kind is Kind.WILD or (info.kind is Kind.ASSET and info.type == set_type)


_MATCHING: dict[tuple[int, str], tuple[Table, frozenset[str]]] = {}


def matching_cards(table: Table, set_type: str) -> frozenset[str]:
    """Every card of `table` that `is_matching` `set_type`, built once per table and type: the
    challenge enumerations test whole hands against it on every step of a search. The entry
    keeps its table, so the `id` it is keyed by stays that table's."""
    entry = _MATCHING.get((id(table), set_type))
    if entry is None or entry[0] is not table:
        cards = frozenset(c for c in table if is_matching(table, c, set_type))
        entry = _MATCHING[(id(table), set_type)] = (table, cards)
    return entry[1]


_PAIRS: dict[int, tuple[Table, frozenset[tuple[str, str]]]] = {}


def formable_pairs(table: Table) -> frozenset[tuple[str, str]]:
    """Every (a, b) of `table`'s cards, in either order, that `pair_type` accepts, built once per
    table: legal_commands tests every pair of hand cards against it on every turn."""
    entry = _PAIRS.get(id(table))
    if entry is None or entry[0] is not table:
        pairs = frozenset((a, b) for a in table for b in table if pair_type(table, a, b))
        entry = _PAIRS[id(table)] = (table, pairs)
    return entry[1]


def play_kind(table: Table, cards: tuple[str, ...], set_type: str) -> PlayKind | None:
    """§8.2: a single, a double, or a lone Penny Jar (which counts as two wilds). A play is
    exactly one of these; extra cards are never allowed (§17 A14)."""
    if len(cards) == 1:
        card = cards[0]
        if table[card].type == PENNY_JAR:
            return "penny"
        return "single" if is_matching(table, card, set_type) else None
    if len(cards) == 2 and cards[0] != cards[1]:
        for card in cards:
            if table[card].type == PENNY_JAR or not is_matching(table, card, set_type):
                return None
        return "double"
    return None


def next_required(play: PlayKind, required: int) -> int | None:
    """What the other side must answer after `play` where `required` was asked; None if illegal.

    A Penny Jar where a single is required is an over-bid and asks for a double; where a double
    is required it is an exact double (§8.4, §17 A13). A stack_second opening counts as
    required = 2, a stack_top or draft opening as required = 1 (§8.3, §17 A12).
    """
    if required == 1:
        return {"single": 1, "penny": 2}.get(play)
    return 1 if play in ("double", "penny") else None
