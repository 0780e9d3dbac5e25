"""`verify(game)`: walk the hash chain and hold each row's columns to its event, hold the log's
end to the game's record, then replay the shuffles and the rules (domain.replay) on the log."""

from __future__ import annotations

import typing
from typing import Annotated

import msgspec

from cya_rules import Event
from cya_rules.docs import doc
from cya_rules.replay import audit
from service.audit.seeds import SeedsReport, check_seeds
from service.events.chain import event_hash
from service.events.codec import AnyEvent
from service.events.event_store import EventStore
from service.events.records import visibility_of
from service.projections.games import recorded_version
from service.table.endings import GameAbandoned, LobbyExpired
from service.table.game import GENESIS_HASH

_DOMAIN_EVENTS = typing.get_args(Event)


class VerifyReport(msgspec.Struct, frozen=True):
    """What `GET /v1/games/{game_id}/verify` answers: whether the game's hash chain holds,
    every revealed shuffle matches its commitment, its deal and the draws from it, every event
    follows by the rules from a legal command of a seat the game awaited, and the log ends
    where the game's record does."""

    game_id: Annotated[str, doc("The game's id.")]
    ok: Annotated[bool, doc("True when every check passed.")]
    events: Annotated[int, doc("The number of events in the game's log.")]
    rounds_verified: Annotated[
        int,
        doc("Ended rounds whose revealed seed matched its published SHA-256 and whose deal"
            " matched the seed."),
    ]
    draws_verified: Annotated[
        int, doc("`cards_drawn` events that took exactly the top cards of the draw pile.")
    ]
    first_bad_version: Annotated[
        int | None,
        doc("The version of the event found wrong (checking stops at the first); null when `ok`"
            " is true."),
    ]
    reason: Annotated[str | None, doc("What is wrong, for people; null when `ok` is true.")]
    ended: Annotated[str | None, doc(
        "How a game that ended without a result ended, as its log records it: `expired: "
        "<reason>` or `abandoned: <reason>`; null otherwise.")] = None
    seeds: Annotated[SeedsReport | None, doc(
        "The seeds of the deal (rules version 4, docs/fair-shuffle.md §7): the master seed's"
        " commitment at creation and every seat's client seed; null when the log does not get"
        " that far.")] = None


async def verify(store: EventStore, game_id: str) -> VerifyReport:
    # The games row is read before and after the log, so a command committed in between
    # cannot look like events cut off or added.
    before = await recorded_version(store, game_id)
    rows = await store.read_as_stored(game_id)
    after = await recorded_version(store, game_id)
    if not rows:
        return VerifyReport(game_id, False, 0, 0, 0, None, "no such game" if before is None
                            else f"the log is empty, yet the game's record is at version "
                                 f"{before}")

    seeds: SeedsReport | None = None

    def bad(version: int, reason: str, rounds: int = 0, draws: int = 0) -> VerifyReport:
        return VerifyReport(game_id, False, len(rows), rounds, draws, version, reason,
                            seeds=seeds)

    prev = GENESIS_HASH
    log: list[Event] = []
    versions: list[int] = []
    everything: list[AnyEvent] = []
    ended: str | None = None
    for expected_version, r in enumerate(rows, start=1):
        if r.version != expected_version:
            return bad(expected_version, f"version {expected_version} is missing")
        h = event_hash(prev, game_id, r.version, r.type, r.schema_version, r.visibility,
                       r.command_id, r.actor, r.data)
        if h != r.hash:
            return bad(r.version, "the hash chain breaks here: the stored event or its hash "
                                  "was changed")
        prev = r.hash
        try:
            ev = store.codec.decode(r.type, r.schema_version, r.data)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
            return bad(r.version, f"the event does not decode: {exc}")
        if r.visibility != visibility_of(ev):
            return bad(r.version, f"the event is stored as visible to {r.visibility!r}; "
                                  f"its type is visible to {visibility_of(ev)!r}")
        everything.append(ev)
        if isinstance(ev, LobbyExpired | GameAbandoned):
            ended = f"{'expired' if isinstance(ev, LobbyExpired) else 'abandoned'}: {ev.reason}"
        if isinstance(ev, _DOMAIN_EVENTS):
            log.append(ev)
            versions.append(r.version)
    if before is None or after is None:
        return bad(1, "the game's record (its games row) is missing")
    if len(rows) < before:
        return bad(len(rows) + 1, f"version {len(rows) + 1} is missing: the game's record is "
                                  f"at version {before}")
    if len(rows) > after:
        return bad(after + 1, f"the log goes on past version {after}, where the game's record "
                              "ends")
    checked = check_seeds(everything)
    seeds = checked.report
    result = audit(log) if log else None
    findings = [(versions[result.finding.index], result.finding.reason)
                if result is not None and result.finding is not None else None,
                (checked.index + 1, checked.reason) if checked.reason is not None
                and checked.index is not None else None]
    rounds, draws = (result.rounds_verified, result.draws_verified) if result else (0, 0)
    first = min((f for f in findings if f is not None), default=None)
    if first is not None:  # the earliest of the two, as each check stops at its first
        return bad(first[0], first[1], rounds, draws)
    return VerifyReport(game_id, True, len(rows), rounds, draws, None, None, ended, seeds)
