"""The shape of liveness and readiness (`routes/health.py`)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from cya_rules.docs import doc


class Health(msgspec.Struct):
    """Liveness (`GET /v1/healthz`) or readiness (`GET /v1/readyz`, a 503 when not ready)."""

    status: Annotated[
        Literal["ok", "unavailable"], doc("`ok`, or `unavailable` when a readiness check fails.")
    ]
    checks: Annotated[
        dict[str, str],
        doc("Readiness only: each check by name (`database`; `redis` when configured), with"
            " `ok` or why not."),
    ] = {}
