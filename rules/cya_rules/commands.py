"""Commands: what a seat (or the server) asks the game to do. Imperative names, tagged by `type`."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .client_seeds import ClientSeed
from .docs import doc
from .state import Direction


class _Command(msgspec.Struct, frozen=True, gc=False, tag_field="type", forbid_unknown_fields=True):
    pass


class StartGame(_Command, frozen=True, tag="start_game", omit_defaults=True):
    """Issued by the server, never by a seat: the master seed is secret (RULES §15).
    `client_seeds`: every seat's, from rules version 4 (docs/fair-shuffle.md §7); None: the
    deal comes from the master seed alone (older versions, a tournament's committed deal)."""

    seed: bytes
    client_seeds: tuple[ClientSeed, ...] | None = None


class FormSet(_Command, frozen=True, tag="form_set"):
    """Turn action: form a pair, two assets of one type or one asset and one wild, as a new set
    on top of your stack (§7.1). GET /legal-commands lists every command you may send now."""

    source: Annotated[
        Literal["hand", "discard"],
        doc("hand: both cards from your hand. discard: one from your hand and the discard top."),
    ]
    hand_cards: Annotated[
        tuple[str, ...],
        doc(
            "Card ids from your hand: two with source hand, one with source discard (the"
            " discard pile's top card is taken without being named)."
        ),
    ]


class Discard(_Command, frozen=True, tag="discard"):
    """Turn action: put a card from your hand face up on the discard pile (§7.2). With
    two_actions, a discard as your first action refills your hand at once (§13.2)."""

    card: Annotated[
        str, doc("Id of any card in your hand, wilds and action cards included (§17 A19, A20).")
    ]


class Challenge(_Command, frozen=True, tag="challenge"):
    """Turn action: open a challenge on another seat's top (or second) set with an opening play
    (§7.3, §8.3). You need a set of your own."""

    target_seat: Annotated[
        int,
        doc(
            "Seat number of another seat. Its bottom set is safe, so it needs at least two sets"
            " for top, three for second (§7.3)."
        ),
    ]
    position: Annotated[
        Literal["top", "second"],
        doc("top: its top set. second: the set second from the top, with second_set_challenge."),
    ]
    cards: Annotated[
        tuple[str, ...],
        doc(
            "Your opening play, card ids from your hand. top: one matching card (an asset of"
            " the set's type or a wild); a Penny Jar asks for a double back. second: two"
            " matching cards that are not Penny Jars, or one Penny Jar (§8.3)."
        ),
    ]


class DraftSet(_Command, frozen=True, tag="draft_set"):
    """Turn action in 2- and 3-player games of en_2022 and de_2024: combine one hand card with
    face-up draft pile tops into a set (§14.2)."""

    hand_card: Annotated[str, doc("Id of one card from your hand: an asset or a wild.")]
    pile_cards: Annotated[
        tuple[str, ...],
        doc(
            "Ids of the face-up draft pile tops you take, at least one; with 3 players exactly"
            " one, from a pile next to you. With the hand card: at least one asset, assets of"
            " one type only, and any number of wilds (§14.2, §17 A27)."
        ),
    ]


class ImproveSet(_Command, frozen=True, tag="improve_set"):
    """Turn action with improve_set: add an asset from your hand to your top set (§7.5)."""

    card: Annotated[
        str, doc("Id of an asset in your hand of your top set's type; never a wild.")
    ]


class PlaySwap(_Command, frozen=True, tag="play_swap"):
    """Turn action with action_cards: exchange your top set with another seat's top set; it
    cannot be answered (§7.6)."""

    card: Annotated[str, doc("Id of a Swap card in your hand.")]
    target_seat: Annotated[
        int,
        doc(
            "Seat number of another seat with at least one set; you need one too. Its bottom"
            " set is not protected (§17 A34)."
        ),
    ]


class PlayMove(_Command, frozen=True, tag="play_move"):
    """Turn action with action_cards: move a stack's top set to its bottom, or its bottom set to
    its top; it cannot be answered (§7.7)."""

    card: Annotated[str, doc("Id of a Move card in your hand.")]
    target_seat: Annotated[
        int, doc("Seat number of any seat with at least two sets, your own included (§17 A35).")
    ]
    direction: Annotated[
        Direction,
        doc("top_to_bottom: the top set goes to the bottom. bottom_to_top: the reverse."),
    ]


class EndTurn(_Command, frozen=True, tag="end_turn"):
    """With two_actions: end your turn after your first action instead of taking a second one
    (§7.8, §13.2)."""


class Respond(_Command, frozen=True, tag="respond"):
    """Answer a challenge that awaits you with exactly the required play (§8.4)."""

    cards: Annotated[
        tuple[str, ...],
        doc(
            "Card ids from your hand. required 1: one matching card (an asset of the set's type"
            " or a wild); a Penny Jar asks for a double back. required 2: two matching cards"
            " that are not Penny Jars, or one Penny Jar (§8.2)."
        ),
    ]


class Concede(_Command, frozen=True, tag="concede"):
    """Give up a challenge that awaits you: the other side wins the set and every card played
    in it (§8.5). Without a legal play you concede automatically (§7.9)."""


class ChallengeDraft(_Command, frozen=True, tag="challenge_draft"):
    """The eligible opponent challenges a drafted set out of turn (§14.3)."""

    cards: Annotated[
        tuple[str, ...],
        doc(
            "Your opening play, card ids from your hand: one card matching the drafted set"
            " (an asset of its type or a wild) or one Penny Jar (§8.3)."
        ),
    ]


class PassDraft(_Command, frozen=True, tag="pass_draft"):
    """The eligible opponent lets the drafter keep a drafted set unchallenged (§14.3). A seat
    that cannot challenge passes automatically (§7.9)."""


class ChooseMoveDirection(_Command, frozen=True, tag="choose_move_direction"):
    """After a Move is revealed on a draft pile: choose the direction for the other affected
    seat's stack, when the pending move_directions decision awaits you (§14.6)."""

    direction: Annotated[
        Direction,
        doc(
            "top_to_bottom: that stack's top set goes to its bottom. bottom_to_top: its bottom"
            " set goes to its top."
        ),
    ]


Command = (
    StartGame
    | FormSet
    | Discard
    | Challenge
    | DraftSet
    | ImproveSet
    | PlaySwap
    | PlayMove
    | EndTurn
    | Respond
    | Concede
    | ChallengeDraft
    | PassDraft
    | ChooseMoveDirection
)

# Commands a seat may send (StartGame is the server's).
SeatCommand = (
    FormSet
    | Discard
    | Challenge
    | DraftSet
    | ImproveSet
    | PlaySwap
    | PlayMove
    | EndTurn
    | Respond
    | Concede
    | ChallengeDraft
    | PassDraft
    | ChooseMoveDirection
)
