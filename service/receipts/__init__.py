"""Signed receipts: what the server told a reader about a game's log, signed with Ed25519, so
the reader can later show a third party a history that disagrees with it (docs/receipts.md).
The format is `cya_rules.log.receipts`, shared with the offline verifier."""

from cya_rules.log.receipts import Receipt, receipt_message, salt_of, seal_of
from service.receipts.keyring import KeyRing, KeyRingError, PublicKey, load_key_ring
from service.receipts.signing import ReceiptSigner

__all__ = ["KeyRing", "KeyRingError", "PublicKey", "Receipt", "ReceiptSigner", "load_key_ring",
           "receipt_message", "salt_of", "seal_of"]
