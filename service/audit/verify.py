"""`verify(game)`: the log's own checks (`cya_rules.verify.log`, which the offline `cya-verify`
runs too: the hash chain, the seeds, every shuffle and the rules replayed), plus what only the
server holds: the log's end against the game's record."""

from __future__ import annotations

from typing import Annotated

import msgspec

from cya_rules.docs import doc
from cya_rules.verify.log import check_events, check_times, read_log
from cya_rules.verify.seeds import SeedsReport
from service.events.event_store import EventStore
from service.projections.seat_views import recorded_version


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

    def bad(version: int, reason: str, rounds: int = 0, draws: int = 0,
            seeds: SeedsReport | None = None) -> VerifyReport:
        return VerifyReport(game_id, False, len(rows), rounds, draws, version, reason,
                            seeds=seeds)

    read = read_log(game_id, rows, store.codec)
    if read.finding is not None:
        return bad(read.finding.version, read.finding.reason)
    if before is None or after is None:
        return bad(1, "the game's record (its games row) is missing")
    if len(rows) < before:
        return bad(len(rows) + 1, f"version {len(rows) + 1} is missing: the game's record is "
                                  f"at version {before}")
    if len(rows) > after:
        return bad(after + 1, f"the log goes on past version {after}, where the game's record "
                              "ends")
    checked = check_events(read.events)
    times = check_times(rows)
    first = min((f for f in (checked.finding, times) if f is not None),
                key=lambda f: f.version, default=None)
    if first is not None:
        return bad(first.version, first.reason, checked.rounds_verified,
                   checked.draws_verified, checked.seeds)
    return VerifyReport(game_id, True, len(rows), checked.rounds_verified,
                        checked.draws_verified, None, None, checked.ended, checked.seeds)
