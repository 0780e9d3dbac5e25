"""Domain events: facts in the past tense, tagged by `type`. `evolve` folds them into state.

Every event type has a schema version (`SCHEMA_VERSION`, default 1); evolve a schema additively
(new fields with defaults) and bump it only with an upcaster in the event store.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from .cards import card_type
from .client_seeds import ClientSeed
from .docs import doc
from .ruleset import RuleSet
from .state import (
    Challenger,
    ContestedKind,
    ContestedType,
    Defender,
    Direction,
    StackMove,
    TargetIndex,
)

# The plays a challenge can ask for (§8.2), shared by ChallengeOpened and ChallengeAnswered.
_REQUIRED = (
    " 1: a single (one matching card, not a Penny Jar) or a Penny Jar, which asks for a double"
    " back. 2: a double (two matching cards, neither a Penny Jar, or one Penny Jar) (§8.2)."
)
_DIRECTION = (
    "top_to_bottom: the top set goes to the bottom; bottom_to_top: the bottom set goes to the top."
)


class _Event(msgspec.Struct, frozen=True, gc=False, tag_field="type"):
    SCHEMA_VERSION: ClassVar[int] = 1


class PileCard(msgspec.Struct, frozen=True, gc=False):
    """A card and the draft pile it lies on (§14)."""

    pile: Annotated[int, doc("The draft pile's number, 0 to 2 (§14.1).")]
    card: Annotated[str, doc("The card's id, e.g. `toy_train#8`.")]


class GameStarted(_Event, frozen=True, tag="game_started", omit_defaults=True):
    """The game's creator started it, every seat being filled; the first round's deal
    (round_started) follows at once."""

    ruleset: Annotated[RuleSet, doc("The rules the game is played with.")]
    seed: Annotated[
        bytes | None,
        doc(
            "The game's secret master seed, from which every round's seed is derived."
            " Null in events pages, streams and command results; `GET /history` has it."
        ),
    ]
    client_seeds: Annotated[
        tuple[ClientSeed, ...] | None,
        doc(
            "Every seat's client seed, by seat, mixed with the master seed into every round's"
            " seed (rules version 4, docs/fair-shuffle.md §7): public from the deal on, secret"
            " before it. Absent in games of older rules versions and at a tournament's tables,"
            " dealt from the master seed alone."
        ),
    ] = None


# Full contents are server-only; views.redact gives each viewer its own hand only.
class RoundStarted(_Event, frozen=True, tag="round_started"):
    """A round was dealt (§5.3): the public facts of the deal and the viewer's own hand; other
    hands, the draw pile and the draft piles' face-down cards stay hidden (§15). Its
    first_player takes the round's first turn: no turn_started comes before it."""

    round_no: Annotated[int, doc("The round's number, from 1.")]
    seed_sha256: Annotated[
        str,
        doc(
            "SHA-256 (hex) of the round's secret seed, published before any card is seen;"
            " round_ended reveals the seed, so anyone can check the deal."
        ),
    ]
    first_player: Annotated[int, doc("The seat that takes the round's first turn (§5.4).")]
    hand_size: Annotated[
        int, doc("Cards dealt to each seat, and the size hands are refilled to (§5.2, §9).")
    ]
    removed: Annotated[
        tuple[str, ...],
        doc(
            "The edition's cards left out of this round's deck: the 2-player reduction and"
            " advanced cards whose options are off (§5.1)."
        ),
    ]
    discard_pile: Annotated[
        tuple[str, ...],
        doc("The discard pile after the deal: the one card turned face up from the deck (§5.3)."),
    ]
    pushed_back: Annotated[
        tuple[PileCard, ...],
        doc(
            "Action cards turned up on the draft piles at setup and put back face down into"
            " the middle of their pile, in order (§14.5)."
        ),
    ]
    draft_tops: Annotated[
        tuple[str | None, ...],
        doc(
            "The face-up top card of each draft pile, by pile number; empty in games without"
            " draft piles (§14.1)."
        ),
    ]
    draft_counts: Annotated[
        tuple[int, ...],
        doc("Number of cards in each draft pile, by pile number; empty without draft piles."),
    ]
    hand_counts: Annotated[
        tuple[int, ...], doc("Number of cards dealt to each seat, by seat number.")
    ]
    draw_count: Annotated[int, doc("Number of cards left in the draw pile after the deal.")]
    hands: Annotated[
        tuple[tuple[str, ...], ...],
        doc(
            "Each seat's dealt hand, by seat number: the viewer's own in full, every other"
            " seat's as an empty list (all of them empty for a spectator; all full in history)."
        ),
    ]
    draft_piles: Annotated[
        tuple[tuple[str, ...], ...] | None,
        doc("The draft piles' full contents. Null in events pages, streams and command"
            " results; `GET /history` has them."),
    ]
    draw_pile: Annotated[
        tuple[str, ...] | None,
        doc("The draw pile's full contents. Null in events pages, streams and command"
            " results; `GET /history` has them."),
    ]


