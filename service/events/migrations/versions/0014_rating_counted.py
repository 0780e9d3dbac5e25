"""The ratings find the rated games left to count, and the last one counted, by a flag on the
game's row and two partial indexes: they scanned every finished rated game (an anti-join with
`rating_changes`) on each count, after every rated game that finished, which grew with the
store (about 0.3 s at 10^4 games, bench/scale.py).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

RATED_FINISHED = "rated AND status = 'finished'"
INDEXES = {"ix_games_rating_due": f"{RATED_FINISHED} AND NOT rating_counted",
           "ix_games_rating_counted": f"{RATED_FINISHED} AND rating_counted"}


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rating_counted", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.execute("UPDATE games SET rating_counted = true WHERE game_id IN "
               "(SELECT game_id FROM rating_changes)")
    for name, where in INDEXES.items():
        op.create_index(name, "games", ["updated_at", "game_id"],
                        postgresql_where=sa.text(where), sqlite_where=sa.text(where))


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rating_counted")
