"""GET /v1/rulesets: editions, decks and every rule option with its default and description."""

from __future__ import annotations

from typing import Annotated, Any, cast

import msgspec
from litestar import get

from cya_rules.bots import LEVELS
from cya_rules.cards import EDITIONS, CardSpec, Edition
from cya_rules.docs import doc
from cya_rules.ruleset import (
    CURRENT_RULES_VERSION,
    RULES_VERSIONS,
    RuleSet,
    RulesVersion,
    preset,
)
from cya_rules.table.seats import BotLevel
from service.http.context import refuse_unknown_query
from service.http.openapi import PublicOperation
from service.http.problems import problem_responses


class CardTypeInfo(msgspec.Struct, frozen=True):
    """One card type of an edition's deck, as `GET /v1/rulesets` lists it."""

    type: Annotated[
        str,
        doc("The card type's id; each copy's card id is `<type>#<n>`, numbered from 1"
            " (e.g. `jewels#3`)."),
    ]
    kind: Annotated[str, doc("`asset`, `wild` or `action`.")]
    copies: Annotated[int, doc("How many copies a full deck holds.")]
    value: Annotated[int, doc("Its value in dollars; 0 for an action card.")]
    name_en: Annotated[str, doc("Its English name.")]
    name_de: Annotated[str, doc("Its German name.")]


class EditionInfo(msgspec.Struct, frozen=True):
    """An edition and its cards, as `GET /v1/rulesets` lists it."""

    id: Annotated[Edition, doc("The edition, as a rule set's `edition` names it.")]
    classic_cards: Annotated[
        tuple[CardTypeInfo, ...],
        doc("The deck without advanced options, in the order of the rulebook's contents."),
    ]
    advanced_cards: Annotated[
        tuple[CardTypeInfo, ...],
        doc("The cards the advanced options `action_cards` and `penny_jar` add; none for"
            " classic_2011."),
    ]
    two_player_removed: Annotated[
        dict[str, int],
        doc("How many copies of each card type a 2-player game leaves out: the highest-numbered"
            " ones."),
    ]


class BotLevelInfo(msgspec.Struct, frozen=True):
    """A level of the server's bots, as `GET /v1/rulesets` lists it."""

    level: Annotated[BotLevel, doc("The level, as a bot seat's `level` names it.")]
    description: Annotated[str, doc("How a bot of this level plays.")]


class Catalogue(msgspec.Struct, frozen=True):
    """What `GET /v1/rulesets` returns: the editions with their cards, presets, rule options."""

    editions: Annotated[tuple[EditionInfo, ...], doc("Every edition, with its cards.")]
    presets: Annotated[
        dict[str, RuleSet],
        doc("The presets by name: `classic` (no advanced option) and `advanced_all` (every"
            " advanced option on), shown for 4 players of en_2022."),
    ]
    ruleset_schema: Annotated[
        dict[str, Any],
        doc("The JSON Schema of a rule set (`ruleset` in `POST /v1/games`), with every option's"
            " default and description."),
    ]
    rules_versions: Annotated[
        tuple[RulesVersion, ...],
        doc("Every rules version, oldest first, with what changed in each. A game keeps the"
            " version it was created under (its rule set's `rules_version`); new games get the"
            " last one."),
    ]
    current_rules_version: Annotated[
        int, doc("The version every new game is created under.")
    ]
    bot_levels: Annotated[
        tuple[BotLevelInfo, ...],
        doc("The levels of the server's bots, weakest first: a bot seat's `level`, and a"
            " timeout policy's `bot_level`. docs/bots.md gives each level's measured strength."),
    ]


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
    presets = {name: preset(name, 4).for_new_game() for name in ("classic", "advanced_all")}
    levels = tuple(BotLevelInfo(cast(BotLevel, name), level.description)
                   for name, level in LEVELS.items())
    return Catalogue(editions, presets, msgspec.json.schema(RuleSet), RULES_VERSIONS,
                     CURRENT_RULES_VERSION, levels)


_CATALOGUE = build_catalogue()


@get(
    "/v1/rulesets",
    operation_id="listRulesets",
    summary="Editions, decks and rule options",
    description=(
        "Every edition with its cards (values per edition), the presets `classic` and "
        "`advanced_all` (shown for 4 players of en_2022), the JSON Schema of a rule set "
        "with every option's default and description, the rules versions with what "
        "changed in each, and the levels of the server's bots."
    ),
    tags=["rules"],
    responses=problem_responses(400, 429, database=False),
    operation_class=PublicOperation,
    before_request=refuse_unknown_query,
)
async def list_rulesets() -> Catalogue:
    return _CATALOGUE
