"""What a database error says about the database rather than the request: the HTTP problems
answer each fault with a 503 the client may retry. Each backend names its own driver's faults
(`PostgresEventStore.fault_of`, `SqliteEventStore.fault_of`); SQLAlchemy's and the operating
system's are the same on both, and are named here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum

import sqlalchemy.exc


class Fault(Enum):
    # Refused, lost, starting up, out of connections (or another resource); SQLite's file
    # locked past the busy timeout.
    UNREACHABLE = "unreachable"
    BUSY = "busy"  # every pooled connection of this process stayed busy
    NOT_MIGRATED = "not_migrated"  # a table or column missing: `cya db upgrade` has not run


DriverFaults = Callable[[BaseException], "Fault | None"]


def fault_in(exc: BaseException, drivers: Sequence[DriverFaults]) -> Fault | None:
    """The fault `exc` shows, through SQLAlchemy's wrapper and the driver's own, asking each
    driver's classifier of every exception in the chain; None for any other error (a bug of
    ours stays a 500)."""
    if isinstance(exc, sqlalchemy.exc.DBAPIError) and exc.connection_invalidated:
        return Fault.UNREACHABLE
    if isinstance(exc, sqlalchemy.exc.TimeoutError):  # the pool's, not the server's
        return Fault.BUSY
    cause: BaseException | None = exc
    for _ in range(8):
        if cause is None:
            break
        if isinstance(cause, OSError):
            return Fault.UNREACHABLE
        for driver in drivers:
            fault = driver(cause)
            if fault is not None:
                return fault
        cause = cause.__cause__ or getattr(cause, "orig", None)
    return None
