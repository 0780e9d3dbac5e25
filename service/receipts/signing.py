"""The server's side of receipts: signing, once per (game, version, chain hash). What a
receipt is and what its signature covers are in `cya_rules.log.receipts` (docs/receipts.md),
shared with the offline verifier.

Why a seal and not the bare chain hash: the chain hash covers hidden events (another seat's
draw), and a reader who holds the hash before and after one such event could try every card
until the hash matches. The salt is a secret per game until its history opens, when the history
carries it (`receipt_salt`): then anyone computes the seal from the history and compares. The
signed salt commitment ties the published salt to the receipt: a salt made up later (to make a
history seem to disagree, or agree) does not match it.

Ed25519 is deterministic: every process with the same key signs the same bytes, so a receipt
is the same whoever answered.
"""

from __future__ import annotations

from cya_rules.log.receipts import (
    Receipt,
    commitment_of_salt,
    receipt_message,
    salt_of,
    seal_of,
)
from service.receipts.keyring import KeyRing

CACHE_SIZE = 8192


class ReceiptSigner:
    """Signs receipts with the ring's current key, once per (game, version, chain hash): every
    reader of that version gets the same receipt from the cache."""

    def __init__(self, ring: KeyRing, cache_size: int = CACHE_SIZE) -> None:
        self.ring = ring
        self._cache: dict[tuple[str, int, str], Receipt] = {}
        self._salts: dict[str, bytes] = {}
        self._cache_size = cache_size
        self.signed = 0  # signatures made, for tests that check the cache

    def salt(self, game_id: str) -> bytes:
        found = self._salts.get(game_id)
        if found is None:
            if len(self._salts) >= self._cache_size:
                del self._salts[next(iter(self._salts))]
            found = self._salts[game_id] = salt_of(self.ring.seal_secret, game_id)
        return found

    def receipt(self, game_id: str, version: int, chain_hash: str) -> Receipt:
        key = (game_id, version, chain_hash)
        found = self._cache.get(key)
        if found is not None:
            return found
        salt = self.salt(game_id)
        seal, commitment = seal_of(salt, chain_hash), commitment_of_salt(salt)
        key_id = self.ring.signing_key_id
        signature = self.ring.signing_key.sign(
            receipt_message(game_id, version, commitment, seal, key_id))
        found = Receipt(game_id, version, commitment, seal, key_id, signature.hex())
        self.signed += 1
        if len(self._cache) >= self._cache_size:  # the oldest first: readers want recent ones
            del self._cache[next(iter(self._cache))]
        self._cache[key] = found
        return found
