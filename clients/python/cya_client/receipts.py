"""Receipts: keep the ones the server hands out, verify them with its public key alone, and
turn one that a history disagrees with into a statement anyone can check (docs/receipts.md).

Verification needs `cryptography` (`pip install 'cya-client[receipts]'`): the library the
server signs with, so both sides run the same Ed25519 implementation. Keeping receipts needs
nothing more than the client itself.

A receipt signs a *seal* of the log's hash chain, not the hash itself: the hash covers hidden
cards, which a reader holding consecutive hashes could find by trying each one. The seal is
HMAC-SHA-256 keyed with the game's salt, which the history publishes once it is open; the
receipt signs the salt's SHA-256, so the published salt is bound to it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from cya_client.models import Receipt, ReceiptKeys

DOMAIN = b"cya-receipt-v1\n"
STATEMENT = "cya-receipt-disagreement-v1"
GENESIS_HASH = "0" * 64
_encode = msgspec.json.Encoder().encode


class ReceiptError(ValueError):
    """A receipt, a history or a statement that does not check out; the message says why."""


# -- the receipt itself -------------------------------------------------------------------


def receipt_message(receipt: Receipt) -> bytes:
    """The bytes a receipt's signature covers."""
    return DOMAIN + (f"{receipt.game_id}\n{receipt.version}\n{receipt.salt_commitment}\n"
                     f"{receipt.chain_seal}\n{receipt.key_id}").encode()


