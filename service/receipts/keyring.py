"""The receipt keys: the current Ed25519 signing key, the retired ones (listed for
verification, never signing), and the seal secret that hides chain hashes until a game's
history is open (`signing.seal_of`).

A key ring is one JSON document (docs/receipts.md):

    {"seal_secret": "<64 hex>",
     "keys": [{"private_key": "<64 hex: the raw 32-byte Ed25519 seed>",
               "created_at": "2026-12-06T19:00:00Z", "retired_at": null}, ...]}

The key that signs is the one key with no `retired_at`; a retired key may keep only its
`public_key` (64 hex). A key's id is derived from its public key (`key_id_of`), so a key and its
id cannot be mismatched. Generated on first start in the embedded default (`load_key_ring` with
a file that does not exist yet), configured in production (`CYA_RECEIPT_KEYS`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ALGORITHM = "Ed25519"
_HEX32 = msgspec.Meta(pattern="^[0-9a-f]{64}$")


class KeyRingError(ValueError):
    """A key ring that cannot be used; the message says why."""


class KeyEntry(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    private_key: Annotated[str, _HEX32] | None = None
    public_key: Annotated[str, _HEX32] | None = None
    created_at: datetime | None = None
    retired_at: datetime | None = None


class KeyRingDocument(msgspec.Struct, forbid_unknown_fields=True):
    seal_secret: Annotated[str, _HEX32]
    keys: list[KeyEntry]


def _doc(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


class PublicKey(msgspec.Struct, frozen=True):
    """A receipt key, as `GET /v1/receipt-keys` lists it."""

    key_id: Annotated[str, _doc("The key's id, as receipts name it: the first 16 hex digits of"
                                " the SHA-256 of the raw public key.")]
    algorithm: Annotated[str, _doc("`Ed25519`.")]
    public_key: Annotated[str, _doc("Hex: the raw 32-byte Ed25519 public key.")]
    created_at: Annotated[datetime | None, _doc("When the key was made, if known.")]
    retired_at: Annotated[datetime | None, _doc(
        "When the key stopped signing: it is listed to verify the receipts it signed before."
        " Null for the key that signs now.")]


def key_id_of(public_key: bytes) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class KeyRing:
    signing_key: Ed25519PrivateKey
    signing_key_id: str
    seal_secret: bytes
    public_keys: tuple[PublicKey, ...]  # the signing key's first

    @classmethod
    def from_document(cls, document: bytes | str) -> KeyRing:
        try:
            doc = msgspec.json.decode(document, type=KeyRingDocument)
        except msgspec.DecodeError as exc:
            raise KeyRingError(f"not a receipt key ring: {exc}") from None
        current = [k for k in doc.keys if k.retired_at is None]
        if len(current) != 1 or current[0].private_key is None:
            raise KeyRingError("a receipt key ring needs exactly one key without `retired_at`, "
                               "with its `private_key`")
        signing = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(current[0].private_key))
        listed: list[PublicKey] = []
        for entry in sorted(doc.keys, key=lambda k: k.retired_at is not None):
            raw = _public_of(entry)
            listed.append(PublicKey(key_id_of(raw), ALGORITHM, raw.hex(), entry.created_at,
                                    entry.retired_at))
        if len({k.key_id for k in listed}) != len(listed):
            raise KeyRingError("a receipt key ring lists one key twice")
        return cls(signing, listed[0].key_id, bytes.fromhex(doc.seal_secret), tuple(listed))

    def verifying_key(self, key_id: str) -> Ed25519PublicKey | None:
        for key in self.public_keys:
            if key.key_id == key_id:
                return Ed25519PublicKey.from_public_bytes(bytes.fromhex(key.public_key))
        return None


def _public_of(entry: KeyEntry) -> bytes:
    if entry.private_key is not None:
        raw = _raw_public(Ed25519PrivateKey.from_private_bytes(
            bytes.fromhex(entry.private_key)).public_key())
        if entry.public_key is not None and entry.public_key != raw.hex():
            raise KeyRingError("a key's `public_key` does not match its `private_key`")
        return raw
    if entry.public_key is None:
        raise KeyRingError("each key needs its `private_key` or (retired) its `public_key`")
    return bytes.fromhex(entry.public_key)


def new_key_entry(now: datetime | None = None) -> KeyEntry:
    return KeyEntry(private_key=secrets.token_bytes(32).hex(),
                    created_at=(now or datetime.now(UTC)).replace(microsecond=0))


def new_key_ring_document() -> bytes:
    """A fresh key ring: one signing key and a seal secret."""
    doc = KeyRingDocument(seal_secret=secrets.token_bytes(32).hex(), keys=[new_key_entry()])
    return msgspec.json.format(msgspec.json.encode(doc), indent=2) + b"\n"


def rotated(document: bytes, *, keep_retired_private: bool = False) -> bytes:
    """The key ring with a new signing key: the old one is retired now, and keeps only its
    public key (unless `keep_retired_private`), so receipts it signed still verify. The seal
    secret stays: it is never rotated (docs/receipts.md)."""
    doc = msgspec.json.decode(document, type=KeyRingDocument)
    now = datetime.now(UTC).replace(microsecond=0)
    keys: list[KeyEntry] = []
    for entry in doc.keys:
        if entry.retired_at is None:
            raw = _public_of(entry)
            entry = KeyEntry(private_key=entry.private_key if keep_retired_private else None,
                             public_key=raw.hex(), created_at=entry.created_at, retired_at=now)
        keys.append(entry)
    out = KeyRingDocument(seal_secret=doc.seal_secret, keys=[new_key_entry(now), *keys])
    KeyRing.from_document(msgspec.json.encode(out))  # still a usable ring
    return msgspec.json.format(msgspec.json.encode(out), indent=2) + b"\n"


def load_key_ring(document: str | None, file: str | None) -> KeyRing:
    """The key ring from `document` (a configured one), else from `file`, which is created
    with a fresh ring first when it does not exist yet (the embedded default), else one made
    for this process alone (tests that build settings in code)."""
    if document:
        return KeyRing.from_document(document)
    if file is None:
        return KeyRing.from_document(new_key_ring_document())
    path = Path(file)
    if not path.exists():
        _create_once(path, new_key_ring_document())
    return KeyRing.from_document(path.read_bytes())


def _create_once(path: Path, content: bytes) -> None:
    """Writes `content` at `path` unless a file is there already, atomically: processes that
    start together all read the one ring the first of them wrote (a link never replaces)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".receipt-keys-")
    try:
        os.fchmod(fd, 0o600)  # a private key: its owner alone reads it
        os.write(fd, content)
        os.fsync(fd)
        os.close(fd)
        with contextlib.suppress(FileExistsError):
            os.link(temp, path)
    finally:
        os.unlink(temp)
