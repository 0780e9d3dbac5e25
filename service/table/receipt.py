"""The shape of a signed receipt, as answers carry it (`GET /turn` inside a `Turn`, the routes'
own answers beside it). It is only data: `service/receipts/` signs it, docs/receipts.md says
how."""

from __future__ import annotations

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
