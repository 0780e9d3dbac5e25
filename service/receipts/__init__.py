"""Signed receipts: what the server told a reader about a game's log, signed with Ed25519, so
the reader can later show a third party a history that disagrees with it (docs/receipts.md)."""

from service.receipts.keyring import KeyRing, KeyRingError, PublicKey, load_key_ring
from service.receipts.signing import ReceiptSigner, receipt_message, salt_of, seal_of
from service.table.receipt import Receipt

__all__ = ["KeyRing", "KeyRingError", "PublicKey", "Receipt", "ReceiptSigner", "load_key_ring",
           "receipt_message", "salt_of",
           "seal_of"]
