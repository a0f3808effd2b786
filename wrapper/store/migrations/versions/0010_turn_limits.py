"""turn limits: token buckets per person and channel; when a message was held back

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from wrapper.store.types import UTCDateTime

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.Column("noticed_at", UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("pending_turns") as batch:
        batch.add_column(sa.Column("held_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pending_turns") as batch:
        batch.drop_column("held_at")
    op.drop_table("rate_buckets")
