"""A meeting found in an email thread with two people: Dovecot + aiosmtpd, the real Gateway.

Alice writes to clockbot with Bob in Cc: a group thread, whose answers go to both. Bob's
reply-all joins it although he never wrote there (the thread's route names him). Alice asks
when they can meet (a scripted model calls `find_meeting_time`); the poll reaches both as
numbered text, each answers by replying "vote …", and the announcement reaches both with
the meeting attached as an ``.ics`` that `icalendar` parses back to the chosen slot.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from icalendar import Calendar

from clockcore import SettableClock
from tests.channels.email.conftest import ALICE, BOT, letter, running, submit
from tests.support.fake_llm import FakeLLMServer, Reply
from tests.support.mail import DovecotServer, SmtpSink
from wrapper.meeting_polls import poll_id_of

BOB = "bob@example.test"


def _text(mail: EmailMessage) -> str:
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def _calendar_part(mail: EmailMessage) -> Calendar | None:
    for part in mail.walk():
        if part.get_content_type() == "text/calendar":
            assert part.get_param("method") == "PUBLISH"
            return Calendar.from_ical(part.get_content())
    return None


async def test_two_people_in_a_mail_thread_meet_and_both_get_the_ics(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    clock = SettableClock(datetime(2026, 11, 27, 10, tzinfo=UTC))
    async with (
        FakeLLMServer(default_text="Noted.") as llm,
        running(tmp_path, dovecot, mail, llm, clock) as gateway,
    ):

        async def write(
            sender: str, text: str, mid: str, *, proven: bool = True, **headers: str
        ) -> None:
            clock.advance(timedelta(seconds=30))
            message = letter(text, sender=sender, message_id=f"<{mid}@example.test>",
                             subject="planning", proven=proven, **headers)  # fmt: skip
            await submit(mail, message, sender=sender)

        await write(ALICE, "clock: home tz Europe/Lisbon", "a0")
        await write(BOB, "clock: home tz America/New_York", "b0")
        await mail.wait_for(ALICE, 1)
        await mail.wait_for(BOB, 1)
        await gateway.settle()

        await write(ALICE, "Bob and I need to talk.", "g1", Cc=f"Bob <{BOB}>")
        [*_, hello] = await mail.wait_for(BOB, 2)  # the answer reaches Bob in Cc too
        await write(BOB, "Hi both", "g2", Cc=ALICE, In_Reply_To=hello["Message-ID"],
                    References=f"<g1@example.test> {hello['Message-ID']}")  # fmt: skip
        [*_, joined] = await mail.wait_for(ALICE, 3)
        await gateway.settle()

        llm.script(
            Reply.tool_call("find_meeting_time", json.dumps({"when": "next week"})),
            Reply.text("Here are three times for you both:"),
        )
        await write(ALICE, "When can we meet next week?", "g3", Cc=BOB,
                    In_Reply_To=joined["Message-ID"])  # fmt: skip
        await mail.wait_for(BOB, 5)  # the answer, then the poll
        await gateway.settle()
        [poll] = [m for m in mail.to(BOB) if "When can we meet?" in _text(m)]
        await write(ALICE, "vote 1 2", "v1", Cc=BOB, In_Reply_To=poll["Message-ID"])
        await gateway.settle()
        # A forged "Bob" (his server did not prove it) decides nothing (issue 59, row 5).
        await write(BOB, "Vote 3", "f1", proven=False, Cc=ALICE, In_Reply_To=poll["Message-ID"])
        await gateway.settle()
        await write(BOB, "Vote 2", "v2", Cc=ALICE, In_Reply_To=poll["Message-ID"])
        [*_, to_alice] = await mail.wait_for(ALICE, 6)
        [*_, to_bob] = await mail.wait_for(BOB, 6)
        await gateway.settle()
        jobs = await gateway.outbox.listing(limit=50)
        [poll_id] = [poll_id_of(j.key) for j in jobs if poll_id_of(j.key) is not None]
        stored = await gateway.wrapper.meetings.poll(poll_id or 0)

    # One group thread, which Bob joined by replying to all; each answer went to both,
    # the writer in To and the other in Cc.
    groups = {j.thread_id for j in jobs if j.thread_id.startswith("group/")}
    assert groups == {f"group/{ALICE}/<g1@example.test>"}
    assert (hello["To"], hello["Cc"]) == (ALICE, BOB)
    assert (joined["To"], joined["Cc"]) == (BOB, ALICE)
    assert (poll["To"], poll["Cc"]) == (ALICE, BOB)
    assert "vote 1 3" in _text(poll)
    # Both votes were counted without the model: the second decided the poll.
    asked = [json.dumps(c.json["messages"][-1]) for c in llm.completions]
    assert not [words for words in asked if "vote 1 2" in words or "Vote 2" in words]
    assert stored is not None and stored.chosen == 2
    slot = stored.options[1]
    assert to_alice["Message-ID"] == to_bob["Message-ID"]  # one mail, to both
    assert _text(to_alice).startswith(f"Decided: {slot.label}. Everyone can make it.")
    assert to_alice["From"] == BOT
    calendar = _calendar_part(to_alice)
    assert calendar is not None
    assert str(calendar["METHOD"]) == "PUBLISH"
    [event] = calendar.walk("VEVENT")
    assert event.start == slot.start
    assert event.end == slot.start + timedelta(minutes=60)
    assert str(event["UID"]) == f"meeting-{stored.id}@clockbot"
    assert "Lisbon" in str(event["DESCRIPTION"]) and "New York" in str(event["DESCRIPTION"])
    assert all(_calendar_part(m) is None for m in mail.to(ALICE)[:-1])  # only the announcement
