"""outbox: claimed jobs by thread, so a thread's replies go out in order across workers

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_outbox_claimed_thread",
        "outbox",
        ["thread_key", "id"],
        sqlite_where=sa.text("status = 'claimed'"),
        postgresql_where=sa.text("status = 'claimed'"),
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_claimed_thread", table_name="outbox")
