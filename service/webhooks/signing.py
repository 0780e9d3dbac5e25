"""Secrets and signatures, per Standard Webhooks: `webhook-id`, `webhook-timestamp` and
`webhook-signature` (HMAC-SHA256 of `id.timestamp.body`), made by the `standardwebhooks`
package so receivers verify with the same code."""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """24 random bytes, base64, with the spec's `whsec_` prefix."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def signed_headers(secret: str, message_id: str, body: bytes,
                   at: datetime | None = None) -> dict[str, str]:
    at = at or datetime.now(UTC)
    signature = Webhook(secret).sign(message_id, at, body.decode())
    return {"webhook-id": message_id, "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": signature, "content-type": "application/json"}
