"""The email channel end to end: Dovecot + aiosmtpd, the real Gateway and the rules agent.

Mail goes by SMTP into the bot's mailbox, the adapter reads it over IMAP IDLE, the gateway
answers, and the answer goes by SMTP into Alice's mailbox, where the test reads it over IMAP.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from channels.email import EmailChannel
from clockcore import Clock, SettableClock
from tests.channels.email.conftest import (
    ALICE,
    BOT,
    inbox_flags,
    letter,
    make_channel,
    read_inbox,
    submit,
)
from tests.support.mail import DovecotServer, SmtpSink


@asynccontextmanager
async def running(
    home: Path,
    dovecot: DovecotServer,
    smtp: SmtpSink,
    *,
    clock: Clock | None = None,
    **options: Any,
) -> AsyncIterator[tuple[Gateway, EmailChannel]]:
    channel = make_channel(dovecot, smtp, clock=clock, **options)
    gateway = Gateway(
        Settings(home=home, http_port=0),
        channels=[channel],
        clock=clock,
        poll_interval=0.2,
    )
    async with gateway:
        yield gateway, channel


async def replies_to_alice(dovecot: DovecotServer) -> list[EmailMessage]:
    return [m for _, m in await read_inbox(dovecot, ALICE)]


async def quiet(gateway: Gateway, seconds: float = 1.0) -> None:
    """Let the reader take another look at the mailbox, then let every answer go out."""
    await asyncio.sleep(seconds)
    await gateway.settle(timeout=15)


# --- answered, threaded -------------------------------------------------------------------------


async def test_a_mail_is_answered_in_the_senders_mailbox_and_a_reply_stays_in_the_thread(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _channel):
        await submit(mail, letter("what time is it in Tokyo", subject="Quick question"))
        await mail.wait_for(ALICE, 1)
        [answer] = await replies_to_alice(dovecot)

        assert answer["From"] == BOT
        assert answer["To"] == ALICE
        assert answer["Subject"] == "Re: Quick question"
        assert answer["In-Reply-To"] == "<m1@example.test>"
        assert answer["References"] == "<m1@example.test>"
        assert answer["Auto-Submitted"] == "auto-replied"
        assert answer["Message-ID"].endswith("@example.test>")
        assert "in Tokyo (Asia/Tokyo)" in answer.get_content()

        # Alice answers the answer, quoting it, from a client that keeps References.
        follow_up = letter(
            "what time is it in Lisbon\n\n"
            f"On Sun, 22 Nov 2026 at 10:00, Clockbot <{BOT}> wrote:\n"
            f"> {answer.get_content().strip()}\n",
            subject="Re: Re: Quick question",
            message_id="<m2@example.test>",
            In_Reply_To=answer["Message-ID"],
            References=f"<m1@example.test> {answer['Message-ID']}",
        )
        await submit(mail, follow_up)
        await mail.wait_for(ALICE, 2)
        second = (await replies_to_alice(dovecot))[1]
        await gateway.settle()
        jobs = await gateway.outbox.listing()

    assert second["In-Reply-To"] == "<m2@example.test>"
    assert second["References"].split() == [
        "<m1@example.test>",
        answer["Message-ID"],
        "<m2@example.test>",
    ]
    assert "in Lisbon (Europe/Lisbon)" in second.get_content()
    assert second["Subject"] == "Re: Quick question"
    assert second["Message-ID"] != answer["Message-ID"]
    # One thread for both: the sender's, named by the mail that started it.
    assert {job.thread_id for job in jobs} == {"alice@example.test/<m1@example.test>"}
    assert len(jobs) == 2


# --- reconnecting -------------------------------------------------------------------------------


async def test_dovecot_restarting_is_survived_and_mail_from_the_gap_answered_once(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, channel):
        await submit(mail, letter("what time is it in Tokyo"))
        await mail.wait_for(ALICE, 1)

        await asyncio.to_thread(dovecot.stop)
        for _ in range(200):  # the reader notices the drop at once; allow it ten seconds
            if await channel.health() is not None:
                break
            await asyncio.sleep(0.05)
        assert "not connected" in (await channel.health() or "")
        # Delivered into the Maildir while IMAP is down, as an MTA would.
        await submit(mail, letter("what time is it in Lima", message_id="<gap@example.test>"))
        await asyncio.to_thread(dovecot.start)

        await mail.wait_for(ALICE, 2, within=30)
        await quiet(gateway, 1.5)
        assert await channel.health() is None
        answers = await replies_to_alice(dovecot)

    assert [a["In-Reply-To"] for a in answers] == ["<m1@example.test>", "<gap@example.test>"]
    assert "America/Lima" in answers[1].get_content()
    assert await inbox_flags(dovecot) == [{"\\Seen"}, {"\\Seen"}]


async def test_a_restart_answers_nothing_twice_even_after_a_uidvalidity_change(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("what time is it in Tokyo"))
        await mail.wait_for(ALICE, 1)
        await gateway.settle()

    # While the bot is down: one new mail; then the mailbox loses its UID list, so the server
    # hands out a new UIDVALIDITY, and the handled mail is made unseen again (as if the bot had
    # crashed between answering and setting \Seen).
    await submit(mail, letter("what time is it in Oslo", message_id="<later@example.test>"))
    await asyncio.to_thread(dovecot.stop)
    maildir = dovecot.maildir(BOT)
    (maildir / "dovecot-uidlist").unlink()
    for path in (maildir / "cur").iterdir():
        path.rename(maildir / "new" / path.name.split(":")[0])
    await asyncio.to_thread(dovecot.start)

    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await mail.wait_for(ALICE, 2)
        await quiet(gateway, 1.5)
        answers = await replies_to_alice(dovecot)

    assert [a["In-Reply-To"] for a in answers] == ["<m1@example.test>", "<later@example.test>"]
    assert "Europe/Oslo" in answers[1].get_content()


# --- loops and abuse ----------------------------------------------------------------------------


_BOUNCE = (
    b"From: MAILER-DAEMON@example.test (Mail Delivery System)\r\n"
    b"To: bot@example.test\r\n"
    b"Subject: Undelivered Mail Returned to Sender\r\n"
    b"Message-ID: <bounce@example.test>\r\n"
    b"MIME-Version: 1.0\r\n"
    b'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\r\n'
    b"\r\n"
    b"--b1\r\nContent-Type: text/plain\r\n\r\nI'm sorry to have to inform you...\r\n"
    b"--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; example.test\r\n"
    b"\r\nFinal-Recipient: rfc822; gone@example.test\r\nAction: failed\r\nStatus: 5.1.1\r\n"
    b"--b1--\r\n"
)


async def test_auto_replies_lists_bounces_ourselves_and_strangers_are_not_answered(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    refused: list[EmailMessage | bytes] = [
        letter("I am out of office", message_id="<ooo@x>", Auto_Submitted="auto-replied"),
        letter("Newsletter", message_id="<bulk@x>", Precedence="bulk"),
        letter("Digest", message_id="<list@x>", List_Id="<talk.lists.example.test>"),
        _BOUNCE,
        letter("what time is it in Tokyo", sender=BOT, message_id="<self@x>"),
        letter("what time is it in Tokyo", sender="mallory@evil.test", message_id="<evil@x>"),
        letter("what time is it in Tokyo", sender="noreply@example.test", message_id="<nr@x>"),
    ]
    async with running(
        tmp_path, dovecot, mail, allowed_senders=["@example.test", "bob@elsewhere.test"]
    ) as (gateway, _):
        for message in refused:
            await submit(mail, message)
        await submit(mail, letter("what time is it in Tokyo", message_id="<ok@x>"))
        await mail.wait_for(ALICE, 1)
        await quiet(gateway)
        state = await gateway.wrapper.export_state()
        jobs = await gateway.outbox.listing()

    answered = [r.message["In-Reply-To"] for r in mail.received if r.mail_from == BOT]
    assert answered == ["<ok@x>"]
    assert len(jobs) == 1
    # Only Alice's allowed mail was stored: one person, one thread.
    users = state["users"]
    assert isinstance(users, dict)
    stored = [key for user in users.values() for key in user["channels"]]
    assert stored == [f"email:{ALICE}"]
    assert list(state["threads"]) == ["agent:main:email:alice@example.test/<ok@x>"]  # type: ignore[call-overload]
    # Refused mail is marked seen like the answered one, so nothing waits in the inbox.
    assert await inbox_flags(dovecot) == [{"\\Seen"}] * (len(refused) + 1)


async def test_required_authentication_results_refuse_unauthenticated_mail(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    forged = letter("what time is it in Tokyo", message_id="<forged@x>", proven=False)
    forged["Authentication-Results"] = "mx.example.test; dkim=fail; spf=softfail"
    signed = letter("what time is it in Tokyo", message_id="<signed@x>", proven=False)
    signed["Authentication-Results"] = "mx.example.test; dkim=pass header.d=example.test"
    async with running(
        tmp_path, dovecot, mail, require_auth_results=True, authserv_ids=["mx.example.test"]
    ) as (gateway, _):
        await submit(mail, forged)
        await submit(mail, signed)
        await mail.wait_for(ALICE, 1)
        await quiet(gateway)
    assert [a["In-Reply-To"] for a in await replies_to_alice(dovecot)] == ["<signed@x>"]


# --- reminders ----------------------------------------------------------------------------------


async def test_a_reminder_set_by_email_arrives_as_its_own_mail_when_due(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    clock = SettableClock(datetime.now(UTC))
    async with running(tmp_path, dovecot, mail, clock=clock) as (gateway, _):
        await submit(mail, letter("remind me in 1 minute to stretch", subject="stretching"))
        [confirmation] = await mail.wait_for(ALICE, 1)
        # Said back as the person reads it: "Thursday 26 Nov, 10:57 (in 1 minute)".
        said = r"I'll remind you \w+ \d{1,2} \w{3}, \d{2}:\d{2} \(in \d+ \w+\)\."
        assert re.search(said, confirmation.get_content())
        await gateway.settle()
        await asyncio.sleep(0.5)
        assert len(mail.to(ALICE)) == 1  # not due yet

        clock.advance(timedelta(minutes=1, seconds=5))
        await gateway.settle()
        await mail.wait_for(ALICE, 2)
        reminder = (await replies_to_alice(dovecot))[1]

    assert reminder["Subject"].startswith("Reminder:")
    assert "stretch" in reminder.get_content()
    assert reminder["Auto-Submitted"] == "auto-generated"
    assert reminder["In-Reply-To"] == "<m1@example.test>"  # threaded with the request
    assert reminder["Message-ID"] != confirmation["Message-ID"]


async def test_snooze_in_reply_to_an_older_reminder_mail_snoozes_that_one(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    """In-Reply-To names the reminder's Message-ID: that reminder, not the newest (issue 13)."""
    clock = SettableClock(datetime.now(UTC))
    async with running(tmp_path, dovecot, mail, clock=clock) as (gateway, _):
        await submit(mail, letter("remind me in 1 minute to stretch", subject="breaks"))
        await mail.wait_for(ALICE, 1)
        second = letter(
            "remind me in 2 minutes to drink water", subject="Re: breaks",
            message_id="<m2@example.test>", References="<m1@example.test>",
        )  # fmt: skip
        await submit(mail, second)
        await mail.wait_for(ALICE, 2)
        await gateway.settle()
        for minute in (1, 2):
            clock.advance(timedelta(minutes=1, seconds=5))
            await gateway.settle()
            await mail.wait_for(ALICE, 2 + minute)
        stretch, water = (await replies_to_alice(dovecot))[2:4]
        assert "stretch" in stretch.get_content() and "water" in water.get_content()
        snooze = letter(
            "snooze 20 min", subject="Re: Reminder", message_id="<m3@example.test>",
            In_Reply_To=stretch["Message-ID"],
            References=f"<m1@example.test> {stretch['Message-ID']}",
        )  # fmt: skip
        await submit(mail, snooze)
        await mail.wait_for(ALICE, 5)
        answer = (await replies_to_alice(dovecot))[4]
    assert answer.get_content().startswith("Snoozed: stretch, until")
