"""Room for command ids scoped to their player.

The API stores a client's `Idempotency-Key` as `player:<player id>:<key>` (keys are scoped to
the player who sent them), which is up to 7 + 64 + 1 + 128 = 200 characters: `command_id`
grows from 128 to 256 on `events` and `commands`. Widening a varchar is a catalog change on
PostgreSQL (no table rewrite); SQLite does not enforce lengths, so it is left as it is.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_TABLES = ("events", "commands")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in _TABLES:
            op.alter_column(table, "command_id", type_=sa.String(256),
                            existing_type=sa.String(128))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in _TABLES:
            op.alter_column(table, "command_id", type_=sa.String(128),
                            existing_type=sa.String(256))
