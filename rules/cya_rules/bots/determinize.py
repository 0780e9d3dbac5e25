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
    assert view.viewer is not None and view.hand is not None
    me = view.viewer
    pool = unseen_ids(view)
    rng.shuffle(pool)
    stacks = _fill_sets(view, pool, rng)
    hands = []
    for seat in view.seats:
        if seat.seat == me:
            hands.append(view.hand)
        else:
            hands.append(tuple(pool[: seat.hand_count]))
            del pool[: seat.hand_count]
    piles, face_up = [], []
    for pile in view.draft_piles:
        hidden = pile.count - (1 if pile.top else 0)
        cards = tuple(pool[:hidden])
        del pool[:hidden]
        piles.append((pile.top, *cards) if pile.top else cards)
        face_up.append(pile.top is not None)
    draw = tuple(pool[: view.draw_count])
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
        hands=tuple(hands),
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


def _fill_sets(view: GameView, pool: list[str], rng: random.Random
               ) -> tuple[tuple[CardSet, ...], ...]:
    """Every set, its hidden cards drawn from `pool` (which loses them): each hidden card is an
    asset of the set's type or a wild (§4). A random fill can strand a later set (wilds taken
    by an earlier one); after a few redraws, sets take their own type's assets first."""
    if view.round_no == 0:
        return ()
    table = card_table(view.ruleset.edition)
    hidden = [(s.seat, i, cs.type, cs.count - 1) for s in view.seats
              for i, cs in enumerate(s.stack) if cs.cards is None and cs.count > 1]
    fills: dict[tuple[int, int], tuple[str, ...]] = {}
    for attempt in range(_TRIES + 1):
        left, fills = list(pool), {}
        careful = attempt == _TRIES
        ok = True
        for seat, index, set_type, need in hidden:
            fits = [c for c in left if table[c].type == set_type or table[c].kind is Kind.WILD]
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

