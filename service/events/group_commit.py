"""PostgreSQL's commit of a command: its events, its game's read-model rows and the outbox
messages it owes as one atomic write.

One statement — data-modifying CTEs write the projections, the main query inserts
the events — so a command costs one round trip and commits, or fails on a unique constraint,
atomically. Commands of different games that arrive while a write is in flight share the next
statement (group commit): PostgreSQL's per-statement and per-commit costs are paid once per
group. Once `flush_at` commands are pending a second writer takes them at once, so one group
is written while the next is being decided; below that only one writer works, since a second
would write each command of a light load alone, a statement and a commit apiece. If a group
hits a unique violation, each of its commands is retried alone, so one command's conflict
never fails another's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
import msgspec
import sqlalchemy as sa
from asyncpg.exceptions import UniqueViolationError

from service.events.records import AppendRejected, Batch, ReadModelRows
from service.events.tables import (
    PROGRESS_COLUMNS,
    RATINGS_COLUMNS,
    commands,
    due_work,
    events,
    game_views,
    games,
    webhook_messages,
)


def _pg_type(column: sa.Column[Any]) -> str:
    """The PostgreSQL type a column's values are read as from a JSON document."""
    kind = column.type
    if isinstance(kind, sa.TypeDecorator):
        kind = kind.impl_instance
    if isinstance(kind, sa.JSON):
        return "json"
    if isinstance(kind, sa.DateTime):
        return "timestamptz"
    if isinstance(kind, sa.Boolean):
        return "bool"
    if isinstance(kind, sa.Integer):
        return "int"
    return "text"


def _columns(table: sa.Table, *, without: tuple[str, ...] = ()) -> dict[str, str]:
    """A table's columns (in order) and their types, as the statement reads them."""
    return {c.name: _pg_type(c) for c in table.columns if c.name not in without}


# The statement's columns come from the tables themselves: a new column is one edit there.
_COMMAND_COLS = _columns(commands)
_GAME_COLS = _columns(games, without=RATINGS_COLUMNS)
_PROGRESS_COLS = {c: _GAME_COLS[c] for c in PROGRESS_COLUMNS}
_DUE_COLS = _columns(due_work)
_MESSAGE_COLS = _columns(webhook_messages)
_EVENT_COLS = _columns(events)


def _rows_of(param: int, cols: dict[str, str]) -> str:
    """SELECT the rows of a JSON array of objects. JSON columns arrive as strings holding the
    text to store, so they are read as text and cast."""
    fields = ", ".join(f"{c} {'text' if t == 'json' else t}" for c, t in cols.items())
    values = ", ".join(f"u.{c}::json" if t == "json" else f"u.{c}" for c, t in cols.items())
    return f"SELECT {values} FROM json_to_recordset(${param}::json) AS u({fields})"


def _upsert_set(cols: Sequence[str]) -> str:
    return ", ".join(f"{c} = excluded.{c}" for c in cols)


_RS = "\x1e"  # joins texts into one parameter; JSON text never holds it raw


def _split(param: int) -> str:
    """The texts RS-joined in parameter `param`, as an array."""
    return f"string_to_array(${param}, E'\\x1e')"


def _rows_with_text(param: int, cols: dict[str, str], text_col: str, cast: str = "text") -> str:
    """The rows of `_rows_of(param, cols)`, each with its `text_col` (cast to `cast`) taken in
    order from the RS-joined texts of parameter param+1."""
    fields = ", ".join(f"{c} {t}" for c, t in cols.items())
    return (f"SELECT {', '.join(f'u.{c}' for c in cols)}, u.{text_col}::{cast} FROM ROWS FROM "
            f"(json_to_recordset(${param}::json) AS ({fields}), "
            f"unnest({_split(param + 1)})) AS u({', '.join(cols)}, "
            f"{text_col})")


