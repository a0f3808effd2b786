"""meeting polls: the slots proposed to a group and each member's answer

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from wrapper.store.types import UTCDateTime

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meeting_polls",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("thread_key", sa.String(), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("thread_id", sa.String(), nullable=False),
        sa.Column("organiser", sa.String(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("voters", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("chosen", sa.Integer(), nullable=True),
        sa.Column("closes_at", UTCDateTime(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_meeting_polls_thread_key", "meeting_polls", ["thread_key"])
    op.create_index("ix_meeting_polls_open", "meeting_polls", ["status", "closes_at"])
    op.create_table(
        "meeting_votes",
        sa.Column("poll_id", sa.BigInteger(), sa.ForeignKey("meeting_polls.id"), nullable=False),
        sa.Column("user_key", sa.String(), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("poll_id", "user_key"),
    )


def downgrade() -> None:
    op.drop_table("meeting_votes")
    op.drop_index("ix_meeting_polls_open", table_name="meeting_polls")
    op.drop_index("ix_meeting_polls_thread_key", table_name="meeting_polls")
    op.drop_table("meeting_polls")
