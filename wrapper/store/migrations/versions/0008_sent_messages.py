"""sent messages by the platform's id: a person's reply to one finds its outbox job

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import wrapper.store.types

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sent_messages",
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("platform_id", sa.String(), nullable=False),
        sa.Column("outbox_id", sa.Integer(), nullable=False),
        sa.Column("sent_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("channel", "platform_id"),
    )


def downgrade() -> None:
    op.drop_table("sent_messages")
