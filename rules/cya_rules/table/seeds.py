"""The seeds of a game's deal, around the lobby (rules version 4, docs/fair-shuffle.md §7): the
master seed the server commits to at creation, each seat's client seed before the deal, and
the client seeds the deal is made with. They travel in the lobby's events, which are then not
public: `game_created` holding the master seed is the server's alone until the game is over
(history); `seat_taken` or `client_seed_set` holding a client seed is its seat's alone until
the deal, when `game_started` names every seat's. Everyone else sees them with the seed null.
Pure like the domain.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Annotated, ClassVar

import msgspec

from cya_rules import RuleCode, RuleViolation
from cya_rules.client_seeds import MAX_CLIENT_SEED, ClientSeed, bot_seed
from cya_rules.docs import doc
from cya_rules.table.seats import BotSeat, SeatHolder

CLIENT_SEED_DOC = (
    "Your seat's contribution to the deal's randomness (rules version 4, docs/fair-shuffle.md"
    " §7): 0 to 64 bytes, standard base64 in JSON, best from a CSPRNG (the web client and the"
    " SDK send 32 random bytes by default). Secret from everyone else until the deal; then"
    " `game_started` names every seat's. Sent again before the deal, it replaces the last one;"
    " none sent: the seat contributes an empty value, and `game_started` says so.")


class ClientSeedSet(msgspec.Struct, frozen=True, gc=False, tag="client_seed_set",
                    tag_field="type"):
    """Before the deal, a seat's player sent its client seed (it replaces any earlier one).
    Only that seat sees the seed; everyone else sees null, until `game_started` names it."""

    SCHEMA_VERSION: ClassVar[int] = 1

    seat: Annotated[int, doc("The seat, 0-based.")]
    seed: Annotated[bytes | None, doc(
        "The client seed (0 to 64 bytes): to its own seat; null to everyone else.")]


def commitment_of(master_seed: bytes) -> str:
    return hashlib.sha256(master_seed).hexdigest()


def checked_client_seed(seed: bytes) -> bytes:
    if len(seed) > MAX_CLIENT_SEED:
        raise RuleViolation(RuleCode.INVALID_SEED, f"A client seed is at most {MAX_CLIENT_SEED} "
                            f"bytes; this one has {len(seed)}.")
    return seed


def client_seeds_at_deal(master_seed: bytes, seats: Sequence[SeatHolder | None],
                         sent: Sequence[bytes]) -> tuple[ClientSeed, ...]:
    """Every seat's client seed as the deal takes it: a bot's from the master seed (fixed by
    the commitment, so no choice of the server's), a player's as sent, or empty if none."""
    out = []
    for seat, holder in enumerate(seats):
        if isinstance(holder, BotSeat):
            out.append(ClientSeed(seat, bot_seed(master_seed, seat), "bot"))
        else:
            seed = sent[seat] if seat < len(sent) else b""
            out.append(ClientSeed(seat, seed, "player" if seed else "none"))
    return tuple(out)
