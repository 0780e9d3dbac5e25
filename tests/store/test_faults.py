"""Each backend names its own driver's faults (`service/events/faults.py`): what an error says
about the database rather than the request. The HTTP problems ask the store and import no
driver."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest
import sqlalchemy.exc

from service.events.backends import database_fault
from service.events.faults import Fault


def wrapped(orig: BaseException) -> Exception:
    """As SQLAlchemy raises a driver's error."""
    return sqlalchemy.exc.OperationalError("SELECT 1", {}, orig)


@pytest.mark.parametrize(("error", "fault"), [
    (wrapped(sqlite3.OperationalError("database is locked")), Fault.UNREACHABLE),
    (wrapped(sqlite3.OperationalError("no such table: games")), Fault.NOT_MIGRATED),
    (wrapped(sqlite3.OperationalError("no such column: games.rated")), Fault.NOT_MIGRATED),
    (wrapped(sqlite3.OperationalError('near "SELEC": syntax error')), None),
    (wrapped(asyncpg.UndefinedTableError("no games")), Fault.NOT_MIGRATED),
    (wrapped(asyncpg.UndefinedColumnError("no rated")), Fault.NOT_MIGRATED),
    (asyncpg.ConnectionDoesNotExistError("closed"), Fault.UNREACHABLE),
    (asyncpg.CannotConnectNowError("starting up"), Fault.UNREACHABLE),
    (asyncpg.AdminShutdownError("terminating connection due to administrator command"),
     Fault.UNREACHABLE),
    (asyncpg.CrashShutdownError("terminating connection because of crash of another server "
                                "process"), Fault.UNREACHABLE),
    (wrapped(asyncpg.ReadOnlySQLTransactionError("cannot execute INSERT in a read-only "
                                                 "transaction")), Fault.UNREACHABLE),
    (asyncpg.TooManyConnectionsError("too many"), Fault.UNREACHABLE),
    (asyncpg.InternalClientError("cannot switch to state 12; another operation (2) is in "
                                 "progress"), Fault.UNREACHABLE),
    (asyncpg.UniqueViolationError("dup"), None),
    (ConnectionRefusedError(111, "refused"), Fault.UNREACHABLE),
    (sqlalchemy.exc.TimeoutError("QueuePool limit of size 5 overflow 10 reached"), Fault.BUSY),
    (ValueError("a bug of ours"), None),
], ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else str(v))
def test_given_a_database_error_then_its_backend_names_the_fault(error, fault):
    assert database_fault(error) is fault


def test_given_an_error_raised_from_a_lost_connection_then_the_chain_is_followed():
    try:
        try:
            raise ConnectionResetError(104, "reset by peer")
        except ConnectionResetError as exc:
            raise RuntimeError("the statement failed") from exc
    except RuntimeError as exc:
        assert database_fault(exc) is Fault.UNREACHABLE
