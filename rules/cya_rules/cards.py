"""Editions, card kinds, per-edition values and names, and physical card ids (RULES §1–2).

Values live in the tables below, so a correction (RULES §17 A1) is a data change.
Every physical card has a stable id ``"<type>#<n>"`` (1-based), e.g. ``"jewels#3"``.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import NamedTuple


class Edition(StrEnum):
    CLASSIC_2011 = "classic_2011"
    EN_2022 = "en_2022"
    DE_2024 = "de_2024"


class Kind(StrEnum):
    ASSET = "asset"
    WILD = "wild"
    ACTION = "action"


PENNY_JAR = "penny_jar"
SWAP = "swap"
MOVE = "move"


class CardSpec(NamedTuple):
    type: str
    kind: Kind
    copies: int
    value: int
    name_en: str
    name_de: str


class EditionSpec(NamedTuple):
    classic: tuple[CardSpec, ...]  # in the rulebook's contents order
    advanced: tuple[CardSpec, ...]
    # 2-player games remove these (type -> count) from the classic cards (RULES §5.1).
    two_player_removed: tuple[tuple[str, int], ...]


def _a(t: str, copies: int, value: int, en: str, de: str) -> CardSpec:
    return CardSpec(t, Kind.ASSET, copies, value, en, de)


_SILVER = CardSpec("silver", Kind.WILD, 8, 25_000, "Silver", "Silber")
_GOLD = CardSpec("gold", Kind.WILD, 4, 50_000, "Gold", "Gold")
_ADVANCED = (
    CardSpec(SWAP, Kind.ACTION, 2, 0, "Swap", "Tauschen"),
    CardSpec(MOVE, Kind.ACTION, 2, 0, "Move", "Verschieben"),
    CardSpec(PENNY_JAR, Kind.WILD, 2, 1_000, "Penny Jar", "Münzenglas"),
)

EDITIONS: dict[Edition, EditionSpec] = {
    # RULES §2.3, values HIGH confidence (Appendix A.1).
    Edition.CLASSIC_2011: EditionSpec(
        classic=(
            _GOLD,
            _SILVER,
            _a("home", 8, 20_000, "Home", "Eigenheim"),
            _a("jewels", 10, 15_000, "Jewels", "Juwelen"),
            _a("classic_auto", 10, 15_000, "Classic Auto", "Oldtimer"),
            _a("bank_account", 10, 10_000, "Bank Account", "Bankkonto"),
            _a("coin_collection", 10, 10_000, "Coin Collection", "Münzsammlung"),
            _a("stocks", 10, 10_000, "Stocks", "Aktien"),
            _a("baseball_cards", 10, 5_000, "Baseball Cards", "Baseballkarten"),
            _a("cash_under_mattress", 10, 5_000, "Cash Under the Mattress", "Matratzengeld"),
            _a("stamp_collection", 10, 5_000, "Stamp Collection", "Briefmarkensammlung"),
            _a("piggy_bank", 10, 5_000, "Piggy Bank", "Sparschwein"),
        ),
        advanced=(),
        two_player_removed=(),
    ),
    # RULES §2.3, values MEDIUM confidence (Appendix A.2).
    Edition.EN_2022: EditionSpec(
        classic=(
            _a("comic_books", 10, 5_000, "Comic Books", "Comics"),
            _a("piano", 10, 5_000, "Piano", "Klavier"),
            _a("toy_train", 10, 5_000, "Toy Train", "Spielzeugeisenbahn"),
            _a("jewels", 9, 10_000, "Jewels", "Juwelen"),
            _a("cash_under_mattress", 9, 10_000, "Cash under the Mattress", "Matratzengeld"),
            _a("piggy_bank", 9, 10_000, "Piggy Bank", "Sparschwein"),
            _a("scooter", 9, 15_000, "Scooter", "Motorroller"),
            _a("sport_plane", 9, 15_000, "Sport Plane", "Sportflugzeug"),
            _a("classic_auto", 9, 15_000, "Classic Auto", "Oldtimer"),
            _a("cabin", 8, 20_000, "Cabin", "Hütte"),
            _SILVER,
            _GOLD,
        ),
        advanced=_ADVANCED,
        two_player_removed=(("cabin", 8), ("silver", 2), ("gold", 1)),
    ),
    # RULES §2.3, values MEDIUM confidence (Appendix A.3).
    Edition.DE_2024: EditionSpec(
        classic=(
            _a("baseball_cards", 10, 5_000, "Baseball Cards", "Baseballkarten"),
            _a("coin_collection", 10, 5_000, "Coin Collection", "Münzsammlung"),
            _a("piggy_bank", 10, 5_000, "Piggy Bank", "Sparschwein"),
            _a("cash_under_mattress", 9, 10_000, "Cash under the Mattress", "Matratzengeld"),
            _a("bank_account", 9, 10_000, "Bank Account", "Bankkonto"),
            _a("stocks", 9, 10_000, "Stocks", "Aktien"),
            _a("speed_boat", 9, 15_000, "Speed Boat", "Motorboot"),
            _a("jewels", 9, 15_000, "Jewels", "Juwelen"),
            _a("classic_auto", 9, 15_000, "Classic Auto", "Oldtimer"),
            _a("home", 8, 20_000, "Home", "Eigenheim"),
            _SILVER,
            _GOLD,
        ),
        advanced=_ADVANCED,
        two_player_removed=(("home", 8), ("silver", 2), ("gold", 1)),
    ),
}


class CardInfo(NamedTuple):
    type: str
    kind: Kind
    value: int


def card_ids(spec: CardSpec) -> tuple[str, ...]:
    return tuple(f"{spec.type}#{n}" for n in range(1, spec.copies + 1))


@cache
def all_cards(edition: Edition) -> tuple[str, ...]:
    """Every physical card of the edition in canonical order: contents order, then advanced."""
    es = EDITIONS[edition]
    return tuple(cid for spec in es.classic + es.advanced for cid in card_ids(spec))


@cache
def card_table(edition: Edition) -> dict[str, CardInfo]:
    """card id -> (type, kind, value), the one lookup the hot paths use."""
    es = EDITIONS[edition]
    return {
        cid: CardInfo(spec.type, spec.kind, spec.value)
        for spec in es.classic + es.advanced
        for cid in card_ids(spec)
    }


def card_type(card_id: str) -> str:
    return card_id.partition("#")[0]
