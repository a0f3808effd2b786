"""`clockbot outbox` lists every job with how it ended."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.engine import Connection
from typer.testing import CliRunner

from bot.cli.main import app
from tests.support import staged
from wrapper import InteractionWrapper, Outbox
from wrapper.outbound.outbox import JobDecision, decide_in, mark_sent_in

runner = CliRunner()
NOW = datetime(2026, 4, 29, 9, 14, tzinfo=UTC)


async def _seed(url: str) -> None:
    wrapper = await InteractionWrapper.open(url, agent_tz="UTC")
    try:
        outbox = Outbox(wrapper.database)
        common = {
            "channel": "console",
            "thread_id": "dm:me",
            "thread_key": "agent:main:console:dm:me",
            "user_key": "console:me",
            "now": NOW,
        }
        await staged.queued(outbox, kind="reply", text="hello", due_at=NOW, **common)  # type: ignore[arg-type]
        await staged.queued(outbox, kind="reminder", text="take the pill", due_at=NOW, **common)  # type: ignore[arg-type]
        first, second = await outbox.claim_due(now=NOW, worker="w", lease=timedelta(minutes=1))
        deferred = JobDecision(second.id, "w", defer_until=NOW.replace(hour=15), reason="asleep")

        def delivered_and_deferred(conn: Connection) -> None:
            assert mark_sent_in(conn, first.id, worker="w", sent_at=NOW)
            assert decide_in(conn, deferred, at=NOW)

        await wrapper.database.run(delivered_and_deferred)
    finally:
        await wrapper.close()


def test_outbox_lists_sent_and_deferred_jobs(tmp_path: Path) -> None:
    asyncio.run(_seed(f"sqlite:///{tmp_path / 'clockbot.sqlite3'}"))
    result = runner.invoke(app, ["outbox"], env={"CLOCKBOT_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "reminder" in lines[0]
    assert "deferred" in lines[0]
    assert "deferred: asleep" in lines[0]
    assert "sent" in lines[1]
    only = runner.invoke(app, ["outbox", "--status", "sent"], env={"CLOCKBOT_HOME": str(tmp_path)})
    assert len(only.stdout.splitlines()) == 1
    bad = runner.invoke(app, ["outbox", "--status", "lost"], env={"CLOCKBOT_HOME": str(tmp_path)})
    assert bad.exit_code == 2
