"""A seek's kind includes how its game ends: quick play asked only players, edition and rated,
and every matched game played to a million (`EndMode.TO_MILLION`), which the web table's quick
play offered new players as a first game. Existing seeks keep that end.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

OLD_INDEX = ("status", "players", "edition", "rated", "created_at")


def upgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("end_mode", sa.String(32), nullable=False,
                                   server_default="to_million"))
    op.drop_index("ix_seeks_waiting", "seeks")
    op.create_index("ix_seeks_waiting", "seeks",
                    ["status", "players", "edition", "rated", "end_mode", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_seeks_waiting", "seeks")
    op.create_index("ix_seeks_waiting", "seeks", list(OLD_INDEX))
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("end_mode")
