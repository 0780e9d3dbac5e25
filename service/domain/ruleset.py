"""The rule set a game is played with (RULES §3), validated when it is created or decoded."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

import msgspec

from .cards import Edition


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


class AdvancedOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The optional rules of RULES §13, each independently toggleable."""

    hand_size_six: bool = False
    two_actions: bool = False
    # None = the edition's default (§17 A37): on with two_actions for en_2022, off for de_2024.
    no_rechallenge_after_loss: bool | None = None
    improve_set: bool = False
    action_cards: bool = False
    penny_jar: bool = False
    second_set_challenge: bool = False

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


class RuleSet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: int
    edition: Edition = Edition.EN_2022
    end_mode: EndMode = EndMode.TO_MILLION
    advanced: AdvancedOptions = AdvancedOptions()
    tie_policy: TiePolicy = TiePolicy.EXTRA_ROUND
    first_player: Literal["random"] | int = "random"
    later_rounds_start: LaterRoundsStart = LaterRoundsStart.ROTATE_LEFT
    draft_challenge_requires_own_set: bool = True
    draft_set_first_set_protected: bool = False
    public_set_composition: bool = True

    def __post_init__(self) -> None:
        # msgspec turns a ValueError raised here into a ValidationError when decoding.
        if not 2 <= self.players <= 6:
            raise ValueError(f"players must be between 2 and 6 (got {self.players}; §17 A54)")
        if self.edition == Edition.CLASSIC_2011 and self.advanced.any_on():
            raise ValueError("advanced options need edition en_2022 or de_2024 (§17 A39)")
        if isinstance(self.first_player, int) and not 0 <= self.first_player < self.players:
            raise ValueError(
                f"first_player must be 'random' or a seat from 0 to {self.players - 1}"
            )

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
