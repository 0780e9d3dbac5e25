"""The game state: a frozen value that only `evolve` produces (RULES §4, §6)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .docs import doc
from .ruleset import RuleSet

Direction = Literal["top_to_bottom", "bottom_to_top"]


class StackMove(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """One stack's move under a revealed Move card (§14.6)."""

    seat: Annotated[int, doc("The seat whose stack moves.")]
    direction: Annotated[Direction, doc(
        "`top_to_bottom`: its top set goes to the bottom; `bottom_to_top`: its bottom set "
        "comes to the top.")]
ChallengeKind = Literal["stack_top", "stack_second", "draft"]
Status = Literal["playing", "finished"]


# Card order inside a set is cosmetic (§17 A22): the type is stored, not derived from the cards.
class CardSet(msgspec.Struct, frozen=True, gc=False):
    """A set: at least one asset of a single asset type plus any number of wilds (§4)."""

    type: Annotated[str, doc("The set's asset type, e.g. `jewels`; never a wild's type.")]
    cards: Annotated[
        tuple[str, ...],
        doc("Every card id in the set, assets first, then wilds; the order is cosmetic (§17 A22)."),
    ]


class Play(msgspec.Struct, frozen=True, gc=False):
    """Cards one seat put into a challenge: the opening play or one answer (§8)."""

    seat: Annotated[int, doc("The seat that played the cards.")]
    cards: Annotated[
        tuple[str, ...], doc("The card ids played: one card, or two for a double (§8.2).")
    ]


# Pending decisions: exactly one is awaited at any time a command ends (RULES §6).


class AwaitingAction(msgspec.Struct, frozen=True, gc=False, tag="action"):
    """The active seat's turn: it must take an action (§7), or, after its first action with
    two_actions, may take a second one or end the turn (§13.2)."""

    seat: Annotated[int, doc("The active seat, whose turn it is.")]
    actions_taken: Annotated[
        int,
        doc(
            "Actions already taken this turn. 0: an action is required. 1 (only with"
            " two_actions): a second action, or end_turn (§13.2)."
        ),
    ] = 0


# A challenge's fields, as the challenge_opened event and the pending decision both give them.
ContestedKind = Annotated[ChallengeKind, doc(
    "What is contested: stack_top, the defender's top set; stack_second, the set second from"
    " the top (§13.6); draft, a drafted set challenged out of turn (§14.3).")]
Challenger = Annotated[int, doc("The seat that opened the challenge.")]
Defender = Annotated[int, doc("The seat whose set is contested; for a draft, the drafter.")]
TargetIndex = Annotated[int, doc(
    "Position of the contested set in the defender's stack, 0 being the bottom; -1 for a"
    " drafted set.")]
ContestedType = Annotated[str, doc(
    "Asset type of the contested set: assets of this type and wilds match it.")]


class AwaitingChallengeReply(msgspec.Struct, frozen=True, gc=False, tag="challenge"):
    """A challenge is running: the awaited seat must respond with the required play or concede
    (§8.4)."""

    kind: ContestedKind
    challenger: Challenger
    defender: Defender
    target_index: TargetIndex
    set_type: ContestedType
    pot: Annotated[
        tuple[Play, ...],
        doc(
            "Every play so far, in order, the opening first. The winner adds them all to"
            " the contested set (§8.5)."
        ),
    ]
    awaiting: Annotated[
        int, doc("The seat that must answer now: the challenger or the defender, in turn.")
    ]
    required: Annotated[
        int,
        doc(
            "The play the awaited seat owes. 1: a single (one matching card, not a Penny Jar)"
            " or a Penny Jar, which asks for a double back. 2: a double (two matching cards,"
            " neither a Penny Jar, or one Penny Jar) (§8.2, §8.4)."
        ),
    ]


class AwaitingDraftChallenge(msgspec.Struct, frozen=True, gc=False, tag="draft_window"):
    """A set was just drafted: the eligible opponent may challenge it out of turn
    (challenge_draft) or let the drafter keep it (pass_draft) (§14.3)."""

    drafter: Annotated[int, doc("The seat that drafted the set: the active seat.")]
    eligible: Annotated[int, doc("The only seat that may challenge the drafted set.")]


class AwaitingMoveDirections(msgspec.Struct, frozen=True, gc=False, tag="move_directions"):
    """A Move was revealed on a draft pile: each affected seat in turn picks the direction for
    the other affected seat's stack with choose_move_direction (§14.6)."""

    pile: Annotated[int, doc("The draft pile the Move card was revealed on.")]
    card: Annotated[str, doc("The revealed Move card's id.")]
    awaiting: Annotated[
        tuple[int, ...],
        doc(
            "Seats still to choose, in order (the active seat first); the first one chooses"
            " now. A seat does not choose when the other seat's stack has fewer than two sets."
        ),
    ]
    choices: Annotated[
        tuple[StackMove, ...],
        doc(
            "Choices made so far, each the other seat's stack and its direction; they are"
            " applied together once the last seat has chosen."
        ),
    ]


# TurnOver, Flipping and NotStarted (between rounds) only last inside one command: the server
# moves on at once, so only a replay to a version in the middle of a command shows them.


class TurnOver(msgspec.Struct, frozen=True, gc=False, tag="turn_over"):
    """The active seat's turn is over; hands are refilled next (§9). The server goes on at
    once: only GET /state at a version in the middle of a command shows it, never GET /view."""

    seat: Annotated[int, doc("The seat whose turn just ended.")]


# The piles to flip are `GameState.flip_queue`.
class Flipping(msgspec.Struct, frozen=True, gc=False, tag="flipping"):
    """Draft piles still have a next card to turn face up, or a revealed action card to resolve
    (§14.2, §14.6). The server goes on at once: only GET /state at a version in the middle of a
    command shows it, never GET /view."""


class NotStarted(msgspec.Struct, frozen=True, gc=False, tag="not_started"):
    """No round is being played: the game has started but its first round is not dealt yet,
    or a round has ended and the next is not dealt yet. Only GET /state at a version in the
    middle of a command shows it, never GET /view."""


class GameOver(msgspec.Struct, frozen=True, gc=False, tag="game_over"):
    """The game is over: `winners` in the view names the winning seats (§12)."""


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
    """A drafted set held aside until its out-of-turn challenge window, and any challenge, is
    over; then it goes on top of the winner's stack (§14.2, §14.3)."""

    drafter: Annotated[int, doc("The seat that drafted the set.")]
    set: Annotated[CardSet, doc("The drafted set: the hand card and the pile cards taken.")]
    piles: Annotated[
        tuple[int, ...],
        doc(
            "The draft piles the cards were taken from; their next cards are turned face up"
            " once the draft is resolved (§17 A50)."
        ),
    ]


class GameState(msgspec.Struct, frozen=True, gc=False):
    ruleset: RuleSet
    # The key round seeds derive from (docs/fair-shuffle.md §4, §7): the master seed, mixed
    # with every seat's client seed from rules version 4. Empty before the deal.
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
    # (card, seat): a card of a secret set (§17 A45) that only that seat, which formed the set,
    # has seen this round.
    set_secrets: frozenset[tuple[str, int]] = frozenset()
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
