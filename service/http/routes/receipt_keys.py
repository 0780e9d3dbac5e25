"""GET /v1/receipt-keys: the public keys that verify receipts (docs/receipts.md)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, get

from cya_rules.docs import doc
from cya_rules.log.receipts import DOMAIN
from service.http.context import refuse_unknown_query, runtime_of
from service.http.openapi import PublicOperation
from service.http.problems import problem_responses
from service.receipts import PublicKey


class ReceiptKeys(msgspec.Struct):
    """The keys that verify this service's receipts: the one that signs now, and the retired
    ones, still listed so the receipts they signed keep verifying."""

    signing_key_id: Annotated[str, doc("The id of the key that signs new receipts.")]
    keys: Annotated[list[PublicKey], doc("Every key, the signing one first.")]
    message_prefix: Annotated[str, doc(
        "The domain-separation prefix of the signed message (docs/receipts.md).")]


@get("/v1/receipt-keys", operation_id="listReceiptKeys", summary="The keys that verify receipts",
     description="Public: no key needed. Keep a copy: with it, the receipts you hold verify "
     "offline, and a retired key stays listed as long as its receipts may be checked.",
     tags=["audit"], responses=problem_responses(400, 429, database=False),
     operation_class=PublicOperation, before_request=refuse_unknown_query)
async def list_receipt_keys(request: Request[Any, Any, Any]) -> ReceiptKeys:
    ring = runtime_of(request).services.receipt_keys
    return ReceiptKeys(ring.signing_key_id, list(ring.public_keys), DOMAIN.decode())
