"""Tournaments: each its own append-only, hash-chained log, its read model (public state and
standings), and which tournament table each of its games is. And on a game's row: the seats
kept for invited players, its rematch, and why it ended without a result.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

JsonText = sa.JSON().with_variant(postgresql.JSON(), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    # Rematches and games that end without a result (expired lobbies, abandoned games).
    op.add_column("games", sa.Column("invited", JsonText, nullable=False, server_default="[]"))
    op.add_column("games", sa.Column("rematch_of", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("rematch", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("end_reason", sa.Text, nullable=True))
    op.create_table(
        "tournament_events",
        sa.Column("tournament_id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("schema_version", sa.Integer, nullable=False),
        sa.Column("data", JsonText, nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("actor", sa.String(128), nullable=True),
        sa.Column("recorded_at", Timestamp, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("creator", sa.String(128), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("standings", sa.Text, nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
    )
    op.create_index("ix_tournaments_created", "tournaments", ["created_at", "tournament_id"])
    op.create_index("ix_tournaments_status", "tournaments", ["status", "updated_at"])
    op.create_table(
        "tournament_games",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
    )
    op.create_index("ix_tournament_games_tournament", "tournament_games", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_tournament", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_index("ix_tournaments_created", "tournaments")
    op.drop_table("tournaments")
    op.drop_table("tournament_events")
    for column in ("end_reason", "rematch", "rematch_of", "invited"):
        op.drop_column("games", column)
