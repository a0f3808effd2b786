"""Engines and migrations: SQLite (the embedded default) and PostgreSQL, one schema.

SQLite runs in WAL mode with a busy timeout, and every transaction starts with
``BEGIN IMMEDIATE`` so that two processes writing the same file queue on the
lock instead of failing half-way with "database is locked".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from wrapper.errors import DatabaseURLError

__all__ = ["DEFAULT_DB_NAME", "create_engine", "default_home", "migrate", "resolve_url"]

DEFAULT_DB_NAME = "clockbot.sqlite3"
_MIGRATIONS = Path(__file__).with_name("migrations")


def default_home() -> Path:
    """``$CLOCKBOT_HOME``, else ``~/.clockbot``."""
    configured = os.environ.get("CLOCKBOT_HOME", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".clockbot"


def resolve_url(database_url: str | None) -> str:
    """The async SQLAlchemy URL for `database_url` (None: SQLite under the home directory).

    Plain ``sqlite:///`` and ``postgresql://`` URLs are upgraded to the
    ``aiosqlite`` and ``asyncpg`` drivers.

    Raises:
        DatabaseURLError: not a URL, or a database clockbot does not support.
    """
    if database_url is None or not database_url.strip():
        home = default_home()
        home.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{home / DEFAULT_DB_NAME}"
    try:
        url = make_url(database_url.strip())
    except ArgumentError as exc:
        raise DatabaseURLError(_masked(database_url), "not a SQLAlchemy URL") from exc
    backend = url.get_backend_name()
    if backend == "sqlite":
        url = url.set(drivername="sqlite+aiosqlite")
        if url.database and url.database != ":memory:":
            Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    elif backend in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+asyncpg")
    else:
        raise DatabaseURLError(
            url.render_as_string(hide_password=True), "use sqlite:///PATH or postgresql://..."
        )
    return url.render_as_string(hide_password=False)


def _masked(raw: str) -> str:
    try:
        return make_url(raw).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unreadable URL>"


def create_engine(url: str) -> AsyncEngine:
    """An async engine for a URL from `resolve_url`, set up for its database."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 60})
        _sqlite_setup(engine)
        return engine
    return create_async_engine(url, pool_size=5, max_overflow=10, pool_pre_ping=True)


def _sqlite_setup(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the newest Alembic revision (idempotent)."""
    from alembic import command
    from alembic.config import Config

    def upgrade(connection: Connection) -> None:
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    async with engine.begin() as connection:
        await connection.run_sync(upgrade)
