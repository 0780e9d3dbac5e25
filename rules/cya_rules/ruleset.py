"""The rule set a game is played with (RULES §3), validated when it is created or decoded."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import replace

from .cards import Edition
from .docs import doc


class RulesVersion(msgspec.Struct, frozen=True, gc=False):
    """One version of the rules engine: what changed in play from the version before."""

    version: Annotated[int, doc("The version, as a rule set's `rules_version` names it.")]
    changes: Annotated[
        tuple[str, ...], doc("What plays differently from the version before, with the rule.")
    ]


# Every change to what a game plays, shows or records is a new version here; a game keeps the
# version it was created under for its whole life (docs/rules.md §18). Append only.
RULES_VERSIONS: tuple[RulesVersion, ...] = (
    RulesVersion(1, ("The rules as first released: every game created before rules versions"
                     " were recorded plays under it.",)),
    RulesVersion(2, (
        "A Swap revealed on a draft pile while an affected seat has no set goes back face"
        " down into the middle of its pile and the next card is flipped, as [EN22] says (§14.6,"
        " §17 A31), also when that next card is the other Swap; version 1 took it out of play"
        " then. It goes out of play only when it cannot go back: no card under it, or the other"
        " Swap next with one or two cards under it, where the two would change places forever.",
    )),
    RulesVersion(3, (
        "With public_set_composition off, a formed pair's second card stays secret from every"
        " seat but the one that formed it, and from spectators, until the round is scored: its"
        " set_formed event names only the face-up cards to them (in event pages, streams and"
        " command answers), the face-up card is the set's top, and a finished game's views"
        " show every set in full (§15, §17 A45); version 1 and 2 events named every card.",
        "public_set_composition defaults to off for classic_2011 (its book: \"If you use a wild"
        " card to complete a set, try to keep that a secret!\"); on for en_2022 and de_2024.",
    )),
    RulesVersion(4, (
        "Every seat adds to the randomness (docs/fair-shuffle.md §7): the server commits to"
        " the game's master seed when the game is created (game_created.seed_sha256); each"
        " seat contributes a client seed of at most 64 bytes before the deal (a bot's comes"
        " from the master seed); game_started names them all, and every round's seed derives"
        " from the master seed mixed with them in seat order. Versions 1 to 3 derive the round"
        " seeds from the master seed alone, drawn at the deal. A tournament's tables are still"
        " dealt from the seeds the tournament committed to, without client seeds.",
    )),
)
CURRENT_RULES_VERSION = RULES_VERSIONS[-1].version


class EndMode(StrEnum):
    TO_MILLION = "to_million"
    QUICK = "quick"
    HIGHEST_AFTER_3_ROUNDS = "highest_after_3_rounds"
    FIRST_TO_2_ROUND_WINS = "first_to_2_round_wins"


class TiePolicy(StrEnum):
    EXTRA_ROUND = "extra_round"
    SHARED_WIN = "shared_win"


class LaterRoundsStart(StrEnum):
    ROTATE_LEFT = "rotate_left"
    POOREST = "poorest"


class AdvancedOptions(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """The optional rules of RULES §13, each independently toggleable."""

    hand_size_six: Annotated[bool, doc("Deal and refill six cards (§13.1).")] = False
    two_actions: Annotated[
        bool, doc("Up to two actions per turn; a first-action discard refills at once (§13.2).")
    ] = False
    no_rechallenge_after_loss: Annotated[
        bool | None,
        doc(
            "After losing a challenge, no new challenge against that seat until your next turn."
            " null: the edition's default — on with two_actions for en_2022, off for de_2024"
            " (§13.2, §17 A37)."
        ),
    ] = None
    improve_set: Annotated[
        bool, doc("Add a matching asset from hand to your top set as an action (§13.3).")
    ] = False
    action_cards: Annotated[bool, doc("Add Swap ×2 and Move ×2 to the deck (§13.4).")] = False
    penny_jar: Annotated[
        bool, doc("Add Penny Jar ×2: a $1,000 wild that counts double in challenges (§13.5).")
    ] = False
    second_set_challenge: Annotated[
        bool, doc("The set second from the top can be challenged with a double (§13.6).")
    ] = False

    def any_on(self) -> bool:
        return any(
            (
                self.hand_size_six,
                self.two_actions,
                bool(self.no_rechallenge_after_loss),
                self.improve_set,
                self.action_cards,
                self.penny_jar,
                self.second_set_challenge,
            )
        )


ALL_ADVANCED = AdvancedOptions(
    hand_size_six=True,
    two_actions=True,
    improve_set=True,
    action_cards=True,
    penny_jar=True,
    second_set_challenge=True,
)


class RuleSet(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """How a game is played (RULES §3). Seats are numbered 0 to players − 1, clockwise."""

    players: Annotated[int, msgspec.Meta(ge=2, le=6, description="Number of seats, 2–6.")]
    edition: Annotated[
        Edition, doc("Rulebook and deck: classic_2011, en_2022 or de_2024 (§1).")
    ] = Edition.EN_2022
    end_mode: Annotated[EndMode, doc("When the game ends (§12).")] = EndMode.TO_MILLION
    advanced: Annotated[
        AdvancedOptions, doc("Advanced rules, each on its own; not for classic_2011 (§13).")
    ] = AdvancedOptions()
    tie_policy: Annotated[
        TiePolicy,
        doc("A top total shared when the game would end: play another round, or share the win"
            " (§12.5). It never applies to first_to_2_round_wins, where a tied round gives no"
            " round win and one seat alone can reach two."),
    ] = TiePolicy.EXTRA_ROUND
    first_player: Annotated[
        Literal["random"] | int,
        doc("First player of round 1: 'random' (from the round seed) or a seat (§5.4)."),
    ] = "random"
    later_rounds_start: Annotated[
        LaterRoundsStart,
        doc("Later rounds start left of the last first player, or with the poorest (§5.4)."),
    ] = LaterRoundsStart.ROTATE_LEFT
    draft_challenge_requires_own_set: Annotated[
        bool, doc("Challenging a drafted set needs a set of your own (§14.3, §17 A28).")
    ] = True
    draft_set_first_set_protected: Annotated[
        bool, doc("A drafted set that would be the drafter's first set is safe (§17 A28).")
    ] = False
    # UNSET (never on the wire: absent) asks for the edition's default, which the lobby records
    # when it creates the game; logs written before rules version 3 always hold a bool.
    public_set_composition: Annotated[
        bool,
        doc("Views and events show every card of every set. Off: each set's type, count and"
            " top card only, and a formed pair's other card stays with the seat that formed it"
            " until the round is scored (§15, §17 A45). Absent: the edition's default, recorded"
            " when the game is created: off for classic_2011, whose book says to keep a wild in"
            " a set secret; on for en_2022 and de_2024. Before rules version 3 the events named"
            " every card either way (§18)."),
    ] | UnsetType = UNSET

    # Added after games were recorded without it: absent means 1, the rules those games were
    # played under, for good. A default tracking the current version would reread every old
    # log under new rules (msgspec schema evolution: a new field's default is what old data
    # means). New games are stamped with the current version by `for_new_game`.
    rules_version: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            description=(
                "The rules version the game was created under, which it keeps for good: the"
                " server sets it to the current version when a game is created, and a value"
                " sent in `POST /v1/games` is ignored. Absent from a game recorded before"
                " versions were, which plays under version 1. `GET /v1/rulesets` lists the"
                " versions and what changed in each (§18)."
            ),
            extra_json_schema={"readOnly": True},
        ),
    ] = 1

    def __post_init__(self) -> None:
        # msgspec turns a ValueError raised here into a ValidationError when decoding.
        if self.rules_version > CURRENT_RULES_VERSION:
            raise ValueError(f"rules_version {self.rules_version} is newer than these rules"
                             f" (version {CURRENT_RULES_VERSION})")
        if not 2 <= self.players <= 6:
            raise ValueError(f"players must be between 2 and 6 (got {self.players}; §17 A54)")
        if self.edition == Edition.CLASSIC_2011 and self.advanced.any_on():
            raise ValueError("advanced options need edition en_2022 or de_2024 (§17 A39)")
        if isinstance(self.first_player, int) and not 0 <= self.first_player < self.players:
            raise ValueError(
                f"first_player must be 'random' or a seat from 0 to {self.players - 1}"
            )

    def for_new_game(self) -> RuleSet:
        """The rule set as a new game records it: under the current rules version (§18), with
        the edition's defaults of that version written out."""
        pinned = replace(self, rules_version=CURRENT_RULES_VERSION)
        return replace(pinned, public_set_composition=pinned.sets_public)

    @property
    def sets_public(self) -> bool:
        """Whether every card of every set is shown (§15, §17 A45)."""
        if isinstance(self.public_set_composition, bool):
            return self.public_set_composition
        # Since version 3 classic_2011 hides them by default: "If you use a wild card to
        # complete a set, try to keep that a secret!" [EN11].
        return not (self.edition == Edition.CLASSIC_2011 and self.since(3))

    def since(self, version: int) -> bool:
        """Whether the game plays under `version` or a later one: where play changed (§18)."""
        return self.rules_version >= version

    # Derived facts the engine asks for often.

    @property
    def rechallenge_blocked(self) -> bool:
        opt = self.advanced.no_rechallenge_after_loss
        if opt is not None:
            return opt
        return self.edition == Edition.EN_2022 and self.advanced.two_actions

    @property
    def uses_draft_piles(self) -> bool:
        return self.edition != Edition.CLASSIC_2011 and self.players <= 3

    @property
    def hand_size(self) -> int:
        """Deal size and refill target H (RULES §5.2, §17 A2–A5)."""
        if self.edition == Edition.CLASSIC_2011:
            return 5 if self.players <= 3 else 4
        if self.players == 2 or self.advanced.hand_size_six:
            return 6
        return 5


def preset(
    name: str, players: int, edition: Edition = Edition.EN_2022, **overrides: object
) -> RuleSet:
    """`classic` (no advanced option) or `advanced_all` (all six advanced options on)."""
    if name == "classic":
        return RuleSet(players=players, edition=edition, **overrides)  # type: ignore[arg-type]
    if name == "advanced_all":
        return RuleSet(
            players=players,
            edition=edition,
            advanced=ALL_ADVANCED,
            **overrides,  # type: ignore[arg-type]
        )
    raise ValueError(f"unknown preset {name!r}: use 'classic' or 'advanced_all'")
