"""Rated games and their ratings: a game may be created rated; the ratings table is a
projection of the finished rated games (`service/projections/ratings.py`), and each game's
rating changes are kept for its summary.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("identity", sa.String(96), primary_key=True),
        sa.Column("family", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["family", "ordinal"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("identity", sa.String(96), nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
    op.drop_column("games", "rated")
