"""sender checks: privileged requests from an unproven email sender, waiting for a confirmation

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from wrapper.store.types import UTCDateTime

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sender_checks",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_key", sa.String(), nullable=False),
        sa.Column("request", sa.String(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_sender_checks_user_key", "sender_checks", ["user_key"])


def downgrade() -> None:
    op.drop_index("ix_sender_checks_user_key", table_name="sender_checks")
    op.drop_table("sender_checks")
