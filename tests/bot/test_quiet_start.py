"""A start says what the store is in one line; libraries do not narrate (issue 37, step 6)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wrapper.store.db import Database


@pytest.mark.fresh_store
async def test_the_store_says_what_it_is_and_what_was_done_in_one_line(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    for _ in range(2):  # a new store, then the same store again
        database = Database(database_url)
        try:
            with caplog.at_level(logging.INFO):
                await database.migrate()
        finally:
            await database.dispose()
    lines = [r.getMessage() for r in caplog.records if r.name == "wrapper.store.db"]
    assert len(lines) == 2, lines
    first, again = lines
    kind = "SQLite at " if database_url.startswith("sqlite") else "PostgreSQL at 127.0.0.1:"
    assert first.startswith(f"store: {kind}") and first.endswith(", migrated from empty")
    assert again.endswith(", up to date")
    assert first.split(", ")[1] == again.split(", ")[1]  # "schema NNNN", the newest
    assert "password" not in " ".join(lines).lower() and "@" not in " ".join(lines)


def test_clockbot_run_on_a_new_store_prints_one_store_line_and_no_library_chatter(
    tmp_path: Path,
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("CLOCKBOT_")},
        "CLOCKBOT_HOME": str(tmp_path),
        "CLOCKBOT_TELEGRAM_TOKEN": "123:abc",
        "CLOCKBOT_TELEGRAM_API_URL": "http://127.0.0.1:1",  # refused at once: the run ends
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli.main", "run"],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    lines = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr
    assert [line for line in lines if " INFO " in line and "store: SQLite at" in line]
    assert not [line for line in lines if "alembic" in line], done.stderr
    assert lines[-1].startswith("error: a channel could not start: telegram")


@pytest.mark.parametrize(
    ("name", "level", "shown"),
    [
        ("alembic.runtime.migration", logging.INFO, False),
        ("alembic", logging.WARNING, True),
        ("httpx", logging.DEBUG, False),
        ("telegram.ext.Application", logging.ERROR, True),
        ("wrapper.store.db", logging.INFO, True),
        ("telegramx", logging.INFO, True),  # a prefix of a name is not the library
    ],
)
def test_library_chatter_is_dropped_below_warning(name: str, level: int, shown: bool) -> None:
    from bot.cli.main import LibraryChatter

    record = logging.LogRecord(name, level, __file__, 1, "a line", None, None)
    assert LibraryChatter().filter(record) is shown