class TurnStarted(_Event, frozen=True, tag="turn_started"):
    """A seat's turn began: it is the active seat and must take an action (§6). Seats with an
    empty hand are skipped (§10); a round's first turn starts with round_started instead."""

    seat: Annotated[int, doc("The seat whose turn it is now, 0-based.")]


class SetFormed(_Event, frozen=True, tag="set_formed", omit_defaults=True):
    """The active seat formed a pair, from its hand or with the discard pile's top card; the
    new set goes on top of its stack (§7.1)."""

    seat: Annotated[int, doc("The seat that formed the set: the active seat.")]
    set_type: Annotated[str, doc("The new set's asset type, e.g. `jewels`.")]
    cards: Annotated[
        tuple[str, ...],
        doc(
            "The two card ids of the pair; with source discard, the second is the card taken"
            " from the top of the discard pile."
        ),
    ]
    source: Annotated[
        Literal["hand", "discard"],
        doc("hand: both cards came from the hand; discard: one came from the discard pile."),
    ]
    # Added in rules version 3, and left out when false (omit_defaults), so the events of
    # every game that keeps its sets public are written as before.
    secret: Annotated[
        bool,
        doc(
            "true when the game keeps set composition hidden (public_set_composition off, rules"
            " version 3 on, §17 A45): only the forming seat sees both cards; for everyone else"
            " `cards` lists only the face-up ones, the asset on top of the set and a card taken"
            " from the discard pile, and the other card stays secret until the round is scored."
        ),
    ] = False

    def face_up(self) -> tuple[str, ...]:
        """The cards every seat sees (§17 A45): the set's top, an asset of its type (from the
        discard pile when that card is one), and the card taken from the discard pile."""
        if self.source == "discard":
            hand, taken = self.cards[0], self.cards[-1]
            return (taken,) if card_type(taken) == self.set_type else (hand, taken)
        return (next(c for c in self.cards if card_type(c) == self.set_type),)


class CardDiscarded(_Event, frozen=True, tag="card_discarded"):
    """The active seat discarded a card face up; it is the discard pile's new top (§7.2)."""

    seat: Annotated[int, doc("The seat that discarded: the active seat.")]
    card: Annotated[str, doc("The discarded card's id.")]


class CardsDrawn(_Event, frozen=True, tag="cards_drawn"):
    """A seat drew cards from the draw pile: refilling at the end of a turn (§9), or right after
    a first-action discard with two_actions (§13.2). Only the drawing seat sees which cards."""

    seat: Annotated[int, doc("The seat that drew.")]
    count: Annotated[
        int,
        doc("Number of cards drawn; fewer than needed if the draw pile ran out (§17 A16)."),
    ]
    cards: Annotated[
        tuple[str, ...] | None,
        doc("The drawn card ids, in the order drawn, for the drawing seat; null for everyone"
            " else, spectators included."),
    ]
    reason: Annotated[
        Literal["replenish", "discard_refill"],
        doc(
            "replenish: the end-of-turn refill (§9); discard_refill: the immediate refill after"
            " a discard as the first of two actions (§13.2)."
        ),
    ] = "replenish"


class ChallengeOpened(_Event, frozen=True, tag="challenge_opened"):
    """A challenge began (§8.3): the challenger played matching cards against another seat's
    set, as its action (§7.3) or out of turn against a drafted set (§14.3). The defender
    answers next."""

    kind: ContestedKind
    challenger: Challenger
    defender: Defender
    target_index: TargetIndex
    set_type: ContestedType
    cards: Annotated[
        tuple[str, ...], doc("The opening play from the challenger's hand: its card ids (§8.3).")
    ]
    required: Annotated[int, doc("The play the defender must now make." + _REQUIRED)]


