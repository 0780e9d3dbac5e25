"""Every seat adds to the randomness (rules version 4, docs/fair-shuffle.md §7).

The server commits to its master seed M when the game is created; each seat contributes a
client seed of at most 64 bytes before the deal; the round seeds then derive from the *deal
key*, which mixes M with every client seed in seat order:

    K = HMAC-SHA-256(key = M, message = "seats:" || uint8(n) || for each seat: uint8(len) || seed)
    round n's seed = HMAC-SHA-256(key = K, message = "round:" || decimal(n))   (shuffle.round_seed)

A bot seat's seed is HMAC-SHA-256(key = M, message = "bot:" || decimal(seat)): fixed by the
commitment, so the server gains no choice from it. A game with no client seeds (older rules
versions, a tournament's committed deal) keeps K = M, the derivation of before. Pure.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec

from .docs import doc

MAX_CLIENT_SEED = 64  # bytes: enough for any CSPRNG's output, short enough to log in full
MASTER_SEED = 32  # bytes

SeedSource = Literal["player", "bot", "none"]


class ClientSeed(msgspec.Struct, frozen=True, gc=False):
    """One seat's contribution to the deal, as `game_started` names it."""

    seat: Annotated[int, doc("The seat, 0-based.")]
    seed: Annotated[bytes, doc(
        "The seat's client seed (0 to 64 bytes; JSON: standard base64). Empty when the seat's"
        " player sent none.")]
    source: Annotated[SeedSource, doc(
        "player: sent by the seat's player. bot: a bot seat's, HMAC-SHA-256(master seed,"
        " \"bot:<seat>\"), fixed by the commitment at creation. none: the player sent none, so"
        " the seat contributes the empty value.")]


def bot_seed(master_seed: bytes, seat: int) -> bytes:
    return hmac.new(master_seed, f"bot:{seat}".encode(), hashlib.sha256).digest()


def seats_message(seeds: Sequence[bytes]) -> bytes:
    """The length-prefixed encoding of the seats' seeds: ("ab", "c") and ("a", "bc") differ."""
    if len(seeds) > 255 or any(len(s) > MAX_CLIENT_SEED for s in seeds):
        raise ValueError(f"at most 255 seats and {MAX_CLIENT_SEED} bytes a seed")
    out = bytearray(b"seats:")
    out.append(len(seeds))
    for seed in seeds:
        out.append(len(seed))
        out += seed
    return bytes(out)


def deal_key(master_seed: bytes, client_seeds: Sequence[ClientSeed] | None) -> bytes:
    """The key round seeds derive from: M itself without client seeds (None: older rules
    versions, a tournament's committed deal), else M mixed with every seat's seed."""
    if client_seeds is None:
        return master_seed
    ordered = [c.seed for c in sorted(client_seeds, key=lambda c: c.seat)]
    return hmac.new(master_seed, seats_message(ordered), hashlib.sha256).digest()


def client_seeds_problem(client_seeds: Sequence[ClientSeed], players: int) -> str | None:
    """What is wrong with a game's client seeds, if anything: one per seat, in seat order,
    each at most 64 bytes, empty exactly when its source is none."""
    if [c.seat for c in client_seeds] != list(range(players)):
        return f"client seeds must name every seat once, in order (0 to {players - 1})"
    for c in client_seeds:
        if len(c.seed) > MAX_CLIENT_SEED:
            return f"seat {c.seat}'s client seed is longer than {MAX_CLIENT_SEED} bytes"
        if (c.source == "none") != (not c.seed):
            return f"seat {c.seat}'s client seed is empty exactly when its source is none"
    return None
