"""turns commit once: claims fenced to live workers, idempotency keys, 64-bit memory ids

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import wrapper.store.types
from wrapper.keys import split_user_key

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_INSTANT = wrapper.store.types.UTCDateTime(timezone=True)
_BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "workers",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("started_at", _INSTANT, nullable=False),
        sa.Column("heartbeat_at", _INSTANT, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("pending_turns") as batch:
        batch.alter_column("failed_at", new_column_name="retry_at")
        batch.alter_column("attempts", server_default="0")
        batch.add_column(sa.Column("claimed_by", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("claim_expires_at", _INSTANT, nullable=True))
        batch.add_column(sa.Column("claims", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("received_at", _INSTANT, nullable=True))
        batch.add_column(sa.Column("envelope", sa.JSON(), nullable=True))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("key", sa.String(length=300), nullable=True))
        batch.add_column(sa.Column("user_id", sa.String(), nullable=True))
        batch.add_column(sa.Column("final_text", sa.String(), nullable=True))
        batch.add_column(sa.Column("decided_at", _INSTANT, nullable=True))
        batch.alter_column("memory_id", type_=_BIG_ID, existing_type=sa.Integer())
    outbox = sa.table(
        "outbox",
        sa.column("id", sa.Integer()),
        sa.column("user_key", sa.String()),
        sa.column("key", sa.String()),
        sa.column("user_id", sa.String()),
    )
    conn = op.get_bind()
    for row_id, user_key in conn.execute(sa.select(outbox.c.id, outbox.c.user_key)).all():
        user_id = split_user_key(user_key)[1] if user_key else None
        conn.execute(
            outbox.update()
            .where(outbox.c.id == row_id)
            .values(key=f"outbox-{row_id}", user_id=user_id)
        )
    with op.batch_alter_table("outbox") as batch:
        batch.alter_column("key", existing_type=sa.String(length=300), nullable=False)
        batch.create_unique_constraint("uq_outbox_key", ["key"])
    if conn.dialect.name == "postgresql":
        op.alter_column("memory_items", "id", type_=sa.BigInteger(), existing_type=sa.Integer())
        op.execute("ALTER SEQUENCE IF EXISTS memory_items_id_seq AS bigint")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("memory_items", "id", type_=sa.Integer(), existing_type=sa.BigInteger())
    with op.batch_alter_table("outbox") as batch:
        batch.drop_constraint("uq_outbox_key", type_="unique")
        batch.alter_column("memory_id", type_=sa.Integer(), existing_type=_BIG_ID)
        for name in ("decided_at", "final_text", "user_id", "key"):
            batch.drop_column(name)
    with op.batch_alter_table("pending_turns") as batch:
        for name in ("envelope", "received_at", "claims", "claim_expires_at", "claimed_by"):
            batch.drop_column(name)
        batch.alter_column("retry_at", new_column_name="failed_at")
    op.drop_table("workers")
