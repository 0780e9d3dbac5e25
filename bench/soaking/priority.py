"""The soak's clients yield the CPU to the service they measure: on one machine the load
generator (and its Chromium) would otherwise take the service's share, and its event loops
would seem to stall for it. The service's processes (API, workers, PostgreSQL, Redis) keep
the priority the soak was started with; without the privilege to restore it after yielding,
they share the clients' priority."""

from __future__ import annotations

import contextlib
import os

SERVICE = os.getpriority(os.PRIO_PROCESS, 0)  # read before the soak yields
CLIENTS_YIELD = 10


def yield_to_service() -> None:
    os.nice(CLIENTS_YIELD)


def as_service() -> None:
    """A child's `preexec_fn`: the service's priority."""
    with contextlib.suppress(PermissionError):
        os.setpriority(os.PRIO_PROCESS, 0, SERVICE)
