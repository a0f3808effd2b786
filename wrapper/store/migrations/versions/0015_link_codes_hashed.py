"""link codes: kept as hashes, with the issuing thread and the identity that redeemed one

Codes live ten minutes; those issued before this migration are dropped (their
people ask again).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from wrapper.store.types import UTCDateTime

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_link_codes_user_key", table_name="link_codes")
    op.drop_table("link_codes")
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("user_key", sa.String(), nullable=False),
        sa.Column("thread_key", sa.String(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.Column("redeemer", sa.String(), nullable=True),
        sa.Column("redeemer_thread", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    op.create_index("ix_link_codes_user_key", "link_codes", ["user_key"])


def downgrade() -> None:
    op.drop_index("ix_link_codes_user_key", table_name="link_codes")
    op.drop_table("link_codes")
    op.create_table(
        "link_codes",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("user_key", sa.String(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("code"),
    )
    op.create_index("ix_link_codes_user_key", "link_codes", ["user_key"])
