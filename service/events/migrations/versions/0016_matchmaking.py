"""Challenges, quick-play seeks, bot accounts and the bot arena (`service/matchmaking/`).

Numbered 0016 while other branches added migrations meanwhile; it follows 0014 (0015 was
never used).

Revision ID: 0016
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0016"
down_revision = "0014"
branch_labels = None
depends_on = None

# As the tables were at this revision (a later change to `tables.py` must not change them).
JsonText = sa.JSON().with_variant(postgresql.JSON(), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("arena", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "challenges",
        sa.Column("challenge_id", sa.String(64), primary_key=True),
        sa.Column("challenger", sa.String(64), nullable=False),
        sa.Column("challenged", sa.String(64), nullable=True),
        sa.Column("ruleset", JsonText, nullable=False),
        sa.Column("turn_clock", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("bots", JsonText, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("accepted_by", sa.String(64), nullable=True),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("request_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
    )
    op.create_index("ix_challenges_challenged", "challenges", ["challenged", "updated_at"])
    op.create_index("ix_challenges_challenger", "challenges", ["challenger", "updated_at"])
    op.create_index("ix_challenges_accepted_by", "challenges", ["accepted_by", "updated_at"])
    op.create_index("ix_challenges_status", "challenges", ["status", "created_at"])
    op.create_table(
        "seeks",
        sa.Column("seek_id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("edition", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rating_range", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(64), nullable=True),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("request_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
    )
    op.create_index("ix_seeks_waiting", "seeks",
                    ["status", "players", "edition", "rated", "created_at"])
    op.create_index("ix_seeks_player", "seeks", ["player_id", "updated_at"])


def downgrade() -> None:
    op.drop_table("seeks")
    op.drop_table("challenges")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("arena")
        batch.drop_column("bot")
