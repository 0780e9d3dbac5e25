"""`evolve(state, event)`: apply one event. It never fails for an event that `decide` produced."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from .cards import Kind, card_table
from .events import (
    CardDiscarded,
    CardsDrawn,
    ChallengeAnswered,
    ChallengeConceded,
    ChallengeOpened,
    DraftChallengePassed,
    Event,
    GameEnded,
    GameStarted,
    MoveDirectionChosen,
    MovePlayed,
    PileCardRevealed,
    RevealedActionDiscarded,
    RevealedActionReturned,
    RevealedMoveApplied,
    RevealedMoveAwaitingChoices,
    RevealedSwapApplied,
    RoundEnded,
    RoundStarted,
    SetDrafted,
    SetFormed,
    SetImproved,
    SwapPlayed,
    TurnEnded,
    TurnStarted,
)
from .shuffle import round_seed
from .state import (
    AwaitingAction,
    AwaitingChallengeReply,
    AwaitingDraftChallenge,
    AwaitingMoveDirections,
    CardSet,
    DraftInProgress,
    Flipping,
    GameOver,
    GameState,
    NotStarted,
    Pending,
    Play,
    TurnOver,
)
from .state import Direction as Dir

Stack = tuple[CardSet, ...]


def evolve(state: GameState, event: Event) -> GameState:
    return _HANDLERS[type(event)](state, event)


def fold(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = _HANDLERS[type(event)](state, event)
    return state


# Small pure helpers on tuples.


def without(cards: tuple[str, ...], remove: Iterable[str]) -> tuple[str, ...]:
    out = list(cards)
    for c in remove:
        out.remove(c)
    return tuple(out)


def _put(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


def assets_first(state: GameState, cards: Iterable[str]) -> tuple[str, ...]:
    """Card order inside a set is cosmetic (§17 A22); assets first, wilds below, for display."""
    table = card_table(state.ruleset.edition)
    return tuple(sorted(cards, key=lambda c: table[c].kind is not Kind.ASSET))


def move_stack(stack: Stack, direction: Dir) -> Stack:
    if direction == "top_to_bottom":
        return (stack[-1], *stack[:-1])
    return (*stack[1:], stack[0])


def swap_tops(stacks: tuple[Stack, ...], a: int, b: int) -> tuple[Stack, ...]:
    top_a, top_b = stacks[a][-1], stacks[b][-1]
    stacks = _put(stacks, a, (*stacks[a][:-1], top_b))
    return _put(stacks, b, (*stacks[b][:-1], top_a))


def max_actions(state: GameState) -> int:
    return 2 if state.ruleset.advanced.two_actions else 1


def resume_turn(state: GameState) -> Pending:
    """What the turn waits for once an action (and all it set off) is complete."""
    if state.actions_taken < max_actions(state):
        return AwaitingAction(state.active, state.actions_taken)
    return TurnOver(state.active)


def _after_flip(state: GameState) -> GameState:
    return replace(state, pending=Flipping() if state.flip_queue else resume_turn(state))


def _take_hand(state: GameState, seat: int, cards: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    return _put(state.hands, seat, without(state.hands[seat], cards))


def _push(stacks: tuple[Stack, ...], seat: int, card_set: CardSet) -> tuple[Stack, ...]:
    return _put(stacks, seat, (*stacks[seat], card_set))


# Handlers, one per event type.


def _game_started(s: GameState, e: GameStarted) -> GameState:
    return replace(s, ruleset=e.ruleset, master_seed=e.seed or b"", pending=NotStarted())


def _round_started(s: GameState, e: RoundStarted) -> GameState:
    if e.draw_pile is None or e.draft_piles is None:
        raise ValueError("evolve needs the unredacted RoundStarted event")
    n = s.players
    return replace(
        s,
        round_no=e.round_no,
        round_seed=round_seed(s.master_seed, e.round_no),
        first_player=e.first_player,
        active=e.first_player,
        actions_taken=0,
        pending=AwaitingAction(e.first_player, 0),
        hands=e.hands,
        stacks=((),) * n,
        draw_pile=e.draw_pile,
        discard_pile=e.discard_pile,
        draft_piles=e.draft_piles,
        draft_face_up=tuple(bool(p) for p in e.draft_piles),
        out_of_play=(),
        removed=e.removed,
        draft=None,
        flip_queue=(),
        blocked=frozenset(),
        pushbacks=len(e.pushed_back),
    )


def _turn_started(s: GameState, e: TurnStarted) -> GameState:
    # §13.2: a "challenge and lose" block lasts until the loser's next turn starts (§17 A30).
    blocked = frozenset(b for b in s.blocked if b[0] != e.seat) if s.blocked else s.blocked
    return replace(
        s, active=e.seat, actions_taken=0, pending=AwaitingAction(e.seat, 0), blocked=blocked
    )


def _set_formed(s: GameState, e: SetFormed) -> GameState:
    from_hand = e.cards if e.source == "hand" else e.cards[:-1]
    s = replace(
        s,
        hands=_take_hand(s, e.seat, from_hand),
        stacks=_push(s.stacks, e.seat, CardSet(e.set_type, assets_first(s, e.cards))),
        discard_pile=s.discard_pile if e.source == "hand" else s.discard_pile[:-1],
        actions_taken=s.actions_taken + 1,
    )
    return replace(s, pending=resume_turn(s))


def _card_discarded(s: GameState, e: CardDiscarded) -> GameState:
    s = replace(
        s,
        hands=_take_hand(s, e.seat, (e.card,)),
        discard_pile=(*s.discard_pile, e.card),
        actions_taken=s.actions_taken + 1,
    )
    return replace(s, pending=resume_turn(s))


def _cards_drawn(s: GameState, e: CardsDrawn) -> GameState:
    drawn = s.draw_pile[: e.count]
    return replace(
        s,
        hands=_put(s.hands, e.seat, s.hands[e.seat] + drawn),
        draw_pile=s.draw_pile[e.count :],
    )


def _challenge_opened(s: GameState, e: ChallengeOpened) -> GameState:
    return replace(
        s,
        hands=_take_hand(s, e.challenger, e.cards),
        actions_taken=s.actions_taken + (e.kind != "draft"),
        pending=AwaitingChallengeReply(
            kind=e.kind,
            challenger=e.challenger,
            defender=e.defender,
            target_index=e.target_index,
            set_type=e.set_type,
            pot=(Play(e.challenger, e.cards),),
            awaiting=e.defender,
            required=e.required,
        ),
    )


def _challenge_answered(s: GameState, e: ChallengeAnswered) -> GameState:
    p = s.pending
    assert isinstance(p, AwaitingChallengeReply)
    other = p.challenger if e.seat == p.defender else p.defender
    return replace(
        s,
        hands=_take_hand(s, e.seat, e.cards),
        pending=replace(
            p, pot=(*p.pot, Play(e.seat, e.cards)), awaiting=other, required=e.required
        ),
    )


def _challenge_conceded(s: GameState, e: ChallengeConceded) -> GameState:
    """§8.5: the last player to reveal a card wins the set and every card played."""
    p = s.pending
    assert isinstance(p, AwaitingChallengeReply)
    winner = p.challenger if e.seat == p.defender else p.defender
    pot = [c for play in p.pot for c in play.cards]
    stacks = s.stacks
    if p.kind == "draft":
        assert s.draft is not None
        won = CardSet(p.set_type, assets_first(s, (*s.draft.set.cards, *pot)))
        stacks = _push(stacks, winner, won)
    else:
        contested = stacks[p.defender][p.target_index]
        won = CardSet(p.set_type, assets_first(s, (*contested.cards, *pot)))
        if winner == p.defender:  # a defended set stays where it is (§17 A41)
            stacks = _put(stacks, p.defender, _put(stacks[p.defender], p.target_index, won))
        else:
            own = stacks[p.defender]
            stacks = _put(stacks, p.defender, own[: p.target_index] + own[p.target_index + 1 :])
            stacks = _push(stacks, winner, won)
    blocked = s.blocked
    if winner == p.defender and s.ruleset.rechallenge_blocked:
        blocked = blocked | {(p.challenger, p.defender)}
    s = replace(s, stacks=stacks, blocked=blocked)
    if p.kind == "draft":
        return _start_flips(s)
    return replace(s, pending=resume_turn(s))


def _set_drafted(s: GameState, e: SetDrafted) -> GameState:
    piles = s.draft_piles
    face_up = s.draft_face_up
    for pc in e.pile_cards:
        piles = _put(piles, pc.pile, piles[pc.pile][1:])
        face_up = _put(face_up, pc.pile, False)  # the next card flips after the draft (§17 A50)
    drafted = CardSet(e.set_type, assets_first(s, (e.hand_card, *(pc.card for pc in e.pile_cards))))
    s = replace(
        s,
        hands=_take_hand(s, e.seat, (e.hand_card,)),
        draft_piles=piles,
        draft_face_up=face_up,
        actions_taken=s.actions_taken + 1,
        draft=DraftInProgress(e.seat, drafted, tuple(pc.pile for pc in e.pile_cards)),
    )
    if e.eligible is None:
        return _keep_draft(s)
    return replace(s, pending=AwaitingDraftChallenge(e.seat, e.eligible))


def _keep_draft(s: GameState) -> GameState:
    assert s.draft is not None
    return _start_flips(replace(s, stacks=_push(s.stacks, s.draft.drafter, s.draft.set)))


def _start_flips(s: GameState) -> GameState:
    # An emptied draft pile stays empty for the rest of the round (§17 A33).
    assert s.draft is not None
    queue = tuple(p for p in s.draft.piles if s.draft_piles[p])
    return _after_flip(replace(s, draft=None, flip_queue=queue))


def _draft_challenge_passed(s: GameState, e: DraftChallengePassed) -> GameState:
    return _keep_draft(s)


def _pile_card_revealed(s: GameState, e: PileCardRevealed) -> GameState:
    s = replace(s, draft_face_up=_put(s.draft_face_up, e.pile, True))
    if card_table(s.ruleset.edition)[e.card].kind is Kind.ACTION:
        return replace(s, pending=Flipping())  # its effect follows (§14.6)
    return _after_flip(replace(s, flip_queue=s.flip_queue[1:]))


def _spend_revealed(s: GameState, pile: int, card: str) -> GameState:
    """The revealed action card goes out of play; a non-empty pile flips its next card (chain)."""
    rest = s.draft_piles[pile][1:]
    queue = s.flip_queue[1:]
    if rest:
        queue = (pile, *queue)
    return _after_flip(
        replace(
            s,
            draft_piles=_put(s.draft_piles, pile, rest),
            draft_face_up=_put(s.draft_face_up, pile, False),
            out_of_play=(*s.out_of_play, card),
            flip_queue=queue,
        )
    )


def _revealed_swap_applied(s: GameState, e: RevealedSwapApplied) -> GameState:
    a, b = e.seats
    return _spend_revealed(replace(s, stacks=swap_tops(s.stacks, a, b)), e.pile, e.card)


def _revealed_action_returned(s: GameState, e: RevealedActionReturned) -> GameState:
    assert e.position is not None
    rest = list(s.draft_piles[e.pile][1:])
    rest.insert(e.position, e.card)
    return replace(
        s,
        draft_piles=_put(s.draft_piles, e.pile, tuple(rest)),
        draft_face_up=_put(s.draft_face_up, e.pile, False),
        pushbacks=s.pushbacks + 1,
        pending=Flipping(),
    )


def _revealed_action_discarded(s: GameState, e: RevealedActionDiscarded) -> GameState:
    return _spend_revealed(s, e.pile, e.card)


def _revealed_move_awaiting(s: GameState, e: RevealedMoveAwaitingChoices) -> GameState:
    return replace(s, pending=AwaitingMoveDirections(e.pile, e.card, e.choosers, ()))


def _move_direction_chosen(s: GameState, e: MoveDirectionChosen) -> GameState:
    p = s.pending
    assert isinstance(p, AwaitingMoveDirections)
    return replace(
        s,
        pending=replace(
            p, awaiting=p.awaiting[1:], choices=(*p.choices, (e.target_seat, e.direction))
        ),
    )


def _revealed_move_applied(s: GameState, e: RevealedMoveApplied) -> GameState:
    stacks = s.stacks
    for seat, direction in e.moves:
        stacks = _put(stacks, seat, move_stack(stacks[seat], direction))
    return _spend_revealed(replace(s, stacks=stacks), e.pile, e.card)


def _set_improved(s: GameState, e: SetImproved) -> GameState:
    top = s.stacks[e.seat][-1]
    improved = CardSet(top.type, assets_first(s, (e.card, *top.cards)))
    s = replace(
        s,
        hands=_take_hand(s, e.seat, (e.card,)),
        stacks=_put(s.stacks, e.seat, (*s.stacks[e.seat][:-1], improved)),
        actions_taken=s.actions_taken + 1,
    )
    return replace(s, pending=resume_turn(s))


def _swap_played(s: GameState, e: SwapPlayed) -> GameState:
    s = replace(
        s,
        hands=_take_hand(s, e.seat, (e.card,)),
        stacks=swap_tops(s.stacks, e.seat, e.target_seat),
        out_of_play=(*s.out_of_play, e.card),
        actions_taken=s.actions_taken + 1,
    )
    return replace(s, pending=resume_turn(s))


def _move_played(s: GameState, e: MovePlayed) -> GameState:
    target = e.target_seat
    s = replace(
        s,
        hands=_take_hand(s, e.seat, (e.card,)),
        stacks=_put(s.stacks, target, move_stack(s.stacks[target], e.direction)),
        out_of_play=(*s.out_of_play, e.card),
        actions_taken=s.actions_taken + 1,
    )
    return replace(s, pending=resume_turn(s))


def _turn_ended(s: GameState, e: TurnEnded) -> GameState:
    return replace(s, pending=TurnOver(e.seat))


def _round_ended(s: GameState, e: RoundEnded) -> GameState:
    wins = s.round_wins
    if e.round_winner is not None:
        wins = _put(wins, e.round_winner, wins[e.round_winner] + 1)
    return replace(
        s,
        totals=e.totals,
        round_wins=wins,
        round_scores=(*s.round_scores, e.scores),
        pending=NotStarted(),
    )


def _game_ended(s: GameState, e: GameEnded) -> GameState:
    return replace(s, status="finished", winners=e.winners, pending=GameOver())


_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    GameStarted: _game_started,
    RoundStarted: _round_started,
    TurnStarted: _turn_started,
    SetFormed: _set_formed,
    CardDiscarded: _card_discarded,
    CardsDrawn: _cards_drawn,
    ChallengeOpened: _challenge_opened,
    ChallengeAnswered: _challenge_answered,
    ChallengeConceded: _challenge_conceded,
    SetDrafted: _set_drafted,
    DraftChallengePassed: _draft_challenge_passed,
    PileCardRevealed: _pile_card_revealed,
    RevealedSwapApplied: _revealed_swap_applied,
    RevealedActionReturned: _revealed_action_returned,
    RevealedActionDiscarded: _revealed_action_discarded,
    RevealedMoveAwaitingChoices: _revealed_move_awaiting,
    MoveDirectionChosen: _move_direction_chosen,
    RevealedMoveApplied: _revealed_move_applied,
    SetImproved: _set_improved,
    SwapPlayed: _swap_played,
    MovePlayed: _move_played,
    TurnEnded: _turn_ended,
    RoundEnded: _round_ended,
    GameEnded: _game_ended,
}
