"""identity names: what each person is called on each channel, for groups and meetings

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("identities", sa.Column("display_name", sa.String(), nullable=True))


def downgrade() -> None:
    op.drop_column("identities", "display_name")
