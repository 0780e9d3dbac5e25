"""A rotated webhook secret keeps signing beside the new one for an overlap: bot endpoints and
subscriptions keep their previous secret and when it stops (`service/webhooks/signing.py`).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

TABLES = ("bot_endpoints", "webhook_subscriptions")


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("previous_secret", sa.String(128), nullable=True))
        op.add_column(table, sa.Column("previous_secret_until", sa.DateTime(timezone=True),
                                       nullable=True))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("previous_secret_until")
            batch.drop_column("previous_secret")
