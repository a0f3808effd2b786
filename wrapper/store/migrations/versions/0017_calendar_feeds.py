"""calendar feeds: one private feed URL per person, kept as its token's hash

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from wrapper.store.types import UTCDateTime

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "calendar_feeds",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=40), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_calendar_feeds_user_id", "calendar_feeds", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_calendar_feeds_user_id", table_name="calendar_feeds")
    op.drop_table("calendar_feeds")
