"""Composing replies (`channels.email.writing`) and sending them through aiosmtpd."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import recurring_ical_events
from icalendar import Calendar

from channels.base import ChannelError, Invite, Outgoing, OutgoingKind
from channels.email.writing import (
    InvalidRecipientError,
    compose,
    message_id_for,
    reply_subject,
)
from tests.channels.email.conftest import ALICE, BOT, make_channel
from tests.support.mail import DovecotServer, SmtpSink, free_port

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
ROUTE = {
    "to": ALICE,
    "subject": "Plans",
    "message_id": "<m2@x>",
    "references": "<m0@x> <m1@x> <m2@x>",
}


def outgoing(kind: OutgoingKind = "reply", text: str = "It is noon.", **route: str) -> Outgoing:
    return Outgoing(kind, "<m0@x>", ALICE, text, {**ROUTE, **route}, key="outbox-7")


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Plans", "Re: Plans"),
        ("Re: Plans", "Re: Plans"),
        ("RE: re: Plans", "Re: Plans"),
        ("AW: Plans", "Re: Plans"),
        ("Re[2]: Plans", "Re: Plans"),
        ("", "Re: your message"),
        ("Regarding plans", "Re: Regarding plans"),
    ],
)
def test_reply_subject(subject: str, expected: str) -> None:
    assert reply_subject(subject) == expected


def test_a_reply_threads_and_says_it_is_automatic() -> None:
    mail = compose(outgoing(), address=BOT, now=NOW)
    assert mail["From"] == BOT
    assert mail["To"] == ALICE
    assert mail["Subject"] == "Re: Plans"
    assert mail["In-Reply-To"] == "<m2@x>"
    assert mail["References"] == "<m0@x> <m1@x> <m2@x>"
    assert mail["Auto-Submitted"] == "auto-replied"
    assert mail["Date"] == "Sun, 22 Nov 2026 12:00:00 +0000"
    assert mail.get_content_type() == "text/plain"
    assert mail.get_content() == "It is noon.\n"


@pytest.mark.parametrize("kind", ["reminder", "proactive"])
def test_proactive_mail_is_auto_generated(kind: OutgoingKind) -> None:
    mail = compose(outgoing(kind, "Reminder: stretch"), address=BOT, now=NOW)
    assert mail["Auto-Submitted"] == "auto-generated"
    assert mail["In-Reply-To"] == "<m2@x>"
    if kind == "reminder":
        assert mail["Subject"] == "Reminder: stretch"


def test_the_message_id_is_stable_per_job_and_on_our_domain() -> None:
    first = compose(outgoing(), address=BOT, now=NOW)["Message-ID"]
    retried = compose(outgoing(), address=BOT, now=datetime(2026, 11, 23, tzinfo=UTC))["Message-ID"]
    other = message_id_for("outbox-8", BOT)
    assert first == retried == message_id_for("outbox-7", BOT) != other
    assert first.endswith("@example.test>")


def test_an_optional_html_part() -> None:
    mail = compose(outgoing(text="a <b> & c\n\nnext"), address=BOT, now=NOW, html_part=True)
    assert mail.get_content_type() == "multipart/alternative"
    html = mail.get_body(preferencelist=("html",))
    assert html is not None
    assert "a &lt;b&gt; &amp; c" in html.get_content()


@pytest.mark.parametrize(
    "field",
    ["subject", "message_id", "references", "to"],
)
def test_line_breaks_in_route_values_never_become_headers(field: str) -> None:
    evil = {
        "subject": "hi\r\nBcc: victim@example.test",
        "message_id": "<m2@x>\r\nBcc: victim@example.test",
        "references": "<m1@x>\nBcc: victim@example.test",
        "to": f"{ALICE}\r\nBcc: victim@example.test",
    }[field]
    try:
        message = Outgoing("reply", "<m0@x>", ALICE, "hi", {**ROUTE, field: evil}, "outbox-7")
        mail = compose(message, address=BOT, now=NOW)
    except InvalidRecipientError:
        assert field == "to"  # an address with a line break is no address: refused
        return
    data = mail.as_bytes()
    assert b"\r\nBcc:" not in data and b"\nBcc:" not in data
    assert mail.get_all("Bcc") is None


@pytest.mark.parametrize(
    "to", ["", "nobody", "a@b", "x@example.test, y@example.test", "<a@x.test>"]
)
def test_a_route_without_one_clean_address_is_refused(to: str) -> None:
    with pytest.raises(InvalidRecipientError):
        compose(Outgoing("reply", "t", None, "x", {"to": to}, "k"), address=BOT, now=NOW)


def test_without_a_route_the_user_id_is_the_address() -> None:
    mail = compose(Outgoing("proactive", "t", ALICE, "hi", {}, "k"), address=BOT, now=NOW)
    assert mail["To"] == ALICE
    assert mail["In-Reply-To"] is None
    assert mail["Subject"] == "Re: your message"


# --- sending through a real SMTP server ---------------------------------------------------------


async def test_send_delivers_by_smtp(dovecot: DovecotServer, mail: SmtpSink) -> None:
    channel = make_channel(dovecot, mail)
    await channel.send(outgoing())
    [received] = mail.received
    assert received.mail_from == BOT
    assert received.rcpt_tos == [ALICE]
    assert received.message["Message-ID"] == message_id_for("outbox-7", BOT)


async def test_a_temporary_smtp_failure_is_retried(dovecot: DovecotServer, mail: SmtpSink) -> None:
    mail.fail_next = "451 4.3.0 try again later"
    with pytest.raises(ChannelError) as caught:
        await make_channel(dovecot, mail).send(outgoing())
    assert not caught.value.permanent
    assert "451" in str(caught.value)


async def test_a_refused_recipient_is_permanent(dovecot: DovecotServer, mail: SmtpSink) -> None:
    with pytest.raises(ChannelError) as caught:
        await make_channel(dovecot, mail).send(outgoing(to="gone@example.test"))
    assert caught.value.permanent
    assert mail.received == []


async def test_an_unreachable_smtp_server_is_retried(
    dovecot: DovecotServer, mail: SmtpSink
) -> None:
    channel = make_channel(dovecot, mail, smtp_port=free_port(), smtp_password="hunter2-secret")
    with pytest.raises(ChannelError) as caught:
        await channel.send(outgoing())
    assert not caught.value.permanent
    assert "hunter2" not in str(caught.value)


async def test_a_bad_route_fails_permanently_without_connecting(
    dovecot: DovecotServer, mail: SmtpSink
) -> None:
    with pytest.raises(ChannelError) as caught:
        await make_channel(dovecot, mail).send(outgoing(to="not an address"))
    assert caught.value.permanent
    assert mail.received == []


def test_in_a_group_thread_an_answer_goes_to_all_and_a_reminder_to_its_person_first() -> None:
    group = {"cc": "bob@example.test carol@example.test bot@example.test bad<@x"}
    reply = compose(outgoing(**group), address=BOT, now=NOW)
    assert (reply["To"], reply["Cc"]) == (ALICE, "bob@example.test, carol@example.test")
    reminder = Outgoing(
        "reminder", "group/x", "carol@example.test", "Meeting: Tue", {**ROUTE, **group}, key="k"
    )
    mail = compose(reminder, address=BOT, now=NOW)
    assert (mail["To"], mail["Cc"]) == ("carol@example.test", f"{ALICE}, bob@example.test")
    assert compose(outgoing(), address=BOT, now=NOW)["Cc"] is None  # a private thread


def test_a_meeting_goes_as_an_ics_that_calendars_read_back() -> None:
    start = datetime(2026, 12, 1, 16, tzinfo=UTC)
    invite = Invite("meeting-9@clock.example", start, start + timedelta(minutes=45),
                    "Meeting: Ana, Ben", "Tue 1 Dec: 16:00 Lisbon · 11:00 New York")  # fmt: skip
    mail = compose(
        Outgoing("reply", "group/x", None, "Decided: Tue.", ROUTE, key="k", invite=invite),
        address=BOT, now=NOW,
    )  # fmt: skip
    [part] = [p for p in mail.walk() if p.get_content_type() == "text/calendar"]
    assert part.get_filename() == "meeting.ics" and part.get_param("method") == "PUBLISH"
    calendar = Calendar.from_ical(part.get_content())
    [event] = calendar.walk("VEVENT")
    assert (event.start, event.end) == (start, start + timedelta(minutes=45))
    assert (str(event["UID"]), str(event["SUMMARY"])) == (invite.uid, invite.title)
    assert str(event["DESCRIPTION"]) == invite.description
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None and body.get_content() == "Decided: Tue.\n"


def test_a_repeating_meeting_goes_with_its_rule_in_its_zone() -> None:
    start = datetime(2027, 3, 2, 16, tzinfo=UTC)
    invite = Invite("meeting-11@clockbot", start, start + timedelta(hours=1), "Meeting", "Tue",
                    repeat="FREQ=WEEKLY;INTERVAL=2", zone="Europe/London")  # fmt: skip
    mail = compose(
        Outgoing("reply", "group/x", None, "Decided.", ROUTE, key="k", invite=invite),
        address=BOT, now=NOW,
    )  # fmt: skip
    [part] = [p for p in mail.walk() if p.get_content_type() == "text/calendar"]
    calendar = Calendar.from_ical(part.get_content())
    [event] = calendar.walk("VEVENT")
    assert event.start == start and str(event["DTSTART"].params["TZID"]) == "Europe/London"
    assert event["RRULE"].to_ical() == b"FREQ=WEEKLY;INTERVAL=2"
    assert [tz.tz_name for tz in calendar.timezones] == ["Europe/London"]
    later = recurring_ical_events.of(calendar).between(start, start + timedelta(days=30))
    assert [e.start.astimezone(UTC).hour for e in later] == [16, 16, 15]  # BST from 28 Mar
