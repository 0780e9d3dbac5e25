"""`decide(state, command, actor)`: validate a command and return the events it causes.

Each handler checks its preconditions and emits the command's own events; `_advance` then takes
every step that needs nobody's decision (replenishing, flips, round ends, decisions with a
single possible answer) until the game waits for a seat again or is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import actions, challenge, draft, rounds
from .commands import (
    Challenge,
    ChallengeDraft,
    ChooseMoveDirection,
    Command,
    Concede,
    Discard,
    DraftSet,
    EndTurn,
    FormSet,
    ImproveSet,
    PassDraft,
    PlayMove,
    PlaySwap,
    Respond,
    StartGame,
)
from .decision import Decision
from .errors import RuleViolation
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
    FormSet: actions.form_set,
    Discard: actions.discard,
    ImproveSet: actions.improve_set,
    PlaySwap: actions.play_swap,
    PlayMove: actions.play_move,
    EndTurn: actions.end_turn,
    Challenge: challenge.challenge,
    Respond: challenge.respond,
    Concede: challenge.concede,
    ChallengeDraft: challenge.challenge_draft,
    PassDraft: challenge.pass_draft,
    DraftSet: draft.draft_set,
    ChooseMoveDirection: draft.choose_move_direction,
}


def decide(state: GameState, command: Command, actor: int | None) -> list[Event]:
    return execute(state, command, actor)[0]


def execute(state: GameState, command: Command, actor: int | None) -> tuple[list[Event], GameState]:
    """`decide` and the state its events lead to, folded once (callers need not evolve again)."""
    d = Decision(state)
    if isinstance(command, StartGame):
        rounds.start_game(d, command, actor)
    else:
        if state.status == "finished":
            raise RuleViolation("game_over", "The game is over.")
        if not state.master_seed:
            raise RuleViolation("not_started", "The game has not started.")
        if actor is None or not 0 <= actor < state.players:
            raise RuleViolation("invalid_seat", "Commands come from a seat of this game.")
        _SEAT_HANDLERS[type(command)](d, command, actor)
    _advance(d)
    return d.events, d.state


def _advance(d: Decision) -> None:
    while True:
        s = d.state
        p = s.pending
        if isinstance(p, Flipping):
            draft.flip_step(d)
        elif isinstance(p, TurnOver):
            rounds.end_of_turn(d)
        elif isinstance(p, AwaitingChallengeReply):
            if challenge.has_play(d.table, s.hands[p.awaiting], p.set_type, p.required):
                return
            d.emit(ChallengeConceded(p.awaiting, auto=True))  # §17 A43
        elif isinstance(p, AwaitingDraftChallenge):
            assert s.draft is not None  # a draft window always has its drafted set
            if challenge.draft_challenge_error(s, p.eligible, p.drafter) is None and (
                challenge.has_play(d.table, s.hands[p.eligible], s.draft.set.type, 1)
            ):
                return
            d.emit(DraftChallengePassed(p.eligible, auto=True))
        elif isinstance(p, AwaitingAction) and p.actions_taken and not s.hands[p.seat]:
            d.emit(TurnEnded(p.seat, auto=True))  # nothing left to act with
        else:
            return