# Every parameter is one string: asyncpg encodes an array element by element, which cost more
# than the rest of a command's Python. Small rows travel as one JSON document per table. The
# views and the event data (the bulk of the bytes) travel as one RS-joined text each, which
# PostgreSQL splits without parsing: inside a JSON document, every quote in them would have
# to be unescaped first. Rows already in a table are found by `game_id = ANY(the RS-joined ids)`:
# the planner guesses 10 ids there and looks each up by primary key, where for a join against
# a function's rows it guesses 100 and scans the whole table once that is a few hundred rows.
_EVENT_META = {c: t for c, t in _EVENT_COLS.items() if c != "data"}
_VIEW_META = _columns(game_views, without=("view",))
_PG_COMMIT = f"""
WITH cmd AS (
    INSERT INTO commands ({", ".join(_COMMAND_COLS)}) {_rows_of(1, _COMMAND_COLS)}
), game AS (
    INSERT INTO games ({", ".join(_GAME_COLS)}) {_rows_of(2, _GAME_COLS)}
    ON CONFLICT (game_id) DO UPDATE SET {_upsert_set(list(_GAME_COLS)[1:])}
), game_progress AS (
    UPDATE games g SET {", ".join(f"{c} = u.{c}" for c in list(_PROGRESS_COLS)[1:])}
    FROM ({_rows_of(3, _PROGRESS_COLS)}) AS u({", ".join(_PROGRESS_COLS)})
    WHERE g.game_id = ANY({_split(4)}) AND g.game_id = u.game_id
), views AS (
    INSERT INTO game_views ({", ".join(_VIEW_META)}, view) {_rows_with_text(5, _VIEW_META, "view")}
    ON CONFLICT (game_id, viewer) DO UPDATE SET {_upsert_set(("version", "view"))}
), due_gone AS (
    DELETE FROM due_work WHERE game_id = ANY({_split(7)})
), due AS (
    INSERT INTO due_work ({", ".join(_DUE_COLS)}) {_rows_of(8, _DUE_COLS)}
    ON CONFLICT (game_id) DO UPDATE SET {_upsert_set(list(_DUE_COLS)[1:])}
), outbox AS (
    INSERT INTO webhook_messages ({", ".join(_MESSAGE_COLS)}) {_rows_of(11, _MESSAGE_COLS)}
)
INSERT INTO events ({", ".join(_EVENT_META)}, data)
{_rows_with_text(9, _EVENT_META, "data", "json")}
"""
_json = msgspec.json.Encoder().encode
# The statement's every table access is by key, but PostgreSQL plans it once per connection
# and keeps that plan (a generic plan, chosen at the sixth run) until the tables are analyzed
# again. Planned while `games` was a page or two, it read the whole table on every write,
# evaluating the id list once per row: PostgreSQL's CPU per commit grew with the number of
# games. Without sequential scans the plan stays on the primary keys whatever the tables' size
# was when it was made; without JIT, no plan's cost (which a forced-off path inflates) can make
# PostgreSQL compile it.
_WRITER_SETTINGS = {"enable_seqscan": "off", "jit": "off"}


WRITERS = 2  # group writers, each with its own connection


@dataclass
class _Write:
    batch: Batch
    rows: ReadModelRows
    done: asyncio.Future[None]


def _pg_args(writes: Sequence[_Write]) -> list[str]:
    views = [v for w in writes for v in w.rows.views]
    progress = [w.rows.progress for w in writes if w.rows.game is None]
    return [
        _json([{"game_id": b.game_id, "command_id": b.command_id, "body_sha256": b.body_sha256,
                "first_version": b.expected_version + 1,
                "last_version": b.expected_version + len(b.rows)}
               for b in (w.batch for w in writes) if b.command_id is not None]).decode(),
        _json([w.rows.game for w in writes if w.rows.game is not None]).decode(),
        _json(progress).decode(),
        _RS.join(p["game_id"] for p in progress),
        _json([{c: v[c] for c in _VIEW_META} for v in views]).decode(),
        _RS.join(v["view"] for v in views),
        _RS.join(w.rows.game_id for w in writes if w.rows.due is None),
        _json([w.rows.due for w in writes if w.rows.due is not None]).decode(),
        _json([r for w in writes for r in w.batch.rows]).decode(),
        _RS.join(t for w in writes for t in w.batch.data),
        _json([m for w in writes for m in w.rows.messages]).decode(),
    ]


