"""Waiting for a cluster's state: how long it took, or a clear failure."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(ready: Callable[[], bool], timeout_s: float, what: str, step_s: float = 0.1
             ) -> float:
    """Seconds until `ready()`; SystemExit naming `what` after `timeout_s`."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if ready():
            return time.monotonic() - started
        time.sleep(step_s)
    raise SystemExit(f"waited {timeout_s:.0f} s for {what}")
