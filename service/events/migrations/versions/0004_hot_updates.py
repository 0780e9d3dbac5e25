"""Cheaper writes per command on PostgreSQL.

- `games` and `game_views` leave half of each page free, so the row every command rewrites
  is updated in place (a HOT update: no new index entries).
- `UNIQUE (game_id, command_id)` on `events` becomes a partial unique index over the rows
  that carry a command id (a command's first event). The others hold NULL, which never
  conflicts, so the uniqueness is the same while most events skip the index.

SQLite gets the same partial index; it has no fillfactor.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_HOT_TABLES = ("games", "game_views")


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint("uq_events_game_command", type_="unique")
    op.create_index("uq_events_game_command", "events", ["game_id", "command_id"],
                    unique=True, postgresql_where=sa.text("command_id IS NOT NULL"),
                    sqlite_where=sa.text("command_id IS NOT NULL"))
    if postgres:
        for table in _HOT_TABLES:
            op.execute(f"ALTER TABLE {table} SET (fillfactor = 50)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in _HOT_TABLES:
            op.execute(f"ALTER TABLE {table} RESET (fillfactor)")
    op.drop_index("uq_events_game_command", "events")
    with op.batch_alter_table("events") as batch:
        batch.create_unique_constraint("uq_events_game_command", ["game_id", "command_id"])