def _settle(group: list[_Write], failure: BaseException | None) -> None:
    """Tell each waiting command its write's outcome. A command cancelled meanwhile has
    cancelled its future: skip it, or the rest of the group would never hear."""
    for write in group:
        if write.done.done():
            continue
        if failure is None:
            write.done.set_result(None)
        else:
            write.done.set_exception(failure)


class GroupCommitter:
    """Writes a command's batch and its game's read models atomically, in groups."""

    def __init__(self, dsn: str, *, max_group: int = 64, writers: int = WRITERS,
                 flush_at: int = 8) -> None:
        self._dsn = dsn  # asyncpg's: the engine's URL with the plain driver name
        self._max_group, self._writers = max_group, writers
        self._flush_at = flush_at
        self._waking = False  # a writer task is on its way to take what is pending
        self._idle: list[asyncpg.Connection] = []  # at most one per writer
        self._pending: list[_Write] = []
        self._active = 0
        self._writing: set[asyncio.Task[None]] = set()  # the loop keeps only weak references

    async def commit(self, batch: Batch, rows: ReadModelRows) -> None:
        write = _Write(batch, rows, asyncio.get_running_loop().create_future())
        self._pending.append(write)
        if self._active < self._writers and len(self._pending) >= self._flush_at:
            # A full group is taken now, before the commands behind it join: the database
            # works on it while they are decided. Its own task, so that cancelling this
            # command cannot cancel the others' write.
            self._active += 1
            self._start(self._drain(self._take()))
        self._wake()
        await write.done

    def _wake(self) -> None:
        """Let a writer take what is pending, after the commands being decided now, if none
        is writing: one that is takes it when its write ends."""
        if self._pending and self._active == 0 and not self._waking:
            self._active += 1
            self._waking = True
            self._start(self._drain())

    def _start(self, writer: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(writer)
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def _drain(self, first: list[_Write] | None = None) -> None:
        """A writer: the group it was handed, if any, then each pending group till none is."""
        if first is None:
            self._waking = False
        try:
            group = first or self._take()
            while group:
                await self._write(group)
                group = self._take()
        finally:
            self._active -= 1

    def _take(self) -> list[_Write]:
        """The next group: at most one command per game, since one statement cannot upsert a
        row twice (the later command of a game waits for the next group, and most likely
        fails there on the version the earlier one took)."""
        group: list[_Write] = []
        rest: list[_Write] = []
        games: set[str] = set()
        for write in self._pending:
            if len(group) < self._max_group and write.batch.game_id not in games:
                games.add(write.batch.game_id)
                group.append(write)
            else:
                rest.append(write)
        self._pending = rest
        return group

    async def _write(self, group: list[_Write]) -> None:
        try:
            conn = await self._checkout()
            try:
                await conn.execute(_PG_COMMIT, *_pg_args(group))
            except UniqueViolationError:
                self._idle.append(conn)
                if len(group) == 1:
                    raise
                for write in group:  # find out whose it was: each alone
                    await self._write([write])
                return
            except BaseException:
                conn.terminate()  # in an unknown state: a later write opens a new one
                raise
            self._idle.append(conn)
        except UniqueViolationError:  # a group of one: this command lost its race
            _settle(group, AppendRejected(group[0].batch.game_id))
            return
        except BaseException as exc:  # the waiting commands must hear of any failure
            _settle(group, exc)
            if not isinstance(exc, Exception):
                raise
            return
        _settle(group, None)

    async def _checkout(self) -> asyncpg.Connection:
        """An idle connection, or a new one. One the server closed while it waited (a restart,
        an idle timeout) is dropped: nothing was sent on it, so the group goes on another."""
        while self._idle:
            conn = self._idle.pop()
            if not conn.is_closed():
                return conn
        return await self._connect()

    async def _connect(self) -> asyncpg.Connection:
        # Straight asyncpg, not SQLAlchemy's pool: its statement cache keeps the one big
        # statement prepared per connection. No pool either: a connection only ever runs that
        # one autocommit statement, so a writer takes an idle one without a checkout's
        # bookkeeping or a reset.
        return await asyncpg.connect(self._dsn, server_settings=_WRITER_SETTINGS)

    async def close(self) -> None:
        await asyncio.gather(*self._writing, return_exceptions=True)
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close()
