"""Provable fairness, checked: every round's revealed seed against its commitment, the deal
against the seed, and every draw against the dealt draw pile (RULES §15, docs/fair-shuffle.md).

Pure: give it a game's full, unredacted domain log; it returns the first bad event, if any.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .events import CardsDrawn, Event, GameStarted, RoundEnded, RoundStarted
from .evolve import evolve
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
                findings.append(
                    Finding(
                        i,
                        f"seat {ev.seat} drew {ev.cards}, the pile's top "
                        f"{ev.count} were {list(top)}",
                    )
                )
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
            findings.append(Finding(i, f"the rules cannot apply this event: {exc!r}"))
            break
    first = min(findings, key=lambda f: f.index) if findings else None
    return AuditResult(rounds, draws, first)


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
        return Finding(i, f"round {ev.round_no}: the seed is not the one the master seed derives")
    problem = _deal_problem(before, dealt, ev.seed)
    return Finding(j, problem) if problem else None
