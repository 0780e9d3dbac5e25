"""Provably fair randomness: every random choice of a round comes from its 256-bit seed.

The algorithm is specified, with a worked example, in docs/fair-shuffle.md; keep the two in step.

- A *stream* for (seed, label) is the byte sequence
  HMAC-SHA-256(key=seed, msg=label_utf8 || counter as 8-byte big-endian), counter = 0, 1, 2, …
  read as consecutive unsigned 32-bit big-endian words.
- ``uniform(n)`` draws words w until w < 2**32 - (2**32 mod n) (rejection, so no modulo bias)
  and returns w mod n.
- The deck is shuffled by Fisher–Yates: for i from len-1 down to 1, j = uniform(i + 1), swap
  positions i and j. Position 0 of the result is the top of the deck (the first card dealt).
- Round seeds derive from the game's master seed: HMAC-SHA-256(key=master, msg="round:<n>").
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD = struct.Struct(">8I")
_COUNTER = struct.Struct(">Q")


class SeedStream:
    """Unbiased uniform integers from HMAC-SHA-256(seed, label || counter)."""

    def __init__(self, seed: bytes, label: str) -> None:
        self._words = self._generate(seed, label.encode())

    @staticmethod
    def _generate(seed: bytes, label: bytes) -> Iterator[int]:
        counter = 0
        while True:
            block = hmac.new(seed, label + _COUNTER.pack(counter), hashlib.sha256).digest()
            yield from _WORD.unpack(block)
            counter += 1

    def uniform(self, n: int) -> int:
        if not 0 < n <= 2**32:
            raise ValueError("n must be in 1..2**32")
        limit = 2**32 - (2**32 % n)
        for word in self._words:
            if word < limit:
                return word % n
        raise AssertionError("unreachable: the stream is infinite")


def shuffled(cards: Sequence[T], seed: bytes, label: str = "deck") -> list[T]:
    deck = list(cards)
    stream = SeedStream(seed, label)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def round_seed(master_seed: bytes, round_no: int) -> bytes:
    return hmac.new(master_seed, f"round:{round_no}".encode(), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """What the round's first event publishes before any card is seen: SHA-256 of the seed."""
    return hashlib.sha256(seed).hexdigest()
