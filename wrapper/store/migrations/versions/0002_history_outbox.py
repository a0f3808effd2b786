"""history and outbox

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 09:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import wrapper.store.types

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("thread_key", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("content", sa.String(), nullable=False),
        sa.Column("tool_calls", sa.JSON(), nullable=True),
        sa.Column("tool_call_id", sa.String(), nullable=True),
        sa.Column("name", sa.String(), nullable=True),
        sa.Column("created_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("history", schema=None) as batch_op:
        # Unique: two appends to one thread can never both take a seq.
        batch_op.create_index("ix_history_thread_seq", ["thread_key", "seq"], unique=True)

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("thread_id", sa.String(), nullable=False),
        sa.Column("thread_key", sa.String(), nullable=False),
        sa.Column("user_key", sa.String(), nullable=True),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("due_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(), nullable=True),
        sa.Column(
            "claim_expires_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=True
        ),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("defer_reason", sa.String(), nullable=True),
        sa.Column("deferred_from", wrapper.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("memory_id", sa.Integer(), nullable=True),
        sa.Column("created_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("sent_at", wrapper.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_status_due", ["status", "due_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_status_due")

    op.drop_table("outbox")
    with op.batch_alter_table("history", schema=None) as batch_op:
        batch_op.drop_index("ix_history_thread_seq")

    op.drop_table("history")
