"""Draft piles in 2- and 3-player games (RULES §14): drafting, flips, revealed action cards."""

from __future__ import annotations

from .actions import require_turn
from .cards import SWAP
from .commands import ChooseMoveDirection, DraftSet
from .decision import Decision
from .errors import RuleCode, RuleViolation
from .events import (
    MoveDirectionChosen,
    PileCard,
    PileCardRevealed,
    RevealedActionDiscarded,
    RevealedActionReturned,
    RevealedMoveApplied,
    RevealedMoveAwaitingChoices,
    RevealedSwapApplied,
    SetDrafted,
)
from .sets import group_type
from .shuffle import SeedStream
from .state import AwaitingMoveDirections, GameState


def adjacent_piles(state: GameState, seat: int) -> tuple[int, ...]:
    """Piles a seat may draft from: all three with 2 players; with 3, the piles to its right
    and left, where pile i lies between seat i and seat i+1 (§14.1)."""
    if state.players == 2:
        return (0, 1, 2)
    return ((seat - 1) % 3, seat)


def affected_seats(state: GameState, pile: int) -> tuple[int, int]:
    """The two seats a revealed action card acts on, the active seat first (§14.6)."""
    a, b = (0, 1) if state.players == 2 else (pile, (pile + 1) % 3)
    return (a, b) if a == state.active else (b, a)


def face_up_tops(state: GameState, seat: int) -> dict[str, int]:
    """Face-up draft pile tops the seat may take: card id -> pile."""
    return {
        state.draft_piles[p][0]: p
        for p in adjacent_piles(state, seat)
        if state.draft_piles[p] and state.draft_face_up[p]
    }


def face_up_top_cards(state: GameState, seat: int) -> tuple[str, ...]:
    """`face_up_tops`' cards in its order, without the dictionary (the legal drafts' key)."""
    piles, up = state.draft_piles, state.draft_face_up
    return tuple([piles[p][0] for p in adjacent_piles(state, seat) if piles[p] and up[p]])


def draft_set(d: Decision, cmd: DraftSet, actor: int) -> None:
    require_turn(d, actor)
    s = d.state
    if not s.ruleset.uses_draft_piles:
        raise RuleViolation(RuleCode.OPTION_DISABLED,
                            "Draft piles are used with 2–3 players (§14).")
    d.require_cards_in_hand(actor, (cmd.hand_card,))
    if not cmd.pile_cards or len(set(cmd.pile_cards)) != len(cmd.pile_cards):
        raise RuleViolation(RuleCode.INVALID_SET, "Name one or more distinct draft pile tops.")
    tops = face_up_tops(s, actor)
    for card in cmd.pile_cards:
        if card not in tops:
            raise RuleViolation(
                RuleCode.CARD_NOT_AVAILABLE,
                f"Card {card!r} is not a face-up top you may draft (§14.2)."
            )
    if s.players == 3 and len(cmd.pile_cards) != 1:
        raise RuleViolation(RuleCode.ONE_PILE_ONLY,
                            "With 3 players you draft from one pile (§14.2).")
    set_type = group_type(d.table, (cmd.hand_card, *cmd.pile_cards))
    if set_type is None:
        raise RuleViolation(
            RuleCode.INVALID_SET,
            "A drafted set needs an asset, one asset type and any wilds (§17 A27)."
        )
    # By pile: each card lies on its own pile.
    taken = tuple([PileCard(tops[c], c) for c in sorted(cmd.pile_cards, key=tops.__getitem__)])
    d.emit(SetDrafted(actor, set_type, cmd.hand_card, taken, _eligible(s, actor, taken[0].pile)))


def _eligible(s: GameState, drafter: int, pile: int) -> int | None:
    # §17 A28: a drafted set that would be the drafter's first set is safe only as an option.
    if s.ruleset.draft_set_first_set_protected and not s.stacks[drafter]:
        return None
    a, b = affected_seats(s, pile)
    return b if a == drafter else a


def flip_step(d: Decision) -> None:
    """Reveal the next card of the first pile in the flip queue, or resolve a revealed action."""
    s = d.state
    pile = s.flip_queue[0]
    card = s.draft_piles[pile][0]
    if not s.draft_face_up[pile]:
        d.emit(PileCardRevealed(pile, card))
    elif d.table[card].type == SWAP:
        _revealed_swap(d, pile, card)
    else:
        _revealed_move(d, pile, card)


def _revealed_swap(d: Decision, pile: int, card: str) -> None:
    s = d.state
    a, b = affected_seats(s, pile)
    if s.stacks[a] and s.stacks[b]:
        d.emit(RevealedSwapApplied(pile, card, (a, b)))
        return
    rest = s.draft_piles[pile][1:]
    if _returnable(s, rest, d.table[rest[0]].type == SWAP if rest else False):
        position = pushback_position(s.round_seed, s.pushbacks, len(rest))
        d.emit(RevealedActionReturned(pile, card, position))
    else:
        d.emit(RevealedActionDiscarded(pile, card))


def _returnable(s: GameState, rest: tuple[str, ...], swap_next: bool) -> bool:
    """Whether a revealed Swap that cannot apply goes back into its pile ([EN22] "return the
    action card to the middle of the stack, face-down, and flip another card", §14.6, §17 A31)
    rather than out of play. Nothing flipped in the meantime changes who has a set, so a Swap
    flipped next cannot apply either and goes back in turn."""
    if not rest:
        return False  # no other card to flip
    if not s.ruleset.since(2):
        # Version 1 put it back only when the next card was not a Swap (§18).
        return not swap_next
    # With the other Swap next and one or two cards under this one, the only place to put it
    # back (§17 A32: never the top, the bottom of one card) is right under that Swap, which
    # then goes back right under this one: the two would change places forever. With three or
    # more the place is drawn among two or more, and a card that is not a Swap comes up.
    return not (swap_next and len(rest) <= 2)


def pushback_position(seed: bytes, k: int, face_down: int) -> int:
    """Where the round's k-th pushed-back action card goes among `face_down` cards (§14.5,
    §17 A32): a uniform interior position — never the top, never the bottom — or the bottom
    if only one card remains."""
    if face_down < 2:
        return face_down
    stream = SeedStream(seed, f"pushback:{k}")
    return 1 + stream.uniform(face_down - 1)


def _revealed_move(d: Decision, pile: int, card: str) -> None:
    s = d.state
    a, b = affected_seats(s, pile)
    # Each affected seat chooses for the other's stack; a stack under two sets is unaffected.
    choosers = tuple(x for x, other in ((a, b), (b, a)) if len(s.stacks[other]) >= 2)
    if choosers:
        d.emit(RevealedMoveAwaitingChoices(pile, card, choosers))
    else:
        d.emit(RevealedActionDiscarded(pile, card))


def choose_move_direction(d: Decision, cmd: ChooseMoveDirection, actor: int) -> None:
    p = d.state.pending
    if not isinstance(p, AwaitingMoveDirections):
        raise RuleViolation(RuleCode.NOT_EXPECTED, "No revealed Move is waiting for a direction.")
    if actor != p.awaiting[0]:
        raise RuleViolation(RuleCode.NOT_YOUR_DECISION, f"The Move waits for seat {p.awaiting[0]}.")
    a, b = affected_seats(d.state, p.pile)
    d.emit(MoveDirectionChosen(actor, b if actor == a else a, cmd.direction))
    p = d.state.pending
    assert isinstance(p, AwaitingMoveDirections)
    if not p.awaiting:
        d.emit(RevealedMoveApplied(p.pile, p.card, p.choices))
