"""The game state: a frozen value that only `evolve` produces (RULES §4, §6)."""

from __future__ import annotations

from typing import Literal

import msgspec

from .ruleset import RuleSet

Direction = Literal["top_to_bottom", "bottom_to_top"]
ChallengeKind = Literal["stack_top", "stack_second", "draft"]
Status = Literal["playing", "finished"]


class CardSet(msgspec.Struct, frozen=True, gc=False):
    """A set on a stack: its asset type is stored, so card order inside it is cosmetic (§17 A22)."""

    type: str
    cards: tuple[str, ...]


class Play(msgspec.Struct, frozen=True, gc=False):
    """Cards one seat put into a challenge."""

    seat: int
    cards: tuple[str, ...]


# Pending decisions: exactly one is awaited at any time a command ends (RULES §6).


class AwaitingAction(msgspec.Struct, frozen=True, gc=False, tag="action"):
    seat: int
    actions_taken: int = 0


class AwaitingChallengeReply(msgspec.Struct, frozen=True, gc=False, tag="challenge"):
    kind: ChallengeKind
    challenger: int
    defender: int
    target_index: int  # index in the defender's stack; -1 for a drafted set
    set_type: str
    pot: tuple[Play, ...]
    awaiting: int
    required: int  # 1 = a single, 2 = a double (§8.2)


class AwaitingDraftChallenge(msgspec.Struct, frozen=True, gc=False, tag="draft_window"):
    drafter: int
    eligible: int


class AwaitingMoveDirections(msgspec.Struct, frozen=True, gc=False, tag="move_directions"):
    """A Move revealed on a draft pile: each seat picks the direction for the other's stack."""

    pile: int
    card: str
    awaiting: tuple[int, ...]  # seats still to choose, in order
    choices: tuple[tuple[int, Direction], ...]  # (target seat, direction)


class TurnOver(msgspec.Struct, frozen=True, gc=False, tag="turn_over"):
    """Transient: the active seat's actions are done; replenishing follows in the same command."""

    seat: int


class Flipping(msgspec.Struct, frozen=True, gc=False, tag="flipping"):
    """Transient: draft piles still have a next card to reveal (`GameState.flip_queue`)."""


class NotStarted(msgspec.Struct, frozen=True, gc=False, tag="not_started"):
    """Before the game starts, and between rounds."""


class GameOver(msgspec.Struct, frozen=True, gc=False, tag="game_over"):
    pass


Pending = (
    AwaitingAction
    | AwaitingChallengeReply
    | AwaitingDraftChallenge
    | AwaitingMoveDirections
    | TurnOver
    | Flipping
    | NotStarted
    | GameOver
)


class DraftInProgress(msgspec.Struct, frozen=True, gc=False):
    drafter: int
    set: CardSet
    piles: tuple[int, ...]  # piles whose next card flips once the draft resolves (§17 A50)


class GameState(msgspec.Struct, frozen=True, gc=False):
    ruleset: RuleSet
    master_seed: bytes = b""
    status: Status = "playing"
    round_no: int = 0
    round_seed: bytes = b""
    first_player: int = 0
    active: int = 0
    actions_taken: int = 0
    pending: Pending = NotStarted()
    hands: tuple[tuple[str, ...], ...] = ()
    stacks: tuple[tuple[CardSet, ...], ...] = ()
    draw_pile: tuple[str, ...] = ()  # index 0 is the top
    discard_pile: tuple[str, ...] = ()  # the last card is the top
    draft_piles: tuple[tuple[str, ...], ...] = ()  # index 0 is the top
    draft_face_up: tuple[bool, ...] = ()  # is each pile's top card face up
    out_of_play: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()  # not in this round's deck (2-player reduction, unused cards)
    draft: DraftInProgress | None = None
    flip_queue: tuple[int, ...] = ()  # draft piles whose next card is still to be revealed
    blocked: frozenset[tuple[int, int]] = frozenset()  # (loser, target) under §13.2
    pushbacks: int = 0  # action cards pushed back into draft piles this round (RNG labels)
    totals: tuple[int, ...] = ()
    round_wins: tuple[int, ...] = ()
    round_scores: tuple[tuple[int, ...], ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return self.ruleset.players

    def pending_seats(self) -> tuple[int, ...]:
        """The seats whose decision the game waits for."""
        p = self.pending
        if isinstance(p, AwaitingAction):
            return (p.seat,)
        if isinstance(p, AwaitingChallengeReply):
            return (p.awaiting,)
        if isinstance(p, AwaitingDraftChallenge):
            return (p.eligible,)
        if isinstance(p, AwaitingMoveDirections):
            return p.awaiting[:1]
        return ()


def new_game(ruleset: RuleSet) -> GameState:
    """The state before `StartGame`: version 0 of every log."""
    n = ruleset.players
    return GameState(
        ruleset=ruleset,
        totals=(0,) * n,
        round_wins=(0,) * n,
    )
