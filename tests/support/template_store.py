"""A store already migrated to head, copied where a test's new store would be created.

Most tests open a new, empty store, and each such open ran the 22 migrations again
(~0.6 s on SQLite, more on PostgreSQL): hundreds of times a run. The store is migrated
once per test process instead, and copied: a SQLite file, or a PostgreSQL database
created from it as a template. What the migrations themselves do, from empty, is
tested on stores left empty (the ``fresh_store`` marker; tests/bot/test_quiet_start.py,
tests/wrapper/test_store.py's store-at-a-path tests).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
from pathlib import Path

from tests.support.postgres import PostgresServer
from wrapper.store.db import Database

__all__ = ["seed_sqlite", "template_database"]

_lock = threading.Lock()
_sqlite: Path | None = None
_postgres: dict[str, str] = {}


def _migrated(url: str) -> None:
    """Migrate the store at `url` to head, from any thread, inside a running loop or not."""

    async def migrate() -> None:
        database = Database(url)
        try:
            await database.migrate()
        finally:
            await database.dispose()

    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(migrate())
        except BaseException as error:  # raised again in the caller's thread
            failure.append(error)

    worker = threading.Thread(target=run, name="template-store")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]


def seed_sqlite(path: Path) -> None:
    """A store at `path` migrated to head, unless one is there already."""
    global _sqlite
    if path.exists():
        return
    with _lock:
        if _sqlite is None:
            template = Path(tempfile.mkdtemp(prefix="clockbot-template-")) / "template.sqlite3"
            _migrated(f"sqlite:///{template}")
            _sqlite = template
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_sqlite, path)


def template_database(server: PostgresServer) -> str:
    """The name of a database on `server` migrated to head once, to create others from
    (``CREATE DATABASE … TEMPLATE``)."""
    with _lock:
        key = server.url("")
        if key not in _postgres:
            name = server.create_database("t_template_migrated")
            _migrated(server.url(name))
            _postgres[key] = name
        return _postgres[key]