class ChallengeAnswered(_Event, frozen=True, tag="challenge_answered"):
    """The awaited seat answered a running challenge with the required play (§8.4); the other
    side must answer in turn or concede."""

    seat: Annotated[int, doc("The seat that answered: the challenger or the defender.")]
    cards: Annotated[
        tuple[str, ...], doc("The play from the seat's hand: one card, or two for a double.")
    ]
    required: Annotated[int, doc("The play the other side must now make." + _REQUIRED)]


class ChallengeConceded(_Event, frozen=True, tag="challenge_conceded"):
    """The awaited seat gave up the challenge; the other side wins the contested set and every
    card played (§8.5)."""

    seat: Annotated[int, doc("The seat that gave up: the challenger or the defender.")]
    auto: Annotated[
        bool,
        doc(
            "true when the server conceded for the seat because it had no legal play, e.g. an"
            " empty hand (§7.9, §17 A43)."
        ),
    ] = False


class SetDrafted(_Event, frozen=True, tag="set_drafted"):
    """The active seat drafted a set: one card from its hand with one or more face-up draft pile
    tops (§14.2). The set is held aside until the eligible opponent passes or a challenge on it
    ends (§14.3)."""

    seat: Annotated[int, doc("The seat that drafted: the active seat.")]
    set_type: Annotated[str, doc("The drafted set's asset type.")]
    hand_card: Annotated[str, doc("The card the drafter played from its hand.")]
    pile_cards: Annotated[
        tuple[PileCard, ...], doc("The draft pile tops taken, in pile number order.")
    ]
    eligible: Annotated[
        int | None,
        doc(
            "The only seat that may challenge the drafted set out of turn (§14.3). null: nobody"
            " may, as the drafter's first set is protected by draft_set_first_set_protected"
            " (§17 A28), and the drafter keeps it at once."
        ),
    ]


class DraftChallengePassed(_Event, frozen=True, tag="draft_challenge_passed"):
    """The eligible opponent let the drafter keep the drafted set, which goes on top of the
    drafter's stack (§14.3)."""

    seat: Annotated[int, doc("The eligible seat that passed.")]
    auto: Annotated[
        bool,
        doc(
            "true when the server passed for the seat because it could not challenge: no"
            " matching card, no set of its own where one is required, or blocked after a lost"
            " challenge (§13.2, §14.3)."
        ),
    ] = False


class PileCardRevealed(_Event, frozen=True, tag="pile_card_revealed"):
    """A draft pile's next card was turned face up: after a draft from that pile was resolved
    (§17 A50), or after its revealed action card was dealt with. An action card revealed this
    way takes effect next (§14.6)."""

    pile: Annotated[int, doc("The draft pile's number, 0 to 2.")]
    card: Annotated[str, doc("The revealed card's id.")]


class RevealedSwapApplied(_Event, frozen=True, tag="revealed_swap_applied"):
    """A Swap revealed on a draft pile took effect: the two affected seats exchanged their top
    sets (§14.6). The Swap goes out of play and the pile's next card, if any, is turned up."""

    pile: Annotated[int, doc("The draft pile the Swap was revealed on.")]
    card: Annotated[str, doc("The Swap card's id.")]
    seats: Annotated[
        tuple[int, int], doc("The two affected seats, the active seat first (§14.6).")
    ]


class RevealedActionReturned(_Event, frozen=True, tag="revealed_action_returned"):
    """A revealed Swap that could not apply, because an affected seat has no set, went back face
    down into its pile, and the pile's next card is turned up (§14.6, §17 A31, A32)."""

    pile: Annotated[int, doc("The draft pile the Swap was revealed on.")]
    card: Annotated[str, doc("The Swap card's id.")]
    position: Annotated[
        int | None,
        doc(
            "Where the card went, as an index in the pile, 0 being the top. Null in events"
            " pages, streams and command results; `GET /history` has it."
        ),
    ]


class RevealedActionDiscarded(_Event, frozen=True, tag="revealed_action_discarded"):
    """A revealed action card with nothing to act on went out of play (§17 A31): a Move when
    neither affected stack has two sets, or a Swap that can neither apply nor go back into its
    pile. The pile's next card, if any, is turned up."""

    pile: Annotated[int, doc("The draft pile the card was revealed on.")]
    card: Annotated[str, doc("The action card's id.")]


