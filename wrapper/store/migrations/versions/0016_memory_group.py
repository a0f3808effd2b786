"""memory items: the group thread an item was remembered in (None: a private thread)

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("memory_items") as batch:
        batch.add_column(sa.Column("thread_key", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("memory_items") as batch:
        batch.drop_column("thread_key")
