"""Receipts a player kept, checked against a history with the server's public keys alone
(docs/receipts.md): each was signed by the key it names, is for this game, commits to the salt
the history was published with, and seals the history's chain hash at its version.

Signatures need `cryptography` (`pip install 'cya-rules[receipts]'`), imported only here and
only when receipts are checked: the rest of `cya-verify` runs without it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from cya_rules.log.receipts import Receipt, commitment_of_salt, message_of, seal_of

INSTALL_HINT = "pip install 'cya-rules[receipts]' (the cryptography package)"


class ReceiptsUnavailable(RuntimeError):
    """`cryptography` is not installed: receipts cannot be checked."""


class _Key(msgspec.Struct):
    key_id: str
    public_key: str
    algorithm: str = "Ed25519"


class _Keys(msgspec.Struct):
    keys: list[_Key]


def load_keys(document: bytes) -> dict[str, str]:
    """key id → hex public key, from what `GET /v1/receipt-keys` answers (saved as JSON)."""
    keys = msgspec.json.decode(document, type=_Keys).keys
    return {k.key_id: k.public_key for k in keys if k.algorithm == "Ed25519"}


def receipts_path(directory: Path, game_id: str) -> Path:
    """Where the SDK's `ReceiptBox` keeps a game's receipts: one NDJSON line a receipt."""
    return directory / f"{game_id}.receipts.ndjson"


def load_receipts(path: Path) -> list[Receipt]:
    decoder = msgspec.json.Decoder(Receipt)
    found = [decoder.decode(line) for line in path.read_bytes().split(b"\n") if line.strip()]
    return sorted(found, key=lambda r: r.version)


def key_id_of(public_key_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


@functools.cache
def _public_key(public_hex: str) -> Any:
    """The key, loaded once for all the receipts it signed (`None`: not a key)."""
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        raise ReceiptsUnavailable(f"cannot check signatures: {INSTALL_HINT}") from None
    try:
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
    except ValueError:
        return None


def signature_holds(receipt: Receipt, keys: Mapping[str, str]) -> bool:
    """Whether the receipt was signed by the key it names, one of `keys`."""
    public = keys.get(receipt.key_id)
    key = None if public is None or key_id_of(public) != receipt.key_id else _public_key(public)
    if key is None:
        return False
    from cryptography.exceptions import InvalidSignature
    try:
        key.verify(bytes.fromhex(receipt.signature), message_of(receipt))
    except (InvalidSignature, ValueError):
        return False
    return True


def receipt_problem(receipt: Receipt, game_id: str, hashes: Sequence[str], salt: bytes | None,
                    keys: Mapping[str, str]) -> str | None:
    """What is wrong with one receipt against the history (its recomputed chain `hashes`,
    published with `salt`), or None when it agrees."""
    if receipt.key_id not in keys:
        return f"signed by key {receipt.key_id}, which KEYS does not list"
    if not signature_holds(receipt, keys):
        return "its signature does not verify with the key it names: forged or altered"
    if receipt.game_id != game_id:
        return f"it is a receipt of game {receipt.game_id}, not of this one"
    if salt is None:
        return "no receipt salt (the history's Cya-Receipt-Salt) to compare it with"
    if commitment_of_salt(salt) != receipt.salt_commitment:
        return "the history's salt is not the one the receipt commits to"
    if receipt.version > len(hashes):
        return (f"the server signed version {receipt.version}; the history ends at "
                f"{len(hashes)}")
    if not hmac.compare_digest(seal_of(salt, hashes[receipt.version - 1]), receipt.chain_seal):
        return (f"the history at version {receipt.version} is not the log the server "
                "signed: it was rewritten")
    return None
