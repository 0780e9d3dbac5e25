"""Secrets and signatures, per Standard Webhooks: `webhook-id`, `webhook-timestamp` and
`webhook-signature` (HMAC-SHA256 of `id.timestamp.body`), made by the `standardwebhooks`
package so receivers verify with the same code.

A rotated secret keeps signing beside the new one for an overlap (`secret_overlap_s`): the
header then carries both signatures, space-separated, as the specification allows, and a
receiver that verifies with either secret accepts the request. So a receiver switches to its
new secret whenever it likes within the overlap, and loses no message meanwhile.
"""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from standardwebhooks.webhooks import Webhook

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """24 random bytes, base64, with the spec's `whsec_` prefix."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def rotated(table: sa.Table, overlap_s: float, now: datetime) -> dict[str, Any]:
    """The values that rotate a row's secret: a new one, and the old one kept signing until
    `overlap_s` from now (one overlap at a time: a second rotation ends the first's)."""
    keep = overlap_s > 0
    return {"secret": new_secret(),
            "previous_secret": table.c.secret if keep else None,  # the value before the update
            "previous_secret_until": now + timedelta(seconds=overlap_s) if keep else None}


def signing_secrets(secret: str, previous: str | None, previous_until: datetime | None,
                    at: datetime) -> tuple[str, ...]:
    """The secrets a request made `at` is signed with: the current one, and the previous one
    while its overlap lasts."""
    if previous is not None and previous_until is not None and at < previous_until:
        return (secret, previous)
    return (secret,)


def signed_headers(keys: tuple[str, ...], message_id: str, body: bytes,
                   at: datetime | None = None) -> dict[str, str]:
    """Signed with each of `keys` (one signature each, space-separated)."""
    at = at or datetime.now(UTC)
    text = body.decode()
    signature = " ".join(Webhook(key).sign(message_id, at, text) for key in keys)
    return {"webhook-id": message_id, "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": signature, "content-type": "application/json"}
