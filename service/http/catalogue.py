"""GET /v1/rulesets: editions, decks and every rule option with its default and description."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import get

from service.domain.cards import EDITIONS, CardSpec, Edition
from service.domain.ruleset import RuleSet, preset

from .operations import PublicOperation


class CardTypeInfo(msgspec.Struct, frozen=True):
    type: str
    kind: str
    copies: int
    value: int
    name_en: str
    name_de: str


class EditionInfo(msgspec.Struct, frozen=True):
    id: Edition
    classic_cards: tuple[CardTypeInfo, ...]
    advanced_cards: tuple[CardTypeInfo, ...]
    two_player_removed: dict[str, int]


class Catalogue(msgspec.Struct, frozen=True):
    editions: tuple[EditionInfo, ...]
    presets: dict[str, RuleSet]
    ruleset_schema: dict[str, Any]  # JSON Schema of a rule set, with defaults and descriptions


def _card(spec: CardSpec) -> CardTypeInfo:
    return CardTypeInfo(
        spec.type, spec.kind.value, spec.copies, spec.value, spec.name_en, spec.name_de
    )


def build_catalogue() -> Catalogue:
    editions = tuple(
        EditionInfo(
            id=edition,
            classic_cards=tuple(_card(s) for s in spec.classic),
            advanced_cards=tuple(_card(s) for s in spec.advanced),
            two_player_removed=dict(spec.two_player_removed),
        )
        for edition, spec in EDITIONS.items()
    )
    presets = {name: preset(name, 4) for name in ("classic", "advanced_all")}
    return Catalogue(editions, presets, msgspec.json.schema(RuleSet))


_CATALOGUE = build_catalogue()


@get(
    "/v1/rulesets",
    operation_id="listRulesets",
    summary="Editions, decks and rule options",
    description=(
        "Every edition with its cards (values per edition), the presets `classic` and "
        "`advanced_all` (shown for 4 players), and the JSON Schema of a rule set with every "
        "option's default and description."
    ),
    tags=["rules"],
    operation_class=PublicOperation,
)
async def list_rulesets() -> Catalogue:
    return _CATALOGUE
