"""The console channel driven as a person would: lines in, what clockbot said out.

`bot.cli.chat.chat` reads the lines from a piped standard input, answers each with
the embedded rules agent (no model configured) and stops at the end of input.
"""

from __future__ import annotations

import io
import sqlite3
from datetime import timedelta
from pathlib import Path

from bot.cli.chat import chat
from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.template_store import seed_sqlite

__all__ = ["console_output", "rows", "say", "waiting"]


async def console_output(
    settings: Settings, clock: SettableClock, *lines: str, linger: float = 0.2
) -> str:
    """Everything the console printed for `lines`, one after another."""
    if settings.store_url.startswith("sqlite:///"):  # a new home: its store, migrated once
        seed_sqlite(Path(settings.store_url.removeprefix("sqlite:///")))
    out = io.StringIO()
    await chat(
        settings, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out,
        clock=clock, poll_interval=0.01, linger=timedelta(seconds=linger),
    )  # fmt: skip
    return out.getvalue()


async def say(
    settings: Settings, clock: SettableClock, *lines: str, linger: float = 0.2
) -> list[str]:
    """The console's printed lines for `lines`; `linger` as `console_output` (0 where the clock
    stands still and nothing can fall due: the last answer is printed before the input ends)."""
    return (await console_output(settings, clock, *lines, linger=linger)).splitlines()


def rows(home: Path, sql: str) -> list[tuple[object, ...]]:
    """The rows `sql` reads from the embedded store under `home`."""
    with sqlite3.connect(home / "clockbot.sqlite3") as db:
        return db.execute(sql).fetchall()


def waiting(home: Path) -> list[tuple[object, ...]]:
    """(text, due_at) of every one-shot or repeating reminder still to be sent, soonest first."""
    return rows(
        home,
        "SELECT text, due_at FROM outbox WHERE kind = 'reminder' "
        "AND status IN ('pending', 'deferred') ORDER BY due_at",
    )
