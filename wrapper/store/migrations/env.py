"""Alembic environment: runs on the connection `wrapper.store.db.migrate` hands it."""

from __future__ import annotations

from alembic import context

from wrapper.store.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only `wrapper.store.db.migrate` runs migrations
    raise RuntimeError("run migrations through wrapper.store.db.migrate")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
