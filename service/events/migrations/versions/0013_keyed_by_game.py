"""Every table a command writes is keyed by its game first, so that distributing the tables by
`game_id` stays possible (deploy/README.md): the log's primary key is (game_id, version), where
it was a global position that nothing read (beside a unique (game_id, version)), and the
outbox's is (game_id, message_id).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

import warnings

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def _partial_command_index(create: bool) -> None:
    """SQLite's batch copy would lose the index's predicate: it is made again by hand."""
    if create:
        where = sa.text("command_id IS NOT NULL")
        op.create_index("uq_events_game_command", "events", ["game_id", "command_id"],
                        unique=True, postgresql_where=where, sqlite_where=where)
    else:
        op.drop_index("uq_events_game_command", "events")


def upgrade() -> None:
    _partial_command_index(create=False)
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint("uq_events_game_version", type_="unique")
        batch.drop_column("position")  # and the primary key it held
        batch.create_primary_key("events_pkey", ["game_id", "version"])
    _partial_command_index(create=True)
    _rekey_outbox(["game_id", "message_id"])


def _rekey_outbox(columns: list[str]) -> None:
    with warnings.catch_warnings(), op.batch_alter_table("webhook_messages") as batch:
        if op.get_bind().dialect.name == "sqlite":
            # Its primary keys have no name: the batch copy takes the new key in the old one's
            # place, saying so in a warning about its temporary table.
            warnings.filterwarnings("ignore", "Table '_alembic_tmp_webhook_messages'",
                                    sa.exc.SAWarning)
        else:
            batch.drop_constraint("webhook_messages_pkey", type_="primary")
        batch.create_primary_key("webhook_messages_pkey", columns)


def downgrade() -> None:
    _rekey_outbox(["message_id"])
    _partial_command_index(create=False)
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint("events_pkey", type_="primary")
        batch.create_unique_constraint("uq_events_game_version", ["game_id", "version"])
        batch.add_column(sa.Column("position", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                                   sa.Identity(), nullable=False))
        batch.create_primary_key("events_pkey", ["position"])
    _partial_command_index(create=True)
