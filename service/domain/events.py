"""Domain events: facts in the past tense, tagged by `type`. `evolve` folds them into state.

Every event type has a schema version (`SCHEMA_VERSION`, default 1); evolve a schema additively
(new fields with defaults) and bump it only with an upcaster in the event store.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from .ruleset import RuleSet
from .state import ChallengeKind, Direction


class _Event(msgspec.Struct, frozen=True, gc=False, tag_field="type"):
    SCHEMA_VERSION: ClassVar[int] = 1


class PileCard(msgspec.Struct, frozen=True, gc=False):
    pile: int
    card: str


class GameStarted(_Event, frozen=True, tag="game_started"):
    ruleset: RuleSet
    seed: bytes | None  # the master seed; server-only, redacted to None


class RoundStarted(_Event, frozen=True, tag="round_started"):
    """The deal of a round (RULES §5.3). Full contents are server-only; see views.redact."""

    round_no: int
    seed_sha256: str  # commitment to the round seed, revealed in RoundEnded
    first_player: int
    hand_size: int
    removed: tuple[str, ...]
    discard_pile: tuple[str, ...]
    pushed_back: tuple[PileCard, ...]  # action cards flipped at setup and pushed back (§14.5)
    draft_tops: tuple[str | None, ...]
    draft_counts: tuple[int, ...]
    hand_counts: tuple[int, ...]
    draw_count: int
    hands: tuple[tuple[str, ...], ...]  # redacted: only the viewer's own hand stays
    draft_piles: tuple[tuple[str, ...], ...] | None  # server-only
    draw_pile: tuple[str, ...] | None  # server-only


class TurnStarted(_Event, frozen=True, tag="turn_started"):
    seat: int


class SetFormed(_Event, frozen=True, tag="set_formed"):
    seat: int
    set_type: str
    cards: tuple[str, ...]  # with source "discard", the last card came from the discard pile
    source: Literal["hand", "discard"]


class CardDiscarded(_Event, frozen=True, tag="card_discarded"):
    seat: int
    card: str


class CardsDrawn(_Event, frozen=True, tag="cards_drawn"):
    seat: int
    count: int
    cards: tuple[str, ...] | None  # the drawer's own; None for everyone else
    reason: Literal["replenish", "discard_refill"] = "replenish"


class ChallengeOpened(_Event, frozen=True, tag="challenge_opened"):
    kind: ChallengeKind
    challenger: int
    defender: int
    target_index: int  # -1 for a drafted set
    set_type: str
    cards: tuple[str, ...]
    required: int  # what the defender must now play: 1 single, 2 double


class ChallengeAnswered(_Event, frozen=True, tag="challenge_answered"):
    seat: int
    cards: tuple[str, ...]
    required: int


class ChallengeConceded(_Event, frozen=True, tag="challenge_conceded"):
    """The seat gives up; the other side wins the set and every card played (§8.5)."""

    seat: int
    auto: bool = False  # taken automatically: the seat had no legal play


class SetDrafted(_Event, frozen=True, tag="set_drafted"):
    seat: int
    set_type: str
    hand_card: str
    pile_cards: tuple[PileCard, ...]
    eligible: int | None  # who may challenge it out of turn; None: nobody (§14.3)


class DraftChallengePassed(_Event, frozen=True, tag="draft_challenge_passed"):
    seat: int
    auto: bool = False


class PileCardRevealed(_Event, frozen=True, tag="pile_card_revealed"):
    pile: int
    card: str


class RevealedSwapApplied(_Event, frozen=True, tag="revealed_swap_applied"):
    pile: int
    card: str
    seats: tuple[int, int]


class RevealedActionReturned(_Event, frozen=True, tag="revealed_action_returned"):
    """A revealed Swap that could not apply goes back into the pile (§14.6, §17 A31)."""

    pile: int
    card: str
    position: int | None  # index in the pile; server-only


class RevealedActionDiscarded(_Event, frozen=True, tag="revealed_action_discarded"):
    """A revealed action card with nothing to act on goes out of play (§17 A31)."""

    pile: int
    card: str


class RevealedMoveAwaitingChoices(_Event, frozen=True, tag="revealed_move_awaiting_choices"):
    pile: int
    card: str
    choosers: tuple[int, ...]  # in order, active seat first


class MoveDirectionChosen(_Event, frozen=True, tag="move_direction_chosen"):
    seat: int
    target_seat: int
    direction: Direction


class RevealedMoveApplied(_Event, frozen=True, tag="revealed_move_applied"):
    pile: int
    card: str
    moves: tuple[tuple[int, Direction], ...]  # (stack owner, direction)


class SetImproved(_Event, frozen=True, tag="set_improved"):
    seat: int
    card: str


class SwapPlayed(_Event, frozen=True, tag="swap_played"):
    seat: int
    card: str
    target_seat: int


class MovePlayed(_Event, frozen=True, tag="move_played"):
    seat: int
    card: str
    target_seat: int
    direction: Direction


class TurnEnded(_Event, frozen=True, tag="turn_ended"):
    seat: int
    auto: bool = False


class RoundEnded(_Event, frozen=True, tag="round_ended"):
    round_no: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    round_winner: int | None  # the unique highest round score, if any
    seed: bytes  # the round seed, revealed: SHA-256 of it is RoundStarted.seed_sha256


class GameEnded(_Event, frozen=True, tag="game_ended"):
    winners: tuple[int, ...]
    totals: tuple[int, ...]


Event = (
    GameStarted
    | RoundStarted
    | TurnStarted
    | SetFormed
    | CardDiscarded
    | CardsDrawn
    | ChallengeOpened
    | ChallengeAnswered
    | ChallengeConceded
    | SetDrafted
    | DraftChallengePassed
    | PileCardRevealed
    | RevealedSwapApplied
    | RevealedActionReturned
    | RevealedActionDiscarded
    | RevealedMoveAwaitingChoices
    | MoveDirectionChosen
    | RevealedMoveApplied
    | SetImproved
    | SwapPlayed
    | MovePlayed
    | TurnEnded
    | RoundEnded
    | GameEnded
)
