"""`?mine=true` scans the seats index's whole pending list: a GIN index adds new entries to an
unsorted list that every search reads, up to 4 MB (PostgreSQL's `gin_pending_list_limit`)
until a vacuum or an overflowing insert merges it. Every command rewrites its game's row, so
the list refills; on a bulk-loaded store without a vacuum yet it was 230–350 pages, read by
every `?mine` (bench/scale.py). A 256 kB limit bounds it to 32 pages, merged a little at a time.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER INDEX ix_games_seats SET (gin_pending_list_limit = 256)")
        op.execute("SELECT gin_clean_pending_list('ix_games_seats'::regclass)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER INDEX ix_games_seats RESET (gin_pending_list_limit)")