def key_id_of(public_key_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


def public_keys_of(keys: ReceiptKeys | Mapping[str, str]) -> dict[str, str]:
    """key id → hex public key, from `GET /v1/receipt-keys` or a mapping already."""
    if isinstance(keys, ReceiptKeys):
        return {k.key_id: k.public_key for k in keys.keys}
    return dict(keys)


def verify_receipt(receipt: Receipt, keys: ReceiptKeys | Mapping[str, str]) -> bool:
    """Whether the receipt was signed by the key it names, one of `keys`."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    public = public_keys_of(keys).get(receipt.key_id)
    if public is None or key_id_of(public) != receipt.key_id:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(
            bytes.fromhex(receipt.signature), receipt_message(receipt))
    except (InvalidSignature, ValueError):
        return False
    return True


def seal_of(salt_hex: str, chain_hash: str) -> str:
    return hmac.new(bytes.fromhex(salt_hex), chain_hash.encode("ascii"),
                    hashlib.sha256).hexdigest()


def salt_matches(receipt: Receipt, salt_hex: str) -> bool:
    return hashlib.sha256(bytes.fromhex(salt_hex)).hexdigest() == receipt.salt_commitment


# -- histories ----------------------------------------------------------------------------


class _Line(msgspec.Struct):
    version: int
    type: str
    schema_version: int
    visibility: str
    command_id: str | None
    actor: str | None
    hash: str
    data: msgspec.Raw


def history_lines(ndjson: bytes) -> list[bytes]:
    return [line for line in ndjson.split(b"\n") if line.strip()]


def chain_hashes(game_id: str, lines: Iterable[bytes], start: str = GENESIS_HASH,
                 first_version: int = 1) -> list[str]:
    """The hash chain recomputed from history lines (`GET /history`, as sent), from `start`
    (the hash before `first_version`): each line's `hash` is checked against it."""
    hashes, h, expected = [], start, first_version
    for raw in lines:
        line = msgspec.json.decode(raw, type=_Line)
        if line.version != expected:
            raise ReceiptError(f"line {line.version} where {expected} was due")
        header = _encode([game_id, line.version, line.type, line.schema_version,
                          line.visibility, line.command_id, line.actor])
        digest = hashlib.sha256(h.encode("ascii"))
        digest.update(header)
        digest.update(b"\n")
        digest.update(bytes(line.data))
        h = digest.hexdigest()
        if line.hash != h:
            raise ReceiptError(f"line {line.version}: its hash is not the chain's")
        hashes.append(h)
        expected += 1
    return hashes


def agrees(receipt: Receipt, lines: list[bytes], salt_hex: str) -> bool:
    """Whether a game's history (its lines) agrees with the receipt."""
    if not salt_matches(receipt, salt_hex):
        raise ReceiptError("the salt is not the one the receipt commits to")
    hashes = chain_hashes(receipt.game_id, lines)
    if receipt.version > len(hashes):
        return False  # the history ends before the version the server signed
    return hmac.compare_digest(seal_of(salt_hex, hashes[receipt.version - 1]),
                               receipt.chain_seal)


# -- the statement ------------------------------------------------------------------------


def statement_of(receipt: Receipt, lines: list[bytes], salt_hex: str,
                 keys: ReceiptKeys | Mapping[str, str],
                 history_receipt: Receipt | None = None) -> dict[str, Any] | None:
    """A statement that the history (`lines`, with its `salt`) disagrees with `receipt`, for a
    third party to check with the public key alone (`check_statement`); None if they agree.

    With `history_receipt` (the receipt the history came with) it also carries the history's
    lines after the receipt's version: then it shows the server signed both, that is, it
    told two different stories about one version."""
    public = public_keys_of(keys).get(receipt.key_id)
    if public is None or not verify_receipt(receipt, keys):
        raise ReceiptError("the receipt does not verify: it proves nothing")
    if agrees(receipt, lines, salt_hex):
        return None
    hashes = chain_hashes(receipt.game_id, lines)
    held = hashes[receipt.version - 1] if receipt.version <= len(hashes) else None
    statement: dict[str, Any] = {
        "statement": STATEMENT, "receipt": msgspec.to_builtins(receipt),
        "key_id": receipt.key_id, "public_key": public, "receipt_salt": salt_hex,
        "history_version": len(hashes), "history_chain_hash": held}
    if history_receipt is not None and held is not None:
        if not verify_receipt(history_receipt, keys) or history_receipt.version != len(hashes):
            raise ReceiptError("the history's receipt does not verify for this history")
        statement["history_receipt"] = msgspec.to_builtins(history_receipt)
        statement["history_public_key"] = public_keys_of(keys)[history_receipt.key_id]
        statement["history_tail"] = [line.decode() for line in lines[receipt.version:]]
    return statement


def check_statement(statement: Mapping[str, Any]) -> str:
    """Checks a statement with the public keys it names alone; raises `ReceiptError` when it
    does not hold. Returns what it shows: `disagrees` (the receipt is genuine, and a history
    whose hash at its version is the one stated is not what it signed), or `two_stories` (the
    server also signed that history's end: it signed two logs for one version)."""
    if statement.get("statement") != STATEMENT:
        raise ReceiptError("not a receipt statement")
    receipt = msgspec.convert(statement["receipt"], Receipt)
    keys = {statement["key_id"]: statement["public_key"]}
    if receipt.key_id != statement["key_id"] or not verify_receipt(receipt, keys):
        raise ReceiptError("the receipt's signature does not verify with the public key")
    salt = statement["receipt_salt"]
    if not salt_matches(receipt, salt):
        raise ReceiptError("the salt is not the one the receipt commits to")
    held = statement.get("history_chain_hash")
    if held is None:
        if statement["history_version"] >= receipt.version:
            raise ReceiptError("no hash is stated though the history reaches the version")
        return "disagrees"  # the history stops short of what the server signed
    if hmac.compare_digest(seal_of(salt, held), receipt.chain_seal):
        raise ReceiptError("the stated hash agrees with the receipt")
    if "history_receipt" not in statement:
        return "disagrees"
    end = msgspec.convert(statement["history_receipt"], Receipt)
    end_keys = {end.key_id: statement["history_public_key"]}
    if end.game_id != receipt.game_id or not verify_receipt(end, end_keys):
        raise ReceiptError("the history's receipt does not verify")
    tail = [line.encode() for line in statement["history_tail"]]
    hashes = chain_hashes(receipt.game_id, tail, start=held, first_version=receipt.version + 1)
    last = hashes[-1] if hashes else held
    if end.version != receipt.version + len(tail) or not hmac.compare_digest(
            seal_of(salt, last), end.chain_seal):
        raise ReceiptError("the history's tail does not lead to its receipt")
    return "two_stories"


# -- keeping them -------------------------------------------------------------------------


class ReceiptBox:
    """The receipts of the games a client plays, kept in `directory`: one NDJSON file per
    game, one receipt per version (the first seen), appended as they come."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._seen: dict[str, set[int]] = {}
        self._lock = threading.Lock()

    def path(self, game_id: str) -> Path:
        if not game_id.replace("-", "").replace("_", "").isalnum():
            raise ReceiptError(f"not a game id: {game_id!r}")
        return self.directory / f"{game_id}.receipts.ndjson"

    def keep(self, receipt: object) -> None:
        """Keeps `receipt`; anything else (None, a field left out) is ignored."""
        if not isinstance(receipt, Receipt):
            return
        with self._lock:
            seen = self._seen.get(receipt.game_id)
            if seen is None:
                seen = self._seen[receipt.game_id] = {r.version for r in
                                                      self.load(receipt.game_id)}
            if receipt.version in seen:
                return
            seen.add(receipt.version)
            self.directory.mkdir(parents=True, exist_ok=True)
            with self.path(receipt.game_id).open("ab") as out:
                out.write(_encode(receipt) + b"\n")

    def load(self, game_id: str) -> list[Receipt]:
        """The game's receipts kept, by version."""
        path = self.path(game_id)
        if not path.exists():
            return []
        found = [msgspec.json.decode(line, type=Receipt) for line in path.read_bytes().split(b"\n")
                 if line.strip()]
        return sorted(found, key=lambda r: r.version)


def dump_statement(statement: Mapping[str, Any]) -> str:
    return json.dumps(statement, indent=2, sort_keys=True) + "\n"


__all__ = ["ReceiptBox", "ReceiptError", "agrees", "chain_hashes", "check_statement",
           "dump_statement", "history_lines", "receipt_message", "statement_of",
           "verify_receipt"]
