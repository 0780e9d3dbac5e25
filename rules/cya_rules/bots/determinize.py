"""Determinizations: whole game states a seat cannot tell from the one it is in.

A search bot knows only its view (RULES §15). Each search iteration deals the cards it has not
seen (card_counting's unseen cards) into every hidden place, keeping what the view shows: each
hand's and pile's size, every face-up card, each set's type, size and top card, and its whole
composition where the view shows it. So `player_view(sample_state(view, rng), seat) == view`.
"""

from __future__ import annotations

import random

from cya_rules.cards import Kind, all_cards, card_table
from cya_rules.state import AwaitingChallengeReply, CardSet, GameState
from cya_rules.views import GameView

_TRIES = 20  # redraws of the hidden sets' contents before the careful fill (see _fill_sets)


def seen_cards(view: GameView) -> set[str]:
    """Every card id the view shows its seat: hand, piles, set tops or contents, draft, pot."""
    seen = set(view.hand or ())
    seen.update(view.discard_pile, view.out_of_play, view.removed)
    seen.update(pile.top for pile in view.draft_piles if pile.top)
    for seat in view.seats:
        for card_set in seat.stack:
            seen.update(card_set.cards or (card_set.top,))
    if view.draft:
        seen.update(view.draft.set.cards)
    if isinstance(view.pending, AwaitingChallengeReply):
        seen.update(c for play in view.pending.pot for c in play.cards)
    return seen


def unseen_ids(view: GameView) -> list[str]:
    """The card ids the seat has not seen, in the edition's canonical order."""
    seen = seen_cards(view)
    return [c for c in all_cards(view.ruleset.edition) if c not in seen]


def sample_state(view: GameView, rng: random.Random) -> GameState:
    """One state consistent with `view`, the hidden cards dealt at random (uniformly among the
    deals that fit the sets' types)."""
    return Deals(view).sample(rng)


class Deals:
    """`sample_state` for one view, many times: what the view shows is read once, so a search
    pays only for the shuffle and the state of each deal."""

    __slots__ = ("hidden_sets", "me", "unseen", "view")

    def __init__(self, view: GameView) -> None:
        assert view.viewer is not None and view.hand is not None
        self.view, self.me = view, view.viewer
        self.unseen = unseen_ids(view)
        self.hidden_sets = _hidden_sets(view)

    def sample(self, rng: random.Random) -> GameState:
        view, me = self.view, self.me
        pool = list(self.unseen)
        rng.shuffle(pool)
        stacks = _fill_sets(view, self.hidden_sets, pool, rng)
        hands = []
        at = 0
        for seat in view.seats:
            if seat.seat == me:
                hands.append(view.hand)
            else:
                hands.append(tuple(pool[at:at + seat.hand_count]))
                at += seat.hand_count
        piles, face_up = [], []
        for pile in view.draft_piles:
            hidden = pile.count - (1 if pile.top else 0)
            cards = tuple(pool[at:at + hidden])
            at += hidden
            piles.append((pile.top, *cards) if pile.top else cards)
            face_up.append(pile.top is not None)
        draw = tuple(pool[at:at + view.draw_count])
        assert len(draw) == view.draw_count, "the view hides more cards than the edition has"
        return GameState(
            ruleset=view.ruleset,
            master_seed=rng.randbytes(32),  # later rounds' shuffles: unknown, so any
            status=view.status,
            round_no=view.round_no,
            round_seed=rng.randbytes(32),
            first_player=view.active,
            active=view.active,
            actions_taken=view.actions_taken,
            pending=view.pending,
            hands=tuple(hands),  # type: ignore[arg-type]
            stacks=stacks,
            draw_pile=draw,
            discard_pile=view.discard_pile,
            draft_piles=tuple(piles),
            draft_face_up=tuple(face_up),
            out_of_play=view.out_of_play,
            removed=view.removed,
            draft=view.draft,
            totals=tuple(s.total for s in view.seats),
            round_wins=tuple(s.round_wins for s in view.seats),
            round_scores=view.round_scores,
            winners=view.winners,
        )


# A set whose hidden cards a deal fills: (seat, index in its stack, the set's type, how many),
# and which cards of the edition may fill it (its type's assets and the wilds, §4).
_HiddenSet = tuple[int, int, str, int, frozenset[str]]


def _hidden_sets(view: GameView) -> list[_HiddenSet]:
    if view.round_no == 0:
        return []
    table = card_table(view.ruleset.edition)
    out = []
    for s in view.seats:
        for i, cs in enumerate(s.stack):
            if cs.cards is None and cs.count > 1:
                fits = frozenset(c for c, info in table.items()
                                 if info.type == cs.type or info.kind is Kind.WILD)
                out.append((s.seat, i, cs.type, cs.count - 1, fits))
    return out


def _fill_sets(view: GameView, hidden: list[_HiddenSet], pool: list[str], rng: random.Random
               ) -> tuple[tuple[CardSet, ...], ...]:
    """Every set, its hidden cards drawn from `pool` (which loses them): each hidden card is an
    asset of the set's type or a wild (§4). A random fill can strand a later set (wilds taken
    by an earlier one); after a few redraws, sets take their own type's assets first."""
    if view.round_no == 0:
        return ()
    table = card_table(view.ruleset.edition)
    fills: dict[tuple[int, int], tuple[str, ...]] = {}
    for attempt in range(_TRIES + 1):
        left, fills = list(pool), {}
        careful = attempt == _TRIES
        ok = True
        for seat, index, _, need, fitting in hidden:
            fits = [c for c in left if c in fitting]
            if careful:  # own assets before wilds, which other sets may need
                fits.sort(key=lambda c: table[c].kind is Kind.WILD)
            if len(fits) < need:
                ok = False
                break
            chosen = fits[:need]
            fills[seat, index] = tuple(chosen)
            taken = set(chosen)
            left = [c for c in left if c not in taken]
        if ok:
            if fills:  # taking the first fitting cards leaves the rest in a biased order
                pool[:] = left
                rng.shuffle(pool)
            break
    stacks = []
    for s in view.seats:
        sets = []
        for i, cs in enumerate(s.stack):
            if cs.cards is not None:
                sets.append(CardSet(cs.type, cs.cards))
            else:
                extra = fills.get((s.seat, i), ())
                sets.append(CardSet(cs.type, (cs.top, *extra)))  # the top shows first
        stacks.append(tuple(sets))
    return tuple(stacks)

