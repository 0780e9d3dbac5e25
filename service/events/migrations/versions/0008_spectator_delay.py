"""A game's spectator delay: how many events its watchers trail the table by while it runs.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("spectator_delay", sa.Integer, nullable=False,
                                     server_default="0"))


def downgrade() -> None:
    op.drop_column("games", "spectator_delay")
