"""Signed receipts (docs/receipts.md): their shape, as answers carry it (`GET /turn` inside a
`Turn`, the routes' own answers beside it), and what a signature covers:

    salt(game)      = HMAC-SHA-256(seal secret, "cya-receipt-salt\\n" || game_id)
    salt_commitment = hex SHA-256(salt(game))
    chain_seal      = hex HMAC-SHA-256(salt(game), hex chain hash at the version, as ASCII)
    signed message  = "cya-receipt-v1\\n" || game_id "\\n" version "\\n" salt_commitment "\\n"
                      chain_seal "\\n" key_id

The server signs (`service/receipts/`, with the private key); `cya-verify` checks
(`cya_rules.verify.receipts`, with the public key). Both build the message here.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Annotated

import msgspec

from cya_rules.docs import doc


class Receipt(msgspec.Struct, frozen=True, gc=False):
    """The server's signed word on a game's log at one version (docs/receipts.md): keep it,
    and a history that disagrees with it later is evidence against the server."""

    game_id: Annotated[str, doc("The game's id.")]
    version: Annotated[int, doc("The version the receipt is for: the number of events in "
                                 "the log it covers.")]
    salt_commitment: Annotated[str, doc(
        "Hex SHA-256 of the game's `receipt_salt` (the same for every receipt of the game): it"
        " binds the salt the history publishes to this receipt.")]
    chain_seal: Annotated[str, doc(
        "Hex HMAC-SHA-256, keyed with the game's `receipt_salt` (published with its history),"
        " of the log's hash chain at `version` (the history line's `hash`) as ASCII.")]
    key_id: Annotated[str, doc("The signing key's id, as `GET /v1/receipt-keys` lists it.")]
    signature: Annotated[str, doc(
        "Hex Ed25519 signature of `cya-receipt-v1\\n` + game_id + `\\n` + version + `\\n` + "
        "salt_commitment + `\\n` + chain_seal + `\\n` + key_id (UTF-8, version in decimal).")]


DOMAIN = b"cya-receipt-v1\n"
SALT_DOMAIN = b"cya-receipt-salt\n"


def receipt_message(game_id: str, version: int, salt_commitment: str, chain_seal: str,
                    key_id: str) -> bytes:
    """The bytes a receipt's signature covers."""
    return DOMAIN + f"{game_id}\n{version}\n{salt_commitment}\n{chain_seal}\n{key_id}".encode()


def message_of(receipt: Receipt) -> bytes:
    return receipt_message(receipt.game_id, receipt.version, receipt.salt_commitment,
                           receipt.chain_seal, receipt.key_id)


def salt_of(seal_secret: bytes, game_id: str) -> bytes:
    """The game's salt: secret until its history opens, which carries it."""
    return hmac.new(seal_secret, SALT_DOMAIN + game_id.encode(), hashlib.sha256).digest()


def seal_of(salt: bytes, chain_hash: str) -> str:
    return hmac.new(salt, chain_hash.encode("ascii"), hashlib.sha256).hexdigest()


def commitment_of_salt(salt: bytes) -> str:
    return hashlib.sha256(salt).hexdigest()
