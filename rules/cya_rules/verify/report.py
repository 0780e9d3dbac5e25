"""`verify_history`: every offline check of one game's history, as a report of named checks
that `cya-verify` prints (`render`) and exits on. A check that cannot run because an earlier
one failed says so rather than passing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import msgspec

from cya_rules.log.history import HistoryLine
from cya_rules.log.receipts import Receipt
from cya_rules.verify.log import Finding, check_events, check_times, read_log
from cya_rules.verify.receipts import receipt_problem
from cya_rules.verify.seeds import SeedsReport


class Check(msgspec.Struct, frozen=True, gc=False):
    name: str
    ok: bool
    detail: str
    version: int | None = None  # the first event found wrong, when one is


class Report(msgspec.Struct, frozen=True, gc=False):
    game_id: str
    events: int
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]


class ReceiptsInput(msgspec.Struct, frozen=True, gc=False):
    receipts: Sequence[Receipt]
    keys: Mapping[str, str]  # key id → hex public key
    salt: bytes | None


def verify_history(game_id: str, lines: Sequence[HistoryLine],
                   receipts: ReceiptsInput | None = None, now: datetime | None = None) -> Report:
    if not lines:
        return Report(game_id, 0, [Check("hash chain", False, "the history is empty")])
    read = read_log(game_id, lines)
    checks = [_chain_check(read.finding, len(lines), game_id)]
    times = check_times(lines, now)
    checks.append(Check("times", True, "the recorded times never go back") if times is None
                  else Check("times", False, f"version {times.version}: {times.reason}",
                             times.version))
    if read.complete:
        events = check_events(read.events)
        s, r = events.seeds_finding, events.rules_finding
        checks.append(Check("seeds", True, _seeds_detail(events.seeds)) if s is None else
                      Check("seeds", False, f"version {s.version}: {s.reason}", s.version))
        checks.append(Check("shuffles and rules", True, (
            f"rounds whose seed and deal match: {events.rounds_verified}; draws from the top"
            f" of the pile: {events.draws_verified}; every event follows by the rules from a"
            " legal command of an awaited seat"))
            if r is None else
            Check("shuffles and rules", False, f"version {r.version}: {r.reason}", r.version))
    else:
        why = "not checked: the log does not read to its end"
        checks += [Check("seeds", False, why), Check("shuffles and rules", False, why)]
    if receipts is not None:
        checks.append(_receipts_check(game_id, read.hashes, receipts))
    return Report(game_id, len(lines), checks)


def _chain_check(finding: Finding | None, count: int, game_id: str) -> Check:
    if finding is not None:
        # The first hash covers the game's id, which the lines leave out: a wrong one breaks
        # the chain at once.
        hint = f" (or {game_id} is not this history's game: --game)" \
            if finding.version == 1 and "hash chain" in finding.reason else ""
        return Check("hash chain", False, f"version {finding.version}: {finding.reason}{hint}",
                     finding.version)
    return Check("hash chain", True, f"{count} events from version 1, every hash recomputed, "
                                     "every visibility as its event says")


def _seeds_detail(seeds: SeedsReport | None) -> str:
    if seeds is None or seeds.seed_sha256 is None:
        return "no commitment at creation (rules before version 4): the round seeds are checked"
    sources = ", ".join(f"{c.seat}: {c.source}" for c in seeds.client_seeds or ())
    return ("the master seed matches game_created's commitment" +
            (f"; client seeds as each seat sent them ({sources})" if sources else ""))


def _receipts_check(game_id: str, hashes: Sequence[str], given: ReceiptsInput) -> Check:
    if not given.receipts:
        return Check("receipts", False, "no receipts kept for this game")
    for receipt in given.receipts:
        problem = receipt_problem(receipt, game_id, hashes, given.salt, given.keys)
        if problem is not None:
            return Check("receipts", False, f"the receipt for version {receipt.version}: "
                                            f"{problem}", receipt.version)
    last = max(r.version for r in given.receipts)
    return Check("receipts", True, f"{len(given.receipts)} receipts, up to version {last}, "
                                   "signed by the server's key and agree with this history")


def render(report: Report) -> str:
    width = max(len(c.name) for c in report.checks)
    out = [f"cya-verify: game {report.game_id}, {report.events} events"]
    out += [f"  {'ok  ' if c.ok else 'FAIL'}  {c.name:<{width}}  {c.detail}"
            for c in report.checks]
    failed = report.failed()
    out.append("verified: every check passed" if not failed else
               f"NOT verified: {len(failed)} of {len(report.checks)} checks failed "
               f"({', '.join(c.name for c in failed)})")
    return "\n".join(out) + "\n"
