"""sender checks: the private thread a held request belongs to

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows from before have no thread and confirm nothing; they expire within the hour.
    op.add_column("sender_checks", sa.Column("thread_key", sa.String(), nullable=True))


def downgrade() -> None:
    op.drop_column("sender_checks", "thread_key")
