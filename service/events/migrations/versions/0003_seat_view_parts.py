"""A seat's `game_views` row keeps only what that seat alone sees: `{"viewer":N,"hand":[...]}`.

The API serves it spliced into the spectator's row (`projections.rows.seat_view_json`). Rows
written before hold the seat's whole view; this cuts them down to the same bytes the new code
writes (msgspec's compact JSON, which both databases return verbatim for a sub-value).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    hand = ("(view::json -> 'hand')::text" if op.get_bind().dialect.name == "postgresql"
            else "coalesce(json_extract(view, '$.hand'), 'null')")
    op.execute(f"""UPDATE game_views SET view = '{{"viewer":' || viewer || ',"hand":' || {hand}
                   || '}}' WHERE viewer >= 0""")


def downgrade() -> None:
    # The full seat views are a projection: `cya projections rebuild` writes them again with
    # the code of the revision downgraded to.
    pass
