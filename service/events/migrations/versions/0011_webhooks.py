"""Webhooks: players' bot endpoints and their delivery attempts; event webhook
subscriptions, their outbox of messages and the delivery log.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

JsonText = sa.JSON().with_variant(postgresql.JSON(), "postgresql")
Timestamp = sa.DateTime(timezone=True)
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "bot_endpoints",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("secret_rotated_at", Timestamp, nullable=False),
    )
    op.create_table(
        "bot_attempts",
        sa.Column("attempt_id", BigId, sa.Identity(), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("message_id", sa.String(128), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("status_code", sa.Integer, nullable=True),
        sa.Column("latency_ms", sa.Float, nullable=False),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("at", Timestamp, nullable=False),
    )
    op.create_index("ix_bot_attempts_player", "bot_attempts", ["player_id", "attempt_id"])
    op.create_table(
        "webhook_subscriptions",
        sa.Column("subscription_id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("event_types", JsonText, nullable=False),
        sa.Column("enabled", sa.Boolean, nullable=False),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("disabled_reason", sa.Text, nullable=True),
        sa.Column("created_at", Timestamp, nullable=False),
    )
    op.create_index("ix_webhook_subscriptions_player", "webhook_subscriptions", ["player_id"])
    op.create_table(
        "webhook_messages",
        sa.Column("message_id", sa.String(128), primary_key=True),
        sa.Column("subscription_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("delivered_at", Timestamp, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", Timestamp, nullable=False),
        sa.Column("lease_until", Timestamp, nullable=True),
    )
    op.create_index("ix_webhook_messages_queue", "webhook_messages",
                    ["subscription_id", "game_id", "delivered_at", "version", "seq"])
    op.create_index("ix_webhook_messages_due", "webhook_messages",
                    ["delivered_at", "next_attempt_at"])
    op.create_table(
        "webhook_attempts",
        sa.Column("attempt_id", BigId, sa.Identity(), primary_key=True),
        sa.Column("message_id", sa.String(128), nullable=False),
        sa.Column("subscription_id", sa.String(64), nullable=False),
        sa.Column("ok", sa.Boolean, nullable=False),
        sa.Column("status_code", sa.Integer, nullable=True),
        sa.Column("latency_ms", sa.Float, nullable=False),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("at", Timestamp, nullable=False),
    )
    op.create_index("ix_webhook_attempts_message", "webhook_attempts", ["message_id"])


def downgrade() -> None:
    for table in ("webhook_attempts", "webhook_messages", "webhook_subscriptions",
                  "bot_attempts", "bot_endpoints"):
        op.drop_table(table)
