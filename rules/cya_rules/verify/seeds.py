"""The seeds of a game's deal, checked (rules version 4, docs/fair-shuffle.md §7): that the
master seed dealt with is the one `game_created` committed to, and that `game_started` names
the client seed each seat last sent before the deal (a bot's derived from the master seed,
the empty value for a seat that sent none). That every round's seed derives from them is the
shuffle audit's (`cya_rules.replay`), which folds the deal key in from `game_started`. Also
that `game_started` deals with the rule set `game_created` announced.

Pure: give it the game's events, unredacted, in log order. The server's `GET /verify` and the
offline `cya-verify` both run it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import msgspec

from cya_rules.client_seeds import SeedSource
from cya_rules.docs import doc
from cya_rules.events import GameStarted
from cya_rules.log.codec import AnyEvent
from cya_rules.table.lobby import GameCreated, Lobby, LobbyEvent, evolve_lobby
from cya_rules.table.seeds import client_seeds_at_deal, commitment_of


class SeatSeed(msgspec.Struct, frozen=True):
    """One seat's client seed, as the deal took it."""

    seat: Annotated[int, doc("The seat, 0-based.")]
    seed: Annotated[str, doc("Its client seed, hex (empty: none).")]
    source: Annotated[SeedSource, doc("player, bot (from the master seed) or none.")]


class SeedsReport(msgspec.Struct, frozen=True):
    """The seeds of the deal, as `GET /verify` checked them (rules version 4)."""

    seed_sha256: Annotated[str | None, doc(
        "The master seed's SHA-256 (hex) that `game_created` published; null for a game"
        " created before rules version 4, whose seed was drawn at the deal.")]
    commitment_verified: Annotated[bool, doc(
        "The master seed `game_started` dealt with hashes to `seed_sha256`.")]
    client_seeds: Annotated[list[SeatSeed] | None, doc(
        "Every seat's client seed as `game_started` names it, checked against what each seat"
        " sent before the deal; null when the deal takes none (an older rules version, a"
        " tournament's table) or the game has not started.")]


class SeedsCheck(msgspec.Struct, frozen=True):
    report: SeedsReport
    index: int | None = None  # the event found wrong, in the list given; None: none
    reason: str | None = None


def check_seeds(events: Sequence[AnyEvent]) -> SeedsCheck:
    created = events[0] if events and isinstance(events[0], GameCreated) else None
    committed = created.seed_sha256 if created is not None else None
    report = SeedsReport(committed, False, None)
    if created is None:
        return SeedsCheck(report, 0, "the log does not open with game_created")
    if created.ruleset.since(4) and committed is None:
        return SeedsCheck(report, 0, "game_created commits to no master seed")
    if committed is not None and (created.master_seed is None
                                  or commitment_of(created.master_seed) != committed):
        return SeedsCheck(report, 0, "game_created's master seed is not the one it commits to")
    lobby: Lobby | None = None
    for i, ev in enumerate(events):
        if isinstance(ev, GameStarted):
            assert lobby is not None  # events[0] is game_created
            return _at_deal(created, lobby, ev, i)
        if isinstance(ev, LobbyEvent):
            lobby = evolve_lobby(lobby, ev)
    return SeedsCheck(report)  # not dealt (yet): nothing more to check


def _at_deal(created: GameCreated, lobby: Lobby, started: GameStarted, i: int) -> SeedsCheck:
    committed = created.seed_sha256
    if started.ruleset != created.ruleset:
        return SeedsCheck(SeedsReport(committed, False, None), i, "game_started deals with "
                          "another rule set than the one game_created announced")
    verified = committed is not None and started.seed is not None \
        and commitment_of(started.seed) == committed
    shown = None if started.client_seeds is None else [
        SeatSeed(c.seat, c.seed.hex(), c.source) for c in started.client_seeds]
    report = SeedsReport(committed, verified, shown)
    if committed is None:
        return SeedsCheck(report, i, "client seeds in a game that committed to no master "
                          "seed") if started.client_seeds is not None else SeedsCheck(report)
    if not verified:
        return SeedsCheck(report, i, "the master seed dealt with is not the one game_created "
                                     "committed to")
    assert started.seed is not None
    expected = client_seeds_at_deal(started.seed, lobby.seats, lobby.client_seeds) \
        if created.client_seeds else None
    if started.client_seeds != expected:
        return SeedsCheck(report, i, "game_started's client seeds are not the ones the seats "
                          "sent before the deal" if expected is not None else
                          "client seeds in a game dealt without them (a tournament's table)")
    return SeedsCheck(report)
