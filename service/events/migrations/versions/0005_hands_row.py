"""Every seat's hand in one `game_views` row (viewer -2) instead of one row per seat.

A command changes one or two hands but rewrote a row for every seat; now it writes two rows,
the spectator's view and the hands. The API splices a seat's hand into the spectator's view
(`projections.rows.seat_view_json`). This folds each game's seat rows (`{"viewer":N,"hand":…}`,
revision 0003's form) into the new row, in the bytes the new code writes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from __future__ import annotations

from itertools import groupby

import msgspec
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

HANDS = -2
_views = sa.table("game_views", sa.column("game_id", sa.String), sa.column("viewer", sa.Integer),
                  sa.column("version", sa.Integer), sa.column("view", sa.Text))


def upgrade() -> None:
    conn = op.get_bind()
    seat_rows = conn.execute(
        sa.select(_views.c.game_id, _views.c.version, _views.c.view)
        .where(_views.c.viewer >= 0).order_by(_views.c.game_id, _views.c.viewer)
    ).all()
    rows = []
    for game_id, group in groupby(seat_rows, key=lambda r: r.game_id):
        parts = list(group)
        hands = [msgspec.json.decode(r.view)["hand"] for r in parts]
        rows.append({"game_id": game_id, "viewer": HANDS,
                     "version": max(r.version for r in parts),
                     "view": msgspec.json.encode(None if hands[0] is None else hands).decode()})
    if rows:
        conn.execute(_views.insert(), rows)
    conn.execute(_views.delete().where(_views.c.viewer >= 0))


def downgrade() -> None:
    # The seat rows are a projection: `cya projections rebuild` writes them again with the
    # code of the revision downgraded to.
    conn = op.get_bind()
    conn.execute(_views.delete().where(_views.c.viewer == HANDS))
