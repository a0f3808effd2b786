"""`clockbot reminders` alone lists the reminders (issue 61, item 17: it said "Missing command")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.test_reminders_cli import _cli, _seed


def test_reminders_alone_lists_as_list_does(tmp_path: Path) -> None:
    schedule = asyncio.run(_seed(f"sqlite:///{tmp_path / 'clockbot.sqlite3'}"))
    code, alone = _cli(tmp_path)
    assert code == 0, alone
    assert f"s{schedule}" in alone and "stretch" in alone and "call the bank" in alone
    code, listed = _cli(tmp_path, "list")
    assert code == 0 and [line.split()[:2] for line in alone.splitlines()] == [
        line.split()[:2] for line in listed.splitlines()
    ]
