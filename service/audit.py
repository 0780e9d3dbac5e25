"""`verify(game)`: walk the hash chain, then replay the shuffles (domain.audit) on the log."""

from __future__ import annotations

import typing
from typing import Annotated

import msgspec

from .domain import Event
from .domain.audit import audit
from .domain.docs import doc
from .events.chain import event_hash
from .events.store import EventStore
from .game import GENESIS_HASH

_DOMAIN_EVENTS = typing.get_args(Event)


class VerifyReport(msgspec.Struct, frozen=True):
    """What `GET /v1/games/{game_id}/verify` answers: whether the game's hash chain holds and
    every revealed shuffle matches its commitment, its deal and the draws from it."""

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


async def verify(store: EventStore, game_id: str) -> VerifyReport:
    rows = await store.read_as_stored(game_id)
    if not rows:
        return VerifyReport(game_id, False, 0, 0, 0, None, "no such game")

    def bad(version: int, reason: str, rounds: int = 0, draws: int = 0) -> VerifyReport:
        return VerifyReport(game_id, False, len(rows), rounds, draws, version, reason)

    prev = GENESIS_HASH
    log: list[Event] = []
    versions: list[int] = []
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
        if isinstance(ev, _DOMAIN_EVENTS):
            log.append(ev)
            versions.append(r.version)
    result = audit(log) if log else None
    if result is None:
        return VerifyReport(game_id, True, len(rows), 0, 0, None, None)
    if result.finding is not None:
        return bad(versions[result.finding.index], result.finding.reason,
                   result.rounds_verified, result.draws_verified)
    return VerifyReport(game_id, True, len(rows), result.rounds_verified, result.draws_verified,
                        None, None)
