"""recurring schedules: a schedules table; outbox jobs name their schedule and occurrence

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import wrapper.store.types

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_INSTANT = wrapper.store.types.UTCDateTime(timezone=True)
_BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "schedules",
        sa.Column("id", _BIG_ID, nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("user_key", sa.String(), nullable=False),
        sa.Column("thread_key", sa.String(), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("thread_id", sa.String(), nullable=False),
        sa.Column("channel_user_id", sa.String(), nullable=True),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("rrule", sa.String(length=500), nullable=False),
        sa.Column("dtstart", sa.String(length=32), nullable=False),
        sa.Column("zone", sa.String(length=64), nullable=True),
        sa.Column("origin_tz", sa.String(length=64), nullable=False),
        sa.Column("elapsed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("missed", sa.String(length=8), server_default="one", nullable=False),
        sa.Column("state", sa.String(length=8), server_default="active", nullable=False),
        sa.Column("created_at", _INSTANT, nullable=False),
        sa.Column("updated_at", _INSTANT, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_schedules_user_id", "schedules", ["user_id"])
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("schedule_id", _BIG_ID, nullable=True))
        batch.add_column(sa.Column("occurs_at", _INSTANT, nullable=True))
        batch.create_index("ix_outbox_schedule_id", ["schedule_id"])


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index("ix_outbox_schedule_id")
        batch.drop_column("occurs_at")
        batch.drop_column("schedule_id")
    op.drop_index("ix_schedules_user_id", table_name="schedules")
    op.drop_table("schedules")
