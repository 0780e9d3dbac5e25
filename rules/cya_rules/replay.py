"""Provable fairness, checked: every round's revealed seed against its commitment, the deal
against the seed, and every draw against the dealt draw pile (RULES §15, docs/fair-shuffle.md);
then the rules: every run of events is what a legal command of an awaited seat causes.

Pure: give it a game's full, unredacted domain log; it returns the first bad event, if any.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .commands import StartGame
from .decide import execute, execute_if_first
from .errors import RuleViolation
from .events import CardsDrawn, Event, GameStarted, RoundEnded, RoundStarted
from .evolve import evolve
from .legal import legal_commands
from .rounds import deal
from .shuffle import commitment, round_seed
from .state import GameState, new_game


class Finding(msgspec.Struct, frozen=True, gc=False):
    index: int  # position in the log given to `audit`
    reason: str


class AuditResult(msgspec.Struct, frozen=True, gc=False):
    rounds_verified: int
    draws_verified: int
    finding: Finding | None  # None: every check passed


def _deal_problem(before: GameState, dealt: RoundStarted, seed: bytes) -> str | None:
    fair = deal(before, dealt.round_no, seed)
    if fair == dealt:
        return None
    fields = [f for f in RoundStarted.__struct_fields__ if getattr(fair, f) != getattr(dealt, f)]
    return f"round {dealt.round_no}: the deal differs from its seed's in {', '.join(fields)}"


def audit(log: Sequence[Event]) -> AuditResult:
    rounds = draws = 0
    findings: list[Finding] = []
    started: dict[int, tuple[int, RoundStarted, GameState]] = {}
    state: GameState | None = None
    for i, ev in enumerate(log):
        if state is None:
            if not isinstance(ev, GameStarted):
                return AuditResult(0, 0, Finding(i, "the log does not open with game_started"))
            state = new_game(ev.ruleset)
        elif isinstance(ev, RoundStarted):
            if ev.draw_pile is None or ev.draft_piles is None:
                return AuditResult(rounds, draws, Finding(i, "the deal is redacted"))
            started[ev.round_no] = (i, ev, state)
            if state.master_seed:  # the server's full log: check the deal now
                problem = _deal_problem(state, ev, round_seed(state.master_seed, ev.round_no))
                if problem:
                    findings.append(Finding(i, problem))
                    break
        elif isinstance(ev, CardsDrawn):
            top = state.draw_pile[: ev.count]
            if ev.cards is None or ev.cards != top or len(top) != ev.count:
                # No card ids: a running game's verify would show the hidden draw pile.
                findings.append(Finding(i, f"seat {ev.seat}'s draw is not the pile's top cards"))
                break
            draws += 1
        elif isinstance(ev, RoundEnded):
            finding = _check_reveal(i, ev, started, state)
            if finding is not None:
                findings.append(finding)
                break
            rounds += 1
        try:
            state = evolve(state, ev)
        except Exception as exc:  # a log the rules cannot replay is itself the finding
            findings.append(Finding(i, "the event contradicts the game before it (a card that "
                                    "is not where it says, say): the rules cannot apply it "
                                    f"({type(exc).__name__}: {exc})"))
            break
    first = min(findings, key=lambda f: f.index) if findings else None
    if first is None and isinstance(log[0], GameStarted) and log[0].seed is not None:
        first = _rules_problem(log[0], log)
    return AuditResult(rounds, draws, first)


def _rules_problem(opening: GameStarted, log: Sequence[Event]) -> Finding | None:
    """The first event that the rules do not explain. From the start, each run of events must
    be exactly what `execute` gives for a legal command of a seat the game awaits (a player's,
    a bot's or a timeout's), automatic steps (draws, flips, scoring, the next deal) included.
    The log does not record the commands, so each awaited seat's legal commands are tried."""
    start = StartGame(opening.seed or b"", opening.client_seeds)
    try:
        events, state = execute(new_game(opening.ruleset), start, None)
    except RuleViolation as exc:  # a start no server could have made: the log was changed
        return Finding(0, f"the game cannot start as game_started says: {exc}")
    i = _matching(log, 0, events)
    if i < len(events):
        return Finding(i, "the game's start is not what its seed and rules give")
    while i < len(log):
        if state.status == "finished":
            return Finding(i, "an event after the game ended")
        explained = _explained_run(state, log, i)
        if isinstance(explained, int):
            if explained >= len(log):  # every event left matched, and the command had more
                return Finding(len(log) - 1, "the log stops partway through the events of one "
                               "command: those that follow this event are missing")
            return Finding(explained, "no legal command of the awaited seat "
                           f"{list(state.pending_seats())} leads to this event")
        i, state = explained
    return None


def _explained_run(state: GameState, log: Sequence[Event], i: int
                   ) -> tuple[int, GameState] | int:
    """Where the log goes on after the run of events from `i` that a legal command of an
    awaited seat causes, and the state then; when none does, where the events of the command
    that comes closest first differ from the log."""
    furthest = i
    for seat in state.pending_seats():
        for command in legal_commands(state, seat):
            ran = execute_if_first(state, command, seat, log[i])
            if ran is None:  # its first event is not the log's: it matches nothing
                continue
            events, after = ran
            matched = _matching(log, i, events)
            if events and matched == i + len(events):
                return matched, after
            furthest = max(furthest, matched)
    return furthest


def _matching(log: Sequence[Event], i: int, events: Sequence[Event]) -> int:
    """Where `events`, laid over the log from `i`, first differ from it (or end)."""
    for k, ev in enumerate(events):
        if i + k >= len(log) or log[i + k] != ev:
            return i + k
    return i + len(events)


def _check_reveal(
    i: int,
    ev: RoundEnded,
    started: dict[int, tuple[int, RoundStarted, GameState]],
    state: GameState,
) -> Finding | None:
    if ev.round_no not in started:
        return Finding(i, f"round {ev.round_no} ends but never started")
    j, dealt, before = started[ev.round_no]
    if commitment(ev.seed) != dealt.seed_sha256:
        return Finding(i, f"round {ev.round_no}: the revealed seed does not match its commitment")
    if state.master_seed and ev.seed != round_seed(state.master_seed, ev.round_no):
        return Finding(i, f"round {ev.round_no}: the seed is not the one the master seed "
                       "(and the client seeds, from rules version 4) derive")
    problem = _deal_problem(before, dealt, ev.seed)
    return Finding(j, problem) if problem else None
