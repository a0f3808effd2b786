"""What the web pages read (`wrapper.web`), on SQLite and PostgreSQL.

Alice writes on Telegram and by email (linked); Bob writes too. Her timeline holds her
messages on both channels, the bot's reply, her reminders as they ended (sent on time, sent
late, deferred with the agent's reason, failed, waiting) and her clocked action with its
expiry; nothing of Bob's. The hours chart counts only her messages. Retrying a failed job
puts it back once.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.engine import Connection

from clockcore import SettableClock
from tests.support import staged
from tests.wrapper.test_erase import _say
from wrapper.core import InteractionWrapper
from wrapper.outbound.outbox import outbox
from wrapper.store import queries as q
from wrapper.web import message_times_in, retry_in, timeline_in

START = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)


async def _job(wrapper: InteractionWrapper, user: str, text: str, kind: str = "reminder") -> int:
    now = START + timedelta(hours=1)
    return await staged.queued(
        wrapper.outbox, kind=kind, channel="telegram", thread_id=f"dm:{user}",  # type: ignore[arg-type]
        thread_key=f"main:telegram:dm:{user}", user_key=f"telegram:{user}", user_id=user,
        text=text, due_at=now, now=now,
    )  # fmt: skip


async def test_a_timeline_holds_a_persons_own_lines_in_every_state(database_url: str) -> None:
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(database_url, clock=clock)
    try:
        await _say(wrapper, clock, "telegram", "dm:42", "42", "hello on telegram", "1")
        _, notices = await _say(wrapper, clock, "telegram", "dm:42", "42", "clock: link", "2")
        code = re.search(r"Link code ([A-Z0-9-]+)", notices)
        assert code is not None, notices
        await _say(
            wrapper, clock, "email", "alice@example.test/<a1@x>", "alice@example.test",
            f"clock: link {code.group(1)}", "<a1@x>",
        )  # fmt: skip
        await _say(wrapper, clock, "telegram", "dm:42", "42", "clock: link yes", "2b")
        await _say(wrapper, clock, "telegram", "dm:42", "42", "heading to lunch", "3")
        await _say(wrapper, clock, "telegram", "dm:77", "77", "bob's own words", "4")
        due = START + timedelta(hours=1)
        jobs = {
            name: await _job(wrapper, "42", f"alice {name}")
            for name in ("on time", "late", "deferred", "failed", "waiting")
        }
        reply = await _job(wrapper, "42", "alice's answer", kind="reply")
        bobs = await _job(wrapper, "77", "bob's reminder")
        changes: dict[int, dict[str, Any]] = {
            jobs["on time"]: {"status": "sent", "sent_at": due + timedelta(minutes=1)},
            jobs["late"]: {"status": "sent", "sent_at": due + timedelta(minutes=45)},
            jobs["deferred"]: {
                "status": "deferred",
                "defer_reason": "she is asleep",
                "deferred_from": due,
                "due_at": due + timedelta(hours=8),
                "occurs_at": due + timedelta(hours=8),
            },
            jobs["failed"]: {"status": "failed", "last_error": "telegram: blocked"},
            reply: {"status": "sent", "sent_at": due},
            bobs: {"status": "sent", "sent_at": due},
        }

        def apply(conn: Connection) -> str:
            for job, values in changes.items():
                conn.execute(update(outbox).where(outbox.c.id == job).values(**values))
            person = q.load_person(conn, "email:alice@example.test")
            assert person is not None
            return person.user_id

        alice = await wrapper.database.run(apply)
        entries = await wrapper.database.run(
            lambda conn: timeline_in(conn, alice, since=START - timedelta(days=1))
        )
        hours = await wrapper.database.run(
            lambda conn: message_times_in(conn, alice, since=START - timedelta(days=1))
        )
        retried = [
            await wrapper.database.run(lambda conn: retry_in(conn, jobs["failed"], now=due))
            for _ in range(2)
        ]
    finally:
        await wrapper.close()
    mine = {(e.kind, e.text): e for e in entries}
    assert not [e for e in entries if "bob" in e.text]
    assert ("you", "hello on telegram") in mine
    assert mine[("you", "clock: link " + code.group(1))].channel == "email"
    assert mine[("bot", "alice's answer")].state == "sent"
    assert mine[("reminder", "alice on time")].state == "sent"
    assert mine[("reminder", "alice late")].state == "late"
    deferred = mine[("reminder", "alice deferred")]
    assert (deferred.state, deferred.note) == ("deferred", "she is asleep")
    assert deferred.until == due + timedelta(hours=8)
    failed = mine[("reminder", "alice failed")]
    assert (failed.state, failed.note) == ("failed", "telegram: blocked")
    assert mine[("reminder", "alice waiting")].state == "waiting"
    [action] = [e for e in entries if e.kind == "action"]
    assert "lunch" in action.text
    assert action.until is not None and action.until > action.at
    assert [e.at for e in entries] == sorted((e.at for e in entries), reverse=True)
    assert len(hours) == 5  # her five messages, on both channels; not Bob's
    assert retried == [True, False]
