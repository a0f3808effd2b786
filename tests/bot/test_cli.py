"""The `clockbot` command line, run in-process through typer's runner."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli.main import app

runner = CliRunner()
NOW = "2026-03-07T10:00:00-05:00"


def test_parse_json_across_the_dst_change() -> None:
    result = runner.invoke(
        app, ["time", "parse", "tomorrow 9am", "--tz", "America/New_York", "--now", NOW, "--json"]
    )
    assert result.exit_code == 0, result.output
    parsed = json.loads(result.stdout)
    assert parsed["kind"] == "absolute"
    assert parsed["start_instant"] == "2026-03-08T09:00:00-04:00"
    assert parsed["zone"] == "America/New_York"


def test_parse_a_recurrence_prints_its_rrule_and_next_five() -> None:
    result = runner.invoke(
        app,
        ["time", "parse", "every Sunday at 2:30am", "--tz", "America/New_York", "--now", NOW,
         "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    parsed = json.loads(result.stdout)
    assert parsed["rrule"] == "FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30;BYSECOND=0"
    assert parsed["floating"] is True
    assert parsed["next_occurrences"] == [
        "2026-03-08T03:30:00-04:00",  # 02:30 is skipped that night: the offset before the gap
        "2026-03-15T02:30:00-04:00",
        "2026-03-22T02:30:00-04:00",
        "2026-03-29T02:30:00-04:00",
        "2026-04-05T02:30:00-04:00",
    ]
    assert parsed["reader"] in ("duckling", "grammar")


def test_parse_a_recurrence_in_plain_words_and_one_that_asks() -> None:
    plain = runner.invoke(
        app, ["time", "parse", "weekdays at 8am", "--tz", "Europe/Berlin", "--now", NOW]
    )
    assert plain.exit_code == 0, plain.output
    lines = plain.stdout.splitlines()
    assert lines[0] == (
        "recurring: FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=0;BYSECOND=0 "
        "(floating, read in Europe/Berlin)"
    )
    assert lines[1] == "  2026-03-09T08:00:00+01:00"
    asks = runner.invoke(app, ["time", "parse", "every Monday", "--tz", "UTC", "--now", NOW])
    assert asks.exit_code == 1
    assert "what time" in asks.stdout.lower()


def test_parse_without_a_zone_is_floating_and_asks() -> None:
    result = runner.invoke(app, ["time", "parse", "tomorrow 9am", "--now", NOW, "--json"])
    assert result.exit_code == 1
    parsed = json.loads(result.stdout)
    assert parsed["kind"] == "floating"
    assert parsed["needs_clarification"] is True
    assert parsed["start_instant"] is None
    assert "timezone" in parsed["clarification_question"]


def test_parse_plain_output() -> None:
    result = runner.invoke(app, ["time", "parse", "in 90 minutes", "--now", NOW])
    assert result.exit_code == 0
    assert result.stdout.startswith("relative: 2026-03-07T16:30:00+00:00")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["time", "parse", "9am", "--tz", "Mars/Base"], "unknown timezone 'Mars/Base'"),
        (["time", "parse", "9am", "--tz", "EST"], "America/New_York"),
        (["time", "parse", "9am", "--tz", "UTC", "--now", "2026-03-07T10:00"], "offset"),
        (["time", "parse", "9am", "--tz", "UTC", "--now", "yesterday"], "offset"),
        (["time", "parse", "at 25:00", "--tz", "UTC", "--now", NOW], "not a time"),
        (["time", "convert", "9am", "--to", "Nowhere/Land", "--tz", "UTC"], "Nowhere/Land"),
        (["time", "convert", "9am EST", "--to", "UTC"], "EST"),
    ],
)
def test_errors_go_to_stderr_with_exit_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert needle in result.stderr


def test_convert() -> None:
    result = runner.invoke(
        app,
        ["time", "convert", "tomorrow 9am", "--tz", "America/New_York", "--to", "Asia/Kathmandu",
         "--now", NOW],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        "2026-03-08T09:00:00-04:00 (America/New_York) = 2026-03-08T18:45:00+05:45 (Asia/Kathmandu)"
    )


def test_convert_a_whole_day_shows_both_ends() -> None:
    result = runner.invoke(
        app, ["time", "convert", "2026-03-29", "--tz", "Europe/London", "--to", "UTC"]
    )
    assert result.exit_code == 0, result.output
    assert "2026-03-29T00:00:00+00:00 .. 2026-03-29T23:00:00+00:00 (UTC)" in result.stdout


def test_now_prints_an_aware_instant_in_the_zone() -> None:
    result = runner.invoke(app, ["time", "now", "--tz", "Asia/Kathmandu"])
    assert result.exit_code == 0
    stamp, zone = result.stdout.split()
    assert zone == "Asia/Kathmandu"
    assert datetime.fromisoformat(stamp).utcoffset() is not None
    assert stamp.endswith("+05:45")


def test_run_starts_the_console_on_the_embedded_defaults(tmp_path: Path) -> None:
    """What `make run` does: no configuration, SQLite under the home, the rules agent."""
    result = runner.invoke(
        app,
        ["run"],
        input="what time is it in Tokyo\nclock it: going for a run\n",
        env={"CLOCKBOT_HOME": str(tmp_path), "CLOCKBOT_LLM_PROVIDER": ""},
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("clockbot> It is ")
    assert lines[0].endswith("in Tokyo (Asia/Tokyo).")
    assert lines[1] == "clockbot> Clocked: going for a run."
    assert (tmp_path / "clockbot.sqlite3").exists()


async def test_the_console_opens_with_two_lines_and_quit_ends_it(tmp_path: Path) -> None:
    """Issue 61, the first hour: what to type, how to stop, where the data lives."""
    import io
    import sqlite3

    from bot.cli.chat import chat
    from bot.config.settings import Settings

    out = io.StringIO()
    lines = "what time is it in Tokyo\nquit\nremind me in 5 minutes to stretch\n"
    await chat(Settings(home=tmp_path, http_port=0), stdin=io.StringIO(lines), stdout=out,
               poll_interval=0.01, show_banner=True)  # fmt: skip
    first, second, *said = out.getvalue().splitlines()
    assert "exit, quit or Ctrl-D ends it" in first
    assert second.startswith(f"Data: {tmp_path / 'clockbot.sqlite3'}; no language model")
    assert len(said) == 1 and said[0].startswith("clockbot> It is ")  # nothing after "quit"
    with sqlite3.connect(tmp_path / "clockbot.sqlite3") as db:
        assert db.execute("select count(*) from outbox where kind = 'reminder'").fetchone() == (0,)


async def test_with_a_public_url_the_console_serves_the_pages_its_dashboard_link_opens(
    tmp_path: Path,
) -> None:
    """Issue 61: "dashboard" on the console gave a link to pages nothing served."""
    import asyncio
    import io
    import queue
    import re

    import aiohttp

    from bot.cli.chat import chat
    from bot.config.settings import Settings
    from tests.support.bot_process import free_port

    class Typed(io.StringIO):
        """Lines as a person types them: each readline waits for the next."""

        def __init__(self) -> None:
            super().__init__()
            self.lines: queue.Queue[str] = queue.Queue()

        def readline(self, size: int | None = -1) -> str:
            return self.lines.get(timeout=60)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(home=tmp_path, http_port=port, public_url=url)
    typed, out = Typed(), io.StringIO()
    console = asyncio.create_task(chat(settings, stdin=typed, stdout=out, poll_interval=0.01,
                                       show_banner=True))  # fmt: skip
    typed.lines.put("dashboard\n")
    for _ in range(600):  # the reply, within 30 s
        if found := re.search(rf"{re.escape(url)}/ui/signin/\S+", out.getvalue()):
            break
        await asyncio.sleep(0.05)
    assert found, out.getvalue()
    async with aiohttp.ClientSession() as client, client.get(found.group(0)) as page:
        status, text = page.status, await page.text()
    typed.lines.put("")
    await asyncio.wait_for(console, 30)
    assert f"Web pages at {url}/ui/" in out.getvalue().splitlines()[1]
    assert status == 200 and "<form" in text
