"""`decide(state, command, actor)`: validate a command and return the events it causes.

Each handler checks its preconditions and emits the command's own events; `_advance` then takes
every step that needs nobody's decision (replenishing, flips, round ends, decisions with a
single possible answer) until the game waits for a seat again or is over. `preview` is what a
dry run may show: it stops before the first of those steps that depends on hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import actions, challenge, commands, draft, rounds
from .commands import Command, StartGame
from .decision import Decision
from .errors import RuleCode, RuleViolation
from .events import ChallengeConceded, DraftChallengePassed, Event, TurnEnded
from .state import (
    AwaitingAction,
    AwaitingChallengeReply,
    AwaitingDraftChallenge,
    Flipping,
    GameState,
    TurnOver,
)

_SEAT_HANDLERS: dict[type[Any], Callable[[Decision, Any, int], None]] = {
    commands.FormSet: actions.form_set,
    commands.Discard: actions.discard,
    commands.ImproveSet: actions.improve_set,
    commands.PlaySwap: actions.play_swap,
    commands.PlayMove: actions.play_move,
    commands.EndTurn: actions.end_turn,
    commands.Challenge: challenge.challenge,
    commands.Respond: challenge.respond,
    commands.Concede: challenge.concede,
    commands.ChallengeDraft: challenge.challenge_draft,
    commands.PassDraft: challenge.pass_draft,
    commands.DraftSet: draft.draft_set,
    commands.ChooseMoveDirection: draft.choose_move_direction,
}


def decide(state: GameState, command: Command, actor: int | None) -> list[Event]:
    return execute(state, command, actor)[0]


def execute(state: GameState, command: Command, actor: int | None) -> tuple[list[Event], GameState]:
    """`decide` and the state its events lead to, folded once (callers need not evolve again)."""
    d = _handle(state, command, actor)
    _advance(d)
    return d.events, d.state


def execute_if_first(state: GameState, command: Command, actor: int | None, first: Event
                     ) -> tuple[list[Event], GameState] | None:
    """`execute`, or None as soon as the command's own first event is not `first`: the rules
    replay (`replay.py`) tries every legal command of a seat, and most differ at once."""
    d = _handle(state, command, actor)
    if d.events and d.events[0] != first:
        return None
    _advance(d)
    return d.events, d.state


def preview(state: GameState, command: Command, actor: int) -> tuple[list[Event], bool]:
    """What a dry run may show `actor` before it commits: the command's events and the steps
    after it that follow from what the seat can see, up to the first step that depends on
    cards hidden from it (`_hidden_from`). Also whether it stopped there, short of `execute`.

    Whether such a step happens matters as much as what it shows: a challenge the defender
    concedes at once (it holds no answer) would tell the challenger what is not in that hand,
    so the preview stops before the defender's turn to answer, whatever the hand holds."""
    d = _handle(state, command, actor)
    return d.events, _advance(d, stop_before_hidden_from=actor)


def _handle(state: GameState, command: Command, actor: int | None) -> Decision:
    """The command's own events: its handler, after the checks every command passes."""
    d = Decision(state)
    if isinstance(command, StartGame):
        rounds.start_game(d, command, actor)
        return d
    if state.status == "finished":
        raise RuleViolation(RuleCode.GAME_OVER, "The game is over.")
    if not state.master_seed:
        raise RuleViolation(RuleCode.NOT_STARTED, "The game has not started.")
    if actor is None or not 0 <= actor < state.players:
        raise RuleViolation(RuleCode.INVALID_SEAT, "Commands come from a seat of this game.")
    _SEAT_HANDLERS[type(command)](d, command, actor)
    return d


def _advance(d: Decision, stop_before_hidden_from: int | None = None) -> bool:
    """Every step that needs nobody's decision. With a seat to stop for, it stops before a step
    that depends on cards hidden from that seat, and answers whether it did."""
    while True:
        s = d.state
        p = s.pending
        if stop_before_hidden_from is not None and _hidden_from(stop_before_hidden_from, s):
            return True
        if isinstance(p, AwaitingAction):  # first: the commonest by far
            if p.actions_taken and not s.hands[p.seat]:
                d.emit(TurnEnded(p.seat, auto=True))  # nothing left to act with
            else:
                return False
        elif isinstance(p, Flipping):
            draft.flip_step(d)
        elif isinstance(p, TurnOver):
            rounds.end_of_turn(d)
        elif isinstance(p, AwaitingChallengeReply):
            if challenge.has_play(d.table, s.hands[p.awaiting], p.set_type, p.required):
                return False
            d.emit(ChallengeConceded(p.awaiting, auto=True))  # §17 A43
        elif isinstance(p, AwaitingDraftChallenge):
            assert s.draft is not None  # a draft window always has its drafted set
            if challenge.draft_challenge_error(s, p.eligible, p.drafter) is None and (
                challenge.has_play(d.table, s.hands[p.eligible], s.draft.set.type, 1)
            ):
                return False
            d.emit(DraftChallengePassed(p.eligible, auto=True))
        else:
            return False


def _hidden_from(seat: int, s: GameState) -> bool:
    """Whether `_advance`'s next step depends on cards `seat` cannot see: another seat's hand
    (does it hold an answer?), a face-down pile card, or a round's end (its seed unlocks the
    round's shuffle, the cards left face down in the piles included). Replenishing is not:
    the drawn cards are hidden where they are shown, their number is public."""
    p = s.pending
    if isinstance(p, Flipping):
        return True
    if isinstance(p, AwaitingChallengeReply):
        return p.awaiting != seat
    if isinstance(p, AwaitingDraftChallenge):
        return p.eligible != seat
    if isinstance(p, TurnOver):  # draws only add cards: the round ends iff none are left
        return not s.draw_pile and not any(s.hands)
    return False
