"""`evolve(state, event)`: apply one event. It never fails for an event that `decide` produced."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from .client_seeds import deal_key
from .events import (
    CardDiscarded,
    CardsDrawn,
    ChallengeAnswered,
    ChallengeConceded,
    ChallengeOpened,
    Event,
    GameEnded,
    GameStarted,
    MovePlayed,
    RoundEnded,
    RoundStarted,
    SetFormed,
    SetImproved,
    SwapPlayed,
    TurnEnded,
    TurnStarted,
)
from .evolve_draft import DRAFT_HANDLERS, start_flips
from .shuffle import round_seed
from .stack_edits import (
    assets_first,
    move_stack,
    push_set,
    put,
    resume_after,
    resume_turn,
    swap_tops,
    take_hand,
)
from .state import (
    AwaitingAction,
    AwaitingChallengeReply,
    CardSet,
    GameOver,
    GameState,
    NotStarted,
    Play,
    TurnOver,
)


def evolve(state: GameState, event: Event) -> GameState:
    return HANDLERS[type(event)](state, event)


def fold(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = HANDLERS[type(event)](state, event)
    return state


# Handlers, one per event type.


def _game_started(s: GameState, e: GameStarted) -> GameState:
    # The state keeps the key the round seeds derive from: the master seed, mixed with the
    # client seeds from rules version 4 (a redacted event has no seed: nothing to derive).
    key = deal_key(e.seed, e.client_seeds) if e.seed else b""
    return replace(s, ruleset=e.ruleset, master_seed=key, pending=NotStarted())


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
        set_secrets=frozenset(),
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
    cards, secrets = e.cards, s.set_secrets
    if e.secret:
        # The face-up card is the top: a top from the hand beside an asset taken from the
        # discard pile would tell everyone that the hand card is an asset (§17 A45).
        shown = e.face_up()
        hidden = tuple(c for c in e.cards if c not in shown)
        cards, secrets = (*shown, *hidden), secrets | {(c, e.seat) for c in hidden}
    taken = s.actions_taken + 1
    return replace(
        s,
        hands=take_hand(s, e.seat, from_hand),
        stacks=push_set(s.stacks, e.seat, CardSet(e.set_type, assets_first(s, cards))),
        discard_pile=s.discard_pile if e.source == "hand" else s.discard_pile[:-1],
        actions_taken=taken,
        set_secrets=secrets,
        pending=resume_after(s, taken),
    )


def _card_discarded(s: GameState, e: CardDiscarded) -> GameState:
    taken = s.actions_taken + 1
    return replace(
        s,
        hands=take_hand(s, e.seat, (e.card,)),
        discard_pile=(*s.discard_pile, e.card),
        actions_taken=taken,
        pending=resume_after(s, taken),
    )


def _cards_drawn(s: GameState, e: CardsDrawn) -> GameState:
    drawn = s.draw_pile[: e.count]
    return replace(
        s,
        hands=put(s.hands, e.seat, s.hands[e.seat] + drawn),
        draw_pile=s.draw_pile[e.count :],
    )


def _challenge_opened(s: GameState, e: ChallengeOpened) -> GameState:
    return replace(
        s,
        hands=take_hand(s, e.challenger, e.cards),
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
        hands=take_hand(s, e.seat, e.cards),
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
        stacks = push_set(stacks, winner, won)
    else:
        contested = stacks[p.defender][p.target_index]
        won = CardSet(p.set_type, assets_first(s, (*contested.cards, *pot)))
        if winner == p.defender:  # a defended set stays where it is (§17 A41)
            stacks = put(stacks, p.defender, put(stacks[p.defender], p.target_index, won))
        else:
            own = stacks[p.defender]
            stacks = put(stacks, p.defender, own[: p.target_index] + own[p.target_index + 1 :])
            stacks = push_set(stacks, winner, won)
    blocked = s.blocked
    if winner == p.defender and s.ruleset.rechallenge_blocked:
        blocked = blocked | {(p.challenger, p.defender)}
    if p.kind == "draft":
        return start_flips(replace(s, stacks=stacks, blocked=blocked))
    return replace(s, stacks=stacks, blocked=blocked, pending=resume_turn(s))


def _set_improved(s: GameState, e: SetImproved) -> GameState:
    top = s.stacks[e.seat][-1]
    improved = CardSet(top.type, assets_first(s, (e.card, *top.cards)))
    taken = s.actions_taken + 1
    return replace(
        s,
        hands=take_hand(s, e.seat, (e.card,)),
        stacks=put(s.stacks, e.seat, (*s.stacks[e.seat][:-1], improved)),
        actions_taken=taken,
        pending=resume_after(s, taken),
    )


def _swap_played(s: GameState, e: SwapPlayed) -> GameState:
    taken = s.actions_taken + 1
    return replace(
        s,
        hands=take_hand(s, e.seat, (e.card,)),
        stacks=swap_tops(s.stacks, e.seat, e.target_seat),
        out_of_play=(*s.out_of_play, e.card),
        actions_taken=taken,
        pending=resume_after(s, taken),
    )


def _move_played(s: GameState, e: MovePlayed) -> GameState:
    target = e.target_seat
    taken = s.actions_taken + 1
    return replace(
        s,
        hands=take_hand(s, e.seat, (e.card,)),
        stacks=put(s.stacks, target, move_stack(s.stacks[target], e.direction)),
        out_of_play=(*s.out_of_play, e.card),
        actions_taken=taken,
        pending=resume_after(s, taken),
    )


def _turn_ended(s: GameState, e: TurnEnded) -> GameState:
    return replace(s, pending=TurnOver(e.seat))


def _round_ended(s: GameState, e: RoundEnded) -> GameState:
    wins = s.round_wins
    if e.round_winner is not None:
        wins = put(wins, e.round_winner, wins[e.round_winner] + 1)
    return replace(
        s,
        totals=e.totals,
        round_wins=wins,
        round_scores=(*s.round_scores, e.scores),
        pending=NotStarted(),
    )


def _game_ended(s: GameState, e: GameEnded) -> GameState:
    return replace(s, status="finished", winners=e.winners, pending=GameOver())


HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    GameStarted: _game_started,
    RoundStarted: _round_started,
    TurnStarted: _turn_started,
    SetFormed: _set_formed,
    CardDiscarded: _card_discarded,
    CardsDrawn: _cards_drawn,
    ChallengeOpened: _challenge_opened,
    ChallengeAnswered: _challenge_answered,
    ChallengeConceded: _challenge_conceded,
    SetImproved: _set_improved,
    SwapPlayed: _swap_played,
    MovePlayed: _move_played,
    TurnEnded: _turn_ended,
    RoundEnded: _round_ended,
    GameEnded: _game_ended,
    **DRAFT_HANDLERS,
}
