"""meeting attendees: who is in the meeting a poll decided

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meeting_attendees",
        sa.Column("poll_id", sa.BigInteger(), sa.ForeignKey("meeting_polls.id"), nullable=False),
        sa.Column("user_key", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("poll_id", "user_key"),
    )
    op.create_index("ix_meeting_attendees_user_key", "meeting_attendees", ["user_key"])


def downgrade() -> None:
    op.drop_index("ix_meeting_attendees_user_key", table_name="meeting_attendees")
    op.drop_table("meeting_attendees")
