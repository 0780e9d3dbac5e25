"""The schema stays distributable by game (deploy/README.md, "Growing past one database node"):
every table a command's commit writes leads its primary key and every unique constraint with
`game_id`, no foreign key ties rows of one game to another's, and the commit touches rows by
their game. Citus requires the first two of a table distributed on `game_id`; the third keeps
each commit on the one node that holds its game."""

from __future__ import annotations

import re

import sqlalchemy as sa

from service.events.group_commit import _PG_COMMIT
from service.events.tables import metadata

# What one command's commit writes, on PostgreSQL (one statement) and SQLite alike.
WRITE_PATH = {"events", "commands", "games", "game_views", "due_work", "webhook_messages"}


def test_the_write_path_is_every_table_the_commit_statement_writes() -> None:
    written = set(re.findall(r"\b(?:INSERT INTO|(?<!DO )UPDATE|DELETE FROM)\s+(\w+)", _PG_COMMIT))
    assert written == WRITE_PATH


def test_every_write_path_key_leads_with_the_game() -> None:
    keys: dict[str, list[list[str]]] = {}
    for name in sorted(WRITE_PATH):
        table = metadata.tables[name]
        unique = [[c.name for c in u.columns] for u in table.constraints
                  if isinstance(u, sa.UniqueConstraint)]
        unique += [[e.name for e in i.expressions if isinstance(e, sa.Column)]
                   for i in table.indexes if i.unique]
        keys[name] = [[c.name for c in table.primary_key.columns], *unique]

    assert {name: [k for k in found if k[:1] != ["game_id"]] for name, found in keys.items()} \
        == {name: [] for name in keys}


def test_no_foreign_key_crosses_games() -> None:
    assert [(t.name, fk.target_fullname) for t in metadata.tables.values()
            for fk in t.foreign_keys if t.name in WRITE_PATH or fk.column.table.name
            in WRITE_PATH] == []


def test_the_commit_finds_existing_rows_by_their_game() -> None:
    """Updates and deletes name the game; inserts meet existing rows only through a key that
    leads with it (their ON CONFLICT)."""
    for clause in re.findall(r"(?:UPDATE \w+ \w+ SET|DELETE FROM \w+)(.*?)\n\)", _PG_COMMIT,
                             re.S):
        assert "game_id = ANY" in clause, clause
    for target in re.findall(r"ON CONFLICT \(([^)]*)\)", _PG_COMMIT):
        assert target.split(",")[0].strip() == "game_id", target
