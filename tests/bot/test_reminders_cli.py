"""`clockbot reminders list|cancel|pause|resume` on a real store (SQLite under CLOCKBOT_HOME)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from bot.cli.main import app
from clockcore import parse_recurrence
from tests.support import staged
from wrapper import InteractionWrapper
from wrapper.outbound.schedules import NewSchedule, new_schedule_id
from wrapper.turns.effects import ZoneChange

runner = CliRunner()


async def _seed(url: str, *, home_zone: str | None = None) -> int:
    now = datetime.now(UTC)
    wrapper = await InteractionWrapper.open(url, agent_tz="UTC")
    try:
        if home_zone is not None:
            await wrapper.save_settings(ZoneChange("console:me", None, home_zone, "home"))
        rule = parse_recurrence("every day at 9am", "Europe/Berlin", now)
        assert rule.rrule is not None and rule.dtstart is not None
        new = NewSchedule(
            id=new_schedule_id(), user_key="console:me", thread_key="agent:main:console:dm:me",
            channel="console", thread_id="dm:me", user_id="me", text="stretch",
            rrule=rule.rrule, dtstart=rule.dtstart, zone=None, origin_tz="Europe/Berlin",
        )  # fmt: skip
        await wrapper.reminders.create(new, now=now)
        await staged.queued(
            wrapper.outbox, kind="reminder", channel="console", thread_id="dm:me",
            thread_key="agent:main:console:dm:me", user_key="console:me", text="call the bank",
            due_at=now + timedelta(days=1), now=now,
        )  # fmt: skip
        return new.id
    finally:
        await wrapper.close()


def _cli(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["reminders", *args], env={"CLOCKBOT_HOME": str(tmp_path)})
    return result.exit_code, result.output


def test_list_cancel_pause_resume(tmp_path: Path) -> None:
    schedule = asyncio.run(_seed(f"sqlite:///{tmp_path / 'clockbot.sqlite3'}"))
    code, out = _cli(tmp_path, "list", "--json")
    assert code == 0, out
    rows = {row["id"]: row for row in json.loads(out)}
    assert rows[f"s{schedule}"]["text"] == "stretch"
    assert rows[f"s{schedule}"]["state"] == "active" and rows[f"s{schedule}"]["next"]
    (one_shot,) = [r for r in rows if r.startswith("r")]
    assert rows[one_shot]["text"] == "call the bank"
    assert _cli(tmp_path, "pause", f"s{schedule}")[0] == 0
    code, out = _cli(tmp_path, "list", "--user", "console:me")
    assert f"s{schedule}" in out and "paused" in out
    assert _cli(tmp_path, "resume", f"s{schedule}") == (0, f"s{schedule}: resumed\n")
    assert _cli(tmp_path, "cancel", one_shot) == (0, f"{one_shot}: canceled\n")
    code, out = _cli(tmp_path, "list", "--json")
    assert [row["id"] for row in json.loads(out)] == [f"s{schedule}"]
    assert json.loads(out)[0]["state"] == "active"


def test_an_unknown_id_or_time_is_a_clear_error(tmp_path: Path) -> None:
    schedule = asyncio.run(_seed(f"sqlite:///{tmp_path / 'clockbot.sqlite3'}"))
    code, out = _cli(tmp_path, "cancel", "s1")
    assert code == 1 and "no reminder 's1'" in out
    code, out = _cli(tmp_path, "pause", f"s{schedule}", "--until", "3/4")
    assert code == 2 and "cannot read '3/4'" in out
    assert _cli(tmp_path, "list", "--user", "telegram:9") == (0, "no reminders\n")


def test_the_list_shows_each_reminder_at_its_local_time_in_the_persons_zone(
    tmp_path: Path,
) -> None:
    """Issue 61: the operator reads what the person would, not a UTC stamp."""
    asyncio.run(_seed(f"sqlite:///{tmp_path / 'clockbot.sqlite3'}", home_zone="Asia/Tokyo"))
    code, out = _cli(tmp_path, "list")
    assert code == 0, out
    [repeating] = [line for line in out.splitlines() if "'stretch'" in line]
    [once] = [line for line in out.splitlines() if "'call the bank'" in line]
    assert ", 09:00 (in " in repeating and "Asia/Tokyo" in repeating  # 9am, where they live
    assert "Asia/Tokyo" in once and "(in 24 hours)" in once
    assert "+00:00" not in out
    rows = json.loads(_cli(tmp_path, "list", "--json")[1])
    assert {row["shown_in"] for row in rows} == {"Asia/Tokyo"}
    assert all(row["next"].endswith("+00:00") for row in rows)  # the instant, for scripts
