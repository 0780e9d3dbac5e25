"""A receipt: the server's signature over a game's id, a version and the log's hash chain at
that version, sealed (docs/receipts.md).

    salt(game)      = HMAC-SHA-256(seal secret, "cya-receipt-salt\\n" || game_id)
    salt_commitment = hex SHA-256(salt(game))
    chain_seal      = hex HMAC-SHA-256(salt(game), hex chain hash at the version, as ASCII)
    signed message  = "cya-receipt-v1\\n" || game_id "\\n" version "\\n" salt_commitment "\\n"
                      chain_seal "\\n" key_id
    signature       = hex Ed25519(signing key, signed message)

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

import hashlib
import hmac

from service.receipts.keyring import KeyRing
from service.table.receipt import Receipt

DOMAIN = b"cya-receipt-v1\n"
SALT_DOMAIN = b"cya-receipt-salt\n"
CACHE_SIZE = 8192


def receipt_message(game_id: str, version: int, salt_commitment: str, chain_seal: str,
                    key_id: str) -> bytes:
    """The bytes a receipt's signature covers."""
    return DOMAIN + f"{game_id}\n{version}\n{salt_commitment}\n{chain_seal}\n{key_id}".encode()


def salt_of(seal_secret: bytes, game_id: str) -> bytes:
    """The game's salt: secret until its history opens, which carries it."""
    return hmac.new(seal_secret, SALT_DOMAIN + game_id.encode(), hashlib.sha256).digest()


def seal_of(salt: bytes, chain_hash: str) -> str:
    return hmac.new(salt, chain_hash.encode("ascii"), hashlib.sha256).hexdigest()


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
        seal, commitment = seal_of(salt, chain_hash), hashlib.sha256(salt).hexdigest()
        key_id = self.ring.signing_key_id
        signature = self.ring.signing_key.sign(
            receipt_message(game_id, version, commitment, seal, key_id))
        found = Receipt(game_id, version, commitment, seal, key_id, signature.hex())
        self.signed += 1
        if len(self._cache) >= self._cache_size:  # the oldest first: readers want recent ones
            del self._cache[next(iter(self._cache))]
        self._cache[key] = found
        return found
