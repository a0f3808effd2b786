"""routes, channel state and the platform's zone for a person

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import wrapper.store.types

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "routes",
        sa.Column("thread_key", sa.String(), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("route", sa.JSON(), nullable=False),
        sa.Column("updated_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("thread_key"),
    )
    op.create_table(
        "channel_state",
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.Column("updated_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("platform_tz", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("platform_tz")
    op.drop_table("channel_state")
    op.drop_table("routes")
