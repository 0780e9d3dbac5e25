"""The event log, the commands it has accepted, and the read models beside it.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JsonText = sa.JSON().with_variant(postgresql.JSON(), "postgresql")
Timestamp = sa.DateTime(timezone=True)
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("position", BigId, sa.Identity(), primary_key=True),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("schema_version", sa.Integer, nullable=False),
        sa.Column("data", JsonText, nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("command_id", sa.String(128), nullable=True),
        sa.Column("actor", sa.String(128), nullable=True),
        sa.Column("recorded_at", Timestamp, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("game_id", "version", name="uq_events_game_version"),
        sa.UniqueConstraint("game_id", "command_id", name="uq_events_game_command"),
    )
    op.create_table(
        "commands",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("command_id", sa.String(128), primary_key=True),
        sa.Column("body_sha256", sa.String(64), nullable=False),
        sa.Column("first_version", sa.Integer, nullable=False),
        sa.Column("last_version", sa.Integer, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator", sa.String(128), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("ruleset", JsonText, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seats", JsonText, nullable=False),
        sa.Column("turn_clock", sa.Integer, nullable=True),
        sa.Column("timeout_policy", JsonText, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("pending_seats", JsonText, nullable=False),
        sa.Column("deadline", Timestamp, nullable=True),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status", "created_at"])
    op.create_table(
        "game_views",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("viewer", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("view", sa.Text, nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        # Views are a few KB and rewritten on every command: keep them inline and
        # uncompressed (compressing and TOASTing each write costs more than it saves).
        op.execute("ALTER TABLE game_views SET (toast_tuple_target = 8160)")
    op.create_table(
        "due_work",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("due_at", Timestamp, nullable=False),
    )
    op.create_index("ix_due_work_due_at", "due_work", ["due_at"])


def downgrade() -> None:
    for table in ("due_work", "game_views", "games", "commands", "events"):
        op.drop_table(table)
