"""`clockbot state export|import` against a real SQLite store."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli.main import app
from clockcore import SettableClock
from wrapper import InteractionWrapper

runner = CliRunner()


async def _seed(url: str) -> None:
    clock = SettableClock(datetime(2026, 4, 29, 15, tzinfo=UTC))
    wrapper = await InteractionWrapper.open(url, agent_tz="UTC", clock=clock)
    try:
        await wrapper.on_user_message(
            channel="console", thread_id="dm:me", user_id="me", text="clock it: gym", message_id="1"
        )
    finally:
        await wrapper.close()


def test_export_to_a_file_then_import_elsewhere(tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    target = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    asyncio.run(_seed(source))
    out = tmp_path / "state" / "clock-state.json"
    exported = runner.invoke(app, ["state", "export", str(out), "--database-url", source])
    assert exported.exit_code == 0, exported.output
    document = json.loads(out.read_text())
    assert document["version"] == 3
    assert [p.name for p in out.parent.iterdir()] == ["clock-state.json"]  # no temp files left

    imported = runner.invoke(app, ["state", "import", str(out), "--database-url", target])
    assert imported.exit_code == 0, imported.output
    assert (
        imported.stdout == f"Imported 1 person, 1 clocked action and 1 conversation from {out}.\n"
    )
    assert out.stat().st_mode & 0o777 == 0o600  # a backup is for its owner alone
    again = runner.invoke(app, ["state", "export", "--database-url", target])
    assert json.loads(again.stdout) == document


def test_export_reads_the_database_url_from_the_environment(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    asyncio.run(_seed(url))
    result = runner.invoke(app, ["state", "export"], env={"CLOCKBOT_DATABASE_URL": url})
    assert result.exit_code == 0
    assert "console:me" in result.stdout


def test_a_bad_file_lists_its_problems_and_changes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    asyncio.run(_seed(url))
    before = runner.invoke(app, ["state", "export", "--database-url", url]).stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 3, "users": {"x": {"default_tz": "Mars/Base"}}}))
    result = runner.invoke(app, ["state", "import", str(bad), "--database-url", url])
    assert result.exit_code == 2
    assert "nothing changed" in result.stderr
    assert "default_tz" in result.stderr
    assert runner.invoke(app, ["state", "export", "--database-url", url]).stdout == before


def test_unreadable_files_are_clear_errors(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    result = runner.invoke(app, ["state", "import", str(garbage), "--database-url", url])
    assert result.exit_code == 2
    assert "is not JSON" in result.stderr
    missing = runner.invoke(
        app, ["state", "import", str(tmp_path / "nope.json"), "--database-url", url]
    )
    assert missing.exit_code == 2
    assert "cannot read" in missing.stderr
    listed = tmp_path / "list.json"
    listed.write_text("[]")
    assert (
        runner.invoke(app, ["state", "import", str(listed), "--database-url", url]).exit_code == 2
    )


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,  # json.loads itself runs out of recursion
        '{"version": 3, "users": {"x": ' + "[" * 900 + "]" * 900 + "}}",  # validation would
    ],
)
def test_a_deeply_nested_file_is_a_clear_error(tmp_path: Path, text: str) -> None:
    """Issue 35, row 14: an uncaught RecursionError and a traceback."""
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    nested = tmp_path / "nested.json"
    nested.write_text(text)
    result = runner.invoke(app, ["state", "import", str(nested), "--database-url", url])
    assert result.exit_code == 2
    assert "nested" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_bad_database_url_is_a_clear_error_without_the_password(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["state", "export", "--database-url", "mysql://bob:hunter2@db/clock"]
    )
    assert result.exit_code == 2
    assert "hunter2" not in result.output
    assert "postgresql://" in result.stderr


def test_erase_asks_first_then_erases_the_person(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    asyncio.run(_seed(url))
    args = ["state", "erase", "--user", "console:me", "--database-url", url]
    declined = runner.invoke(app, args, input="n\n")
    assert declined.exit_code == 1
    assert "cannot be undone" in declined.output
    assert "console:me" in runner.invoke(app, ["state", "export", "--database-url", url]).stdout

    erased = runner.invoke(app, [*args, "--yes"])
    assert erased.exit_code == 0, erased.output
    assert erased.stdout.startswith("erased u_") and "console:me" in erased.stdout
    assert "1 actions" in erased.stdout
    after = runner.invoke(app, ["state", "export", "--database-url", url]).stdout
    assert "console:me" not in after and "gym" not in after

    again = runner.invoke(app, [*args, "--yes"])
    assert again.exit_code == 1
    assert "nobody is known as console:me" in again.output


def test_erase_refuses_a_key_that_is_no_identity(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    result = runner.invoke(app, ["state", "erase", "--user", "me", "--yes", "--database-url", url])
    assert result.exit_code == 2
    assert "user_key must be" in result.output


def test_export_of_one_person(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    asyncio.run(_seed(url))
    mine = runner.invoke(app, ["state", "export", "--user", "console:me", "--database-url", url])
    assert mine.exit_code == 0, mine.output
    document = json.loads(mine.stdout)
    assert document["x_clockbot"]["person"]["identities"] == ["console:me"]
    assert "clock it: gym" in mine.stdout
    nobody = runner.invoke(app, ["state", "export", "--user", "console:x", "--database-url", url])
    assert nobody.exit_code == 1 and "nobody is known as console:x" in nobody.output
