"""The challenge state machine (RULES §7.3, §8, §14.3)."""

from __future__ import annotations

from itertools import combinations

from .actions import require_turn
from .cards import PENNY_JAR
from .commands import Challenge, ChallengeDraft, Concede, PassDraft, Respond
from .decision import Decision
from .errors import RuleCode, RuleViolation
from .events import ChallengeAnswered, ChallengeConceded, ChallengeOpened, DraftChallengePassed
from .sets import Table, matching_cards, next_required, play_kind
from .state import AwaitingChallengeReply, AwaitingDraftChallenge, ChallengeKind, GameState


def target_error(state: GameState, actor: int, target: int, position: str) -> RuleViolation | None:
    """Why `actor` may not challenge that set now, or None (§7.3 preconditions 1, 3, 5).

    Own sets are checked when the challenge opens (§17 A9, A48); several challenges in one turn
    are fine unless a lost one blocks the target (§17 A47)."""
    if position == "second" and not state.ruleset.advanced.second_set_challenge:
        return RuleViolation(RuleCode.OPTION_DISABLED, "Second-set challenges are not on (§13.6).")
    if not state.stacks[actor]:
        return RuleViolation(RuleCode.NO_OWN_SET,
                             "You must form a set before you challenge (§7.3).")
    # The bottom set is always safe, so a top set needs 2 sets, a second set 3 (§17 A10, A11).
    # A steal may leave the target one set, which is then safe (§17 A49).
    if len(state.stacks[target]) < (2 if position == "top" else 3):
        return RuleViolation(RuleCode.TARGET_PROTECTED,
                             "That set is the bottom set, which is safe.")
    if (actor, target) in state.blocked:
        return RuleViolation(
            RuleCode.RECHALLENGE_BLOCKED,
            f"You lost a challenge against seat {target}; wait for your next turn (§13.2).",
        )
    return None


def challenge(d: Decision, cmd: Challenge, actor: int) -> None:
    require_turn(d, actor)
    d.require_seat(cmd.target_seat, other_than=actor)
    error = target_error(d.state, actor, cmd.target_seat, cmd.position)
    if error:
        raise error
    d.require_cards_in_hand(actor, cmd.cards)
    stack = d.state.stacks[cmd.target_seat]
    index = len(stack) - (1 if cmd.position == "top" else 2)
    set_type = stack[index].type
    required = _opening_reply(d.table, cmd.cards, set_type, 1 if cmd.position == "top" else 2)
    kind: ChallengeKind = "stack_top" if cmd.position == "top" else "stack_second"
    d.emit(ChallengeOpened(kind, actor, cmd.target_seat, index, set_type, cmd.cards, required))


def _opening_reply(table: Table, cards: tuple[str, ...], set_type: str, asked: int) -> int:
    play = play_kind(table, cards, set_type)
    required = next_required(play, asked) if play else None
    if required is None:
        what = (
            "one matching card or a Penny Jar"
            if asked == 1
            else "two matching cards or a Penny Jar"
        )
        raise RuleViolation(RuleCode.INVALID_PLAY, f"This opening needs {what} (§8.3).")
    return required


def respond(d: Decision, cmd: Respond, actor: int) -> None:
    p = _require_reply(d, actor)
    d.require_cards_in_hand(actor, cmd.cards)
    play = play_kind(d.table, cmd.cards, p.set_type)
    required = next_required(play, p.required) if play else None
    if required is None:
        what = "a single matching card or a Penny Jar" if p.required == 1 else "a double"
        raise RuleViolation(RuleCode.INVALID_PLAY, f"You must answer with {what} (§8.4).")
    d.emit(ChallengeAnswered(actor, cmd.cards, required))


def concede(d: Decision, cmd: Concede, actor: int) -> None:
    _require_reply(d, actor)
    d.emit(ChallengeConceded(actor))


def _require_reply(d: Decision, actor: int) -> AwaitingChallengeReply:
    p = d.state.pending
    if not isinstance(p, AwaitingChallengeReply):
        raise RuleViolation(RuleCode.NOT_EXPECTED, "No challenge is waiting for an answer.")
    if actor != p.awaiting:
        raise RuleViolation(RuleCode.NOT_YOUR_DECISION,
                            f"The challenge waits for seat {p.awaiting}.")
    return p


def _require_window(d: Decision, actor: int) -> AwaitingDraftChallenge:
    p = d.state.pending
    if not isinstance(p, AwaitingDraftChallenge):
        raise RuleViolation(RuleCode.NOT_EXPECTED, "No drafted set is open to a challenge.")
    if actor != p.eligible:
        raise RuleViolation(
            RuleCode.NOT_YOUR_DECISION, f"Only seat {p.eligible} may challenge this draft."
        )
    return p


def challenge_draft(d: Decision, cmd: ChallengeDraft, actor: int) -> None:
    p = _require_window(d, actor)
    error = draft_challenge_error(d.state, actor, p.drafter)
    if error:
        raise error
    d.require_cards_in_hand(actor, cmd.cards)
    draft = d.state.draft
    assert draft is not None
    required = _opening_reply(d.table, cmd.cards, draft.set.type, 1)
    d.emit(ChallengeOpened("draft", actor, p.drafter, -1, draft.set.type, cmd.cards, required))


def draft_challenge_error(state: GameState, actor: int, drafter: int) -> RuleViolation | None:
    # §14.3, §17 A28: the usual rules apply, by default including "have a set of your own".
    if state.ruleset.draft_challenge_requires_own_set and not state.stacks[actor]:
        return RuleViolation(RuleCode.NO_OWN_SET,
                             "You must have a set of your own to challenge (§14.3).")
    if (actor, drafter) in state.blocked:  # §17 A30
        return RuleViolation(RuleCode.RECHALLENGE_BLOCKED,
                             "You lost a challenge against this seat.")
    return None


def pass_draft(d: Decision, cmd: PassDraft, actor: int) -> None:
    _require_window(d, actor)
    d.emit(DraftChallengePassed(actor))


# Enumerating plays: for legal_commands and for the automatic decisions.


def plays(table: Table, hand: tuple[str, ...], set_type: str, asked: int) -> list[tuple[str, ...]]:
    """Every play from `hand` that answers `asked` (1: single or Penny Jar; 2: double)."""
    matching = matching_cards(table, set_type)
    if asked == 1:
        return [(c,) for c in hand if c in matching]
    pairable: list[str] = []
    out: list[tuple[str, ...]] = []
    for c in hand:
        if table[c].type == PENNY_JAR:
            out.append((c,))
        elif c in matching:
            pairable.append(c)
    out.extend(combinations(pairable, 2))
    return out


def has_play(table: Table, hand: tuple[str, ...], set_type: str, asked: int) -> bool:
    matching = matching_cards(table, set_type)
    if asked == 1:
        return not matching.isdisjoint(hand)
    count = 0
    for c in hand:
        if table[c].type == PENNY_JAR:
            return True
        if c in matching:
            count += 1
    return count >= 2
