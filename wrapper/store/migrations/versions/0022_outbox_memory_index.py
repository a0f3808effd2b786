"""outbox memory index, schedules count as due: what is due reads reminders (docs/reminders.md)

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_outbox_memory",
        "outbox",
        ["memory_id"],
        sqlite_where=sa.text("memory_id IS NOT NULL"),
        postgresql_where=sa.text("memory_id IS NOT NULL"),
    )
    # A repeating reminder now counts as due (the hint lets a message skip the query).
    op.execute(
        sa.text(
            "UPDATE users SET has_due_items = :yes WHERE id IN "
            "(SELECT user_id FROM schedules WHERE state <> 'ended')"
        ).bindparams(yes=True)
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_memory", table_name="outbox")
