"""model calls: each request's usage, latency and prompt prefix, for the prompt cache's health

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from wrapper.store.types import UTCDateTime

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "model_calls",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("thread_key", sa.String(), nullable=False),
        sa.Column("turn_key", sa.String(), nullable=True),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("provider", sa.String(length=32), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), nullable=True),
        sa.Column("cached_tokens", sa.Integer(), nullable=True),
        sa.Column("completion_tokens", sa.Integer(), nullable=True),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.Column("hashes", sa.String(), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("first_difference", sa.Integer(), nullable=True),
        sa.Column("evicted", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_model_calls_thread", "model_calls", ["thread_key", "id"])
    op.create_index("ix_model_calls_at", "model_calls", ["at"])


def downgrade() -> None:
    op.drop_index("ix_model_calls_at", table_name="model_calls")
    op.drop_index("ix_model_calls_thread", table_name="model_calls")
    op.drop_table("model_calls")
