"""Indexes for the lobby's listings.

`GET /v1/games` without a status filter sorted the whole `games` table for each page (100 ms
at 300,000 games), and `?mine=true` scanned it (180 ms): `(created_at, game_id)` serves the
first, and `creator` with, on PostgreSQL, a GIN index of the seats as `jsonb` (containment)
the second. None of the indexed columns changes after the deal, so a command's update of its
games row stays in place (HOT).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_created", "games", ["created_at", "game_id"])
    op.create_index("ix_games_creator", "games", ["creator", "created_at"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE INDEX ix_games_seats ON games USING gin "
                   "((seats::jsonb) jsonb_path_ops)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_index("ix_games_seats", "games")
    op.drop_index("ix_games_creator", "games")
    op.drop_index("ix_games_created", "games")