class RevealedMoveAwaitingChoices(_Event, frozen=True, tag="revealed_move_awaiting_choices"):
    """A Move was revealed on a draft pile: each chooser in turn picks the direction for the
    other affected seat's stack (§14.6)."""

    pile: Annotated[int, doc("The draft pile the Move was revealed on.")]
    card: Annotated[str, doc("The Move card's id.")]
    choosers: Annotated[
        tuple[int, ...],
        doc(
            "The seats that must choose, in order, the active seat first. A seat does not"
            " choose when the other affected seat's stack has fewer than two sets."
        ),
    ]


class MoveDirectionChosen(_Event, frozen=True, tag="move_direction_chosen"):
    """A seat chose the direction for the other affected seat's stack under a revealed Move
    (§14.6); the choices apply together once the last chooser has chosen."""

    seat: Annotated[int, doc("The seat that chose.")]
    target_seat: Annotated[int, doc("The other affected seat, whose stack will move.")]
    direction: Annotated[Direction, doc(_DIRECTION)]


class RevealedMoveApplied(_Event, frozen=True, tag="revealed_move_applied"):
    """The choices for a revealed Move were applied (§14.6). The Move goes out of play and the
    pile's next card, if any, is turned up."""

    pile: Annotated[int, doc("The draft pile the Move was revealed on.")]
    card: Annotated[str, doc("The Move card's id.")]
    SCHEMA_VERSION: ClassVar[int] = 2  # 1: `moves` as [seat, direction] pairs

    moves: Annotated[tuple[StackMove, ...], doc("The moves applied, in order.")]


class SetImproved(_Event, frozen=True, tag="set_improved"):
    """The active seat added an asset from its hand to its top set (§7.5)."""

    seat: Annotated[int, doc("The seat that improved its set: the active seat.")]
    card: Annotated[str, doc("The asset card added, of the top set's type.")]


class SwapPlayed(_Event, frozen=True, tag="swap_played"):
    """The active seat played a Swap from its hand: its top set and the target seat's top set
    changed places (§7.6). The Swap goes out of play; it cannot be answered."""

    seat: Annotated[int, doc("The seat that played the Swap: the active seat.")]
    card: Annotated[str, doc("The Swap card's id.")]
    target_seat: Annotated[int, doc("The seat whose top set was exchanged.")]


class MovePlayed(_Event, frozen=True, tag="move_played"):
    """The active seat played a Move from its hand on a stack of two or more sets, its own or
    another seat's (§7.7). The Move goes out of play; it cannot be answered."""

    seat: Annotated[int, doc("The seat that played the Move: the active seat.")]
    card: Annotated[str, doc("The Move card's id.")]
    target_seat: Annotated[int, doc("The seat whose stack was moved; may be the player's own.")]
    direction: Annotated[Direction, doc(_DIRECTION)]


class TurnEnded(_Event, frozen=True, tag="turn_ended"):
    """With two_actions, the active seat ended its turn after one action instead of taking a
    second (§7.8, §13.2). A turn that takes all its actions ends without this event."""

    seat: Annotated[int, doc("The seat whose turn ended.")]
    auto: Annotated[
        bool,
        doc("true when the server ended the turn because the seat had no card left to act with."),
    ] = False


class RoundEnded(_Event, frozen=True, tag="round_ended"):
    """The round is over: the draw pile and every hand are empty (§10). Each seat scores its
    stack (§11); the next round is dealt or game_ended follows."""

    round_no: Annotated[int, doc("The round's number, from 1.")]
    scores: Annotated[
        tuple[int, ...],
        doc("Each seat's round score in dollars, by seat number: the value of its stack (§11)."),
    ]
    totals: Annotated[
        tuple[int, ...],
        doc("Each seat's cumulative score in dollars after this round, by seat number (§12)."),
    ]
    round_winner: Annotated[
        int | None,
        doc(
            "The seat with the unique highest round score; null when it is shared. Only"
            " first_to_2_round_wins decides the game by round wins (§12, §17 A23)."
        ),
    ]
    seed: Annotated[
        bytes,
        doc(
            "The round's seed, now revealed (base64): its SHA-256 is the seed_sha256 of the"
            " round's round_started event."
        ),
    ]


class GameEnded(_Event, frozen=True, tag="game_ended"):
    """The game is over (§12); it follows the last round's round_ended."""

    winners: Annotated[
        tuple[int, ...],
        doc("The winning seats: one, or several on a shared win (tie_policy shared_win, §12.5)."),
    ]
    totals: Annotated[
        tuple[int, ...], doc("Each seat's final cumulative score in dollars, by seat number.")
    ]


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
