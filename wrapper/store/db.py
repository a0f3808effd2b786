"""The store's database: SQLite (the embedded default) or PostgreSQL, one schema.

Every unit of work is a plain function of a SQLAlchemy `Connection`, run as one
transaction by `Database.run`. How it runs depends on the database:

- SQLite: with the standard library's driver (23 µs a statement here, against
  172 µs through aiosqlite, which hops threads for every statement). Short
  transactions that ask for it (`run(..., inline=True)`: one message's
  bookkeeping, well under a millisecond) run on the event loop's own thread
  with a zero busy timeout: if another writer holds the lock, the attempt
  fails before any work is done and the transaction moves to a worker thread,
  where it waits its turn. The loop never waits on a lock, and the common case
  skips a thread handoff that costs 30–450 µs on a two-core VM. Everything
  else runs on a worker thread. The database is in WAL mode, and every
  transaction starts with ``BEGIN IMMEDIATE`` so that processes writing one
  file queue on the lock instead of failing half-way.
- PostgreSQL: through asyncpg, with SQLAlchemy's `run_sync` bridging the same
  functions onto the event loop. Connections are not pinged on checkout (that
  was a round trip on every transaction): a connection found dead fails its
  transaction, SQLAlchemy drops the pool's older connections, and `run` tries
  the work once more on a new one. The hot path (`wrapper.inbound.hot`) skips
  SQLAlchemy and uses an asyncpg pool of its own (`Database.pg_pool`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, event, text
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from wrapper.errors import DatabaseURLError

__all__ = ["DEFAULT_DB_NAME", "Database", "default_home", "resolve_url"]

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_DB_NAME = "clockbot.sqlite3"
_MIGRATIONS = Path(__file__).with_name("migrations")


def default_home() -> Path:
    """``$CLOCKBOT_HOME``, else ``~/.clockbot``."""
    configured = os.environ.get("CLOCKBOT_HOME", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".clockbot"


def _private_dir(path: Path) -> None:
    """Create `path` (and parents) readable by this user only (0700); an existing one is kept.

    clockbot's home holds the store and maybe the config: nobody else on the host reads it.
    """
    if not path.exists():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.chmod(0o700)  # mkdir's mode is masked by the umask


def _private_file(path: Path) -> None:
    """Create an empty `path` readable by this user only (0600) if it does not exist.

    SQLite then opens it as it is, and gives its WAL and shared-memory files the same mode.
    """
    if not path.exists():
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            os.close(fd)


def resolve_url(database_url: str | None) -> str:
    """The SQLAlchemy URL clockbot opens for `database_url` (None: SQLite under the home).

    SQLite URLs (``sqlite:///``, ``sqlite+aiosqlite:///``) open with the
    standard library's driver (see the module docstring); PostgreSQL URLs
    (``postgresql://``, ``postgres://``) with ``asyncpg``.

    Raises:
        DatabaseURLError: not a URL, or a database clockbot does not support.
    """
    if database_url is None or not database_url.strip():
        home = default_home()
        _private_dir(home)
        _private_file(home / DEFAULT_DB_NAME)
        return f"sqlite:///{home / DEFAULT_DB_NAME}"
    try:
        url = make_url(database_url.strip())
    except ArgumentError as exc:
        raise DatabaseURLError(_masked(database_url), "not a SQLAlchemy URL") from exc
    backend = url.get_backend_name()
    if backend == "sqlite":
        url = url.set(drivername="sqlite")
        if url.database and url.database != ":memory:":
            path = Path(url.database).expanduser()
            path.parent.mkdir(parents=True, exist_ok=True)
            _private_file(path)
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


class Database:
    """One store, and the way its transactions run."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._sync: Engine | None = None
        self._inline: Engine | None = None
        self._async: AsyncEngine | None = None
        self._pool: Any = None  # asyncpg.Pool, made on first use
        self._pool_made = asyncio.Lock()
        self.pg_lost: tuple[type[BaseException], ...] = ()
        """What asyncpg raises when the server closed a connection (set with the pool)."""
        if url.startswith("sqlite"):
            self._sync = create_sync_engine(
                url, connect_args={"timeout": 60, "check_same_thread": False}
            )
            _sqlite_setup(self._sync, busy_timeout_ms=60_000)
            self._inline = create_sync_engine(
                url, connect_args={"timeout": 0, "check_same_thread": False}
            )
            _sqlite_setup(self._inline, busy_timeout_ms=0)
        else:
            self._async = create_async_engine(url, pool_size=5, max_overflow=10)

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql"."""
        return "sqlite" if self._sync is not None else "postgresql"

    async def run(self, work: Callable[[Connection], T], *, inline: bool = False) -> T:
        """Run `work` in one transaction: committed when it returns, rolled back if it raises.

        On PostgreSQL a connection found dead runs `work` a second time, on a
        new one: `work` must leave Python state as it would after one run
        (reset what it appends to; `MessageChain.receive` does).

        Args:
            work: the transaction's body.
            inline: `work` is short; on SQLite, try it on this thread first.
        """
        if inline and self._inline is not None:
            started: list[bool] = []
            try:
                with self._inline.begin() as connection:
                    started.append(True)
                    return work(connection)
            except (sqlite3.OperationalError, OperationalError) as exc:
                if started or "locked" not in str(exc):
                    raise
            # Another writer holds the lock: wait for it off the event loop.
        if self._sync is not None:
            return await asyncio.to_thread(self._run_sqlite, work)
        assert self._async is not None
        try:
            async with self._async.begin() as connection:
                return await connection.run_sync(work)
        except DBAPIError as exc:
            # A connection the server closed (restart, idle timeout, failover).
            # SQLAlchemy has invalidated it and every older one; its transaction
            # died with it, so the work is tried once more, on a new connection.
            if not exc.connection_invalidated:
                raise
        async with self._async.begin() as connection:
            return await connection.run_sync(work)

    async def pg_pool(self) -> Any:
        """PostgreSQL: an asyncpg pool beside SQLAlchemy's, for the hot path; None on SQLite.

        JSON columns come back decoded. A connection goes back to the pool
        without a reset round trip: the hot path leaves no session state.
        """
        if self._pool is not None or self._async is None:
            return self._pool
        async with self._pool_made:
            if self._pool is None:
                import asyncpg

                self.pg_lost = (
                    asyncpg.PostgresConnectionError,
                    asyncpg.exceptions.AdminShutdownError,
                    asyncpg.InterfaceError,
                    asyncpg.exceptions.InternalClientError,  # a FATAL that came in while idle
                    ConnectionError,
                )

                url = make_url(self.url).set(drivername="postgresql")
                self._pool = await asyncpg.create_pool(
                    url.render_as_string(hide_password=False),
                    min_size=1,
                    max_size=10,
                    init=_pg_codecs,
                    reset=_pg_reset,
                )
        return self._pool

    async def autocommit_connection(self) -> AsyncConnection:
        """A PostgreSQL connection of its own, in autocommit: session-level locks live on it.

        The caller closes it. Raises `RuntimeError` on SQLite, which has no such locks.
        """
        if self._async is None:
            raise RuntimeError("session locks need PostgreSQL")
        connection = await self._async.connect()
        await connection.execution_options(isolation_level="AUTOCOMMIT")
        return connection

    def _run_sqlite(self, work: Callable[[Connection], T]) -> T:
        assert self._sync is not None
        with self._sync.begin() as connection:
            return work(connection)

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (idempotent), and log one line
        saying which store it is and what was done (Alembic's own lines are chatter)."""
        before, after = await self.run(_upgrade)
        done = "up to date" if before == after else f"migrated from {before or 'empty'}"
        log.info("store: %s, schema %s, %s", self.describe(), after, done)

    def describe(self) -> str:
        """The store for a log line: "SQLite at PATH" or "PostgreSQL at HOST/DB"."""
        url = make_url(self.url)
        if url.get_backend_name() == "sqlite":
            return f"SQLite at {url.database}"
        port = f":{url.port}" if url.port else ""
        return f"PostgreSQL at {url.host or 'localhost'}{port}/{url.database}"

    async def dispose(self) -> None:
        """Close every pooled connection."""
        if self._inline is not None:
            self._inline.dispose()
        if self._sync is not None:
            await asyncio.to_thread(self._sync.dispose)
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
        if self._async is not None:
            await self._async.dispose()


async def _pg_codecs(connection: Any) -> None:
    for name in ("json", "jsonb"):
        await connection.set_type_codec(
            name, encoder=json.dumps, decoder=json.loads, schema="pg_catalog"
        )


async def _pg_reset(connection: Any) -> None:
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


_MIGRATE_LOCK = 0x6D696772
"""PostgreSQL: the transaction-level advisory lock ("migr") migrations run under."""


def _upgrade(connection: Connection) -> tuple[str | None, str | None]:
    """Upgrade to head; the revision before and after (None: an empty store)."""
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext

    if connection.dialect.name == "postgresql":
        # Workers starting together on an empty database would each create the
        # tables, and all but one fail on PostgreSQL's catalog. One migrates;
        # the others wait here, then find the schema at head.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATE_LOCK})

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    before = MigrationContext.configure(connection).get_current_revision()
    command.upgrade(config, "head")
    return before, MigrationContext.configure(connection).get_current_revision()


def _sqlite_setup(engine: Engine, *, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms:d}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA cache_size=-32768")  # 32 MiB of pages, not the 2 MiB default
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # Straight to the driver: this runs for every transaction.
        connection.connection.driver_connection.execute("BEGIN IMMEDIATE")  # type: ignore[union-attr]
