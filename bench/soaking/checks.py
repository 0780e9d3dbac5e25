"""Each read judged against the finished game's log (`history.Replay`):

- complete: every version the caller may see, with all the caller may see of it (its own
  cards), and every decision of the caller's seat announced; a long poll never answers
  stale (it waited past the moment its answer was there);
- in order: versions never go back (events: strictly increasing);
- leak-free: no card the caller may not see (another seat's hand), and a watcher of a game
  with a spectator delay never ahead of the delay.

The caller's seat is decided once, from the game as it stands, as the read paths must.
"""

from __future__ import annotations

import itertools
from typing import Any

from .history import Replay, card_ids
from .reads import Read, Verdict

STALE_SLACK_S = 1.0  # a long poll may answer this late after its answer was recorded


def judge(read: Read, replay: Replay) -> Verdict:
    verdict = Verdict(read)
    if read.caller is not None and replay.gave_up_seat(read.caller):
        verdict.skipped = "the caller gave up its seat during the game"
        return verdict
    seat = replay.seat_of(read.caller) if read.caller is not None else None
    match read.kind:
        case "events":
            _events(verdict, replay, seat)
        case "views":
            _views(verdict, replay, seat)
        case "summaries":
            _summaries(verdict, replay)
    if seat is None and replay.delay:
        for s in read.seen:
            if s.version > (bound := replay.watcher_bound(s.at)):
                verdict.leaked.append(f"v{s.version} seen when the delay allowed v{bound}")
                break
    if read.actor is not None:
        missed = sorted(set(replay.decided_at(read.actor)) - read.decided)
        if missed:
            verdict.incomplete.append(f"decisions at {missed[:5]} never announced")
    return verdict


def _compare(verdict: Verdict, version: int, got: Any, expected: Any, what: str) -> None:
    if got == expected:
        return
    extra = card_ids(got) - card_ids(expected)
    if extra:
        verdict.leaked.append(f"v{version} {what} shows {sorted(extra)[:4]}")
    else:
        missing = sorted(card_ids(expected) - card_ids(got))[:4]
        verdict.incomplete.append(f"v{version} {what} differs from the log"
                                  + (f" (lacks {missing})" if missing else ""))


def _events(verdict: Verdict, replay: Replay, seat: int | None) -> None:
    read = verdict.read
    versions = [s.version for s in read.seen]
    backwards = [(a, b) for a, b in itertools.pairwise(versions) if b <= a]
    if backwards:
        verdict.out_of_order.append(f"v{backwards[0][1]} after v{backwards[0][0]}")
    missing = sorted(set(range(read.after + 1, replay.version + 1)) - set(versions))
    if missing:
        verdict.incomplete.append(f"{len(missing)} of {replay.version - read.after} versions "
                                  f"missing, from v{missing[0]}")
    for s in read.seen:
        if not 1 <= s.version <= replay.version:
            verdict.incomplete.append(f"v{s.version} is not in the log")
            continue
        _compare(verdict, s.version, s.body, replay.event(s.version, seat), "event")
        if s.awaiting is not None and s.awaiting != replay.awaiting(s.version):
            verdict.incomplete.append(f"v{s.version} awaiting {s.awaiting}, "
                                      f"the log {replay.awaiting(s.version)}")


def _views(verdict: Verdict, replay: Replay, seat: int | None) -> None:
    read = verdict.read
    for a, b in zip(read.seen, read.seen[1:], strict=False):
        if b.version < a.version:
            verdict.out_of_order.append(f"v{b.version} after v{a.version}")
            break
    for s in read.seen:
        if not 0 <= s.version <= replay.version:
            verdict.incomplete.append(f"v{s.version} is not in the log")
            continue
        _compare(verdict, s.version, s.body, replay.view(s.version, seat), "view")
        if s.awaiting is not None and s.awaiting != replay.awaiting(s.version):
            verdict.incomplete.append(f"v{s.version} awaiting {s.awaiting}, "
                                      f"the log {replay.awaiting(s.version)}")
    if read.to_end and read.last != replay.version:
        verdict.incomplete.append(f"ended at v{read.last} of {replay.version}")
    if not read.to_end and not read.finished:
        verdict.incomplete.append("the game's end never arrived")
    for w in read.waits:
        if w.status not in ("lobby", "playing"):
            continue
        due = _due(replay, seat, w.asked, w.version)
        if due is not None and replay.times[due - 1] <= w.ended - STALE_SLACK_S:
            verdict.incomplete.append(
                f"a long poll answered v{w.version} after {w.ended - w.started:.1f} s; "
                f"v{due} was there {w.ended - replay.times[due - 1]:.1f} s before")


def _due(replay: Replay, seat: int | None, asked: int | None, answered: int) -> int | None:
    """The version a long poll should have answered with instead of `answered`."""
    if asked is None:  # `/turn`: the seat's next decision
        if seat is None or seat in replay.awaiting(answered):
            return None
        return replay.first_awaiting(seat, answered)
    if answered >= asked:
        return None
    if seat is None and replay.delay:  # a watcher's version trails the live one
        return min(asked + replay.delay, replay.version)
    return min(asked, replay.version)


def _summaries(verdict: Verdict, replay: Replay) -> None:
    for s in verdict.read.seen:
        if 1 <= s.version <= replay.version and s.awaiting is not None \
                and s.awaiting != replay.awaiting(s.version):
            verdict.incomplete.append(f"v{s.version} awaiting {s.awaiting}, "
                                      f"the log {replay.awaiting(s.version)}")
            break
