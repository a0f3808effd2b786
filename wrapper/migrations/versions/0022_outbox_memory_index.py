"""outbox memory index: what is due reads a note's reminders (docs/reminders.md)

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


def downgrade() -> None:
    op.drop_index("ix_outbox_memory", table_name="outbox")
