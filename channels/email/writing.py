"""`Outgoing` → an RFC 5322 message: threading headers, RFC 3834 marks, a stable Message-ID.

Every header value passes through `_one_line` and the message is built with
`policy.SMTP`, which itself refuses a CR or LF inside a header value: text that
came from a stranger's mail (their subject, their Message-ID) can never start
a header of its own.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Mapping
from datetime import datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

from icalendar import Calendar

from channels.base import Invite, Outgoing
from channels.ical import invite_event

__all__ = [
    "ALONE_NOTE",
    "InvalidRecipientError",
    "compose",
    "invitation",
    "message_id_for",
    "recipient",
    "recipients",
    "reply_subject",
]

_RE_PREFIX = re.compile(r"^\s*(?:re|aw|sv|antw)(?:\[\d+\])?\s*:\s*", re.IGNORECASE)
_MSG_ID = re.compile(r"<[^<>\s]{1,250}>")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_MAX_SUBJECT = 200


class InvalidRecipientError(ValueError):
    """The route names no usable address to write to. `value` is what it held."""

    def __init__(self, value: str) -> None:
        super().__init__("no valid recipient address in the route")
        self.value = value


def message_id_for(key: str, address: str) -> str:
    """The Message-ID of the mail for outbox job `key`: the same on every attempt."""
    domain = address.rpartition("@")[2] or "localhost"
    digest = hashlib.sha256(f"{address.lower()}\n{key}".encode()).hexdigest()[:32]
    return f"<{digest}.clockbot@{domain}>"


def reply_subject(subject: str) -> str:
    """``Re: <subject>`` without piling up prefixes (``Re: Re:``, ``AW:``)."""
    rest = _one_line(subject)
    while True:
        stripped = _RE_PREFIX.sub("", rest, count=1)
        if stripped == rest:
            break
        rest = stripped
    return f"Re: {rest or 'your message'}"[:_MAX_SUBJECT]


ALONE_NOTE = (
    "(This conversation began with other people in copy. You had started many such "
    "conversations with me today, so I answer you alone here.)"
)
"""Said under each answer in a thread the group cap made private (`bot.turns.lifecycle`)."""


def recipient(route: Mapping[str, str], user_id: str | None) -> str:
    """The address to write to: the route's ``to``, else the user id. Raises if neither is one."""
    value = _one_line(route.get("to") or user_id or "")
    if _address(value) is None:
        raise InvalidRecipientError(value)
    return value


def recipients(message: Outgoing, *, address: str) -> tuple[str, list[str]]:
    """(To, Cc) of the mail for `message`; raises `InvalidRecipientError` without a To.

    In a group thread every answer goes to its members (the route's ``members``: the
    senders of its proven mails and the people they named, kept as a set by
    `wrapper.outbound.routes.save_route`; a route stored before members were kept: its ``cc``): the
    writer answered in To,
    the rest in Cc. A reminder or other proactive mail addressed to one of them is
    written To them, the rest in Cc, whoever wrote last. The answer to a mail its
    server did not prove goes To its sender alone: a forger chooses the Cc line.
    """
    route = message.route
    to = recipient(route, message.user_id)
    if message.kind == "reply" and route.get("unproven"):
        return to, []
    named = (route["members"] if "members" in route else route.get("cc", "")).split()
    group = [to, *filter(None, map(_address, named))]
    group = list(dict.fromkeys(a for a in group if a != address.lower()))
    mine = _address(message.user_id or "")
    if message.kind != "reply" and mine in group:
        to = mine
    return to, [a for a in group if a != to]


def _address(value: str) -> str | None:
    """`value` if it is one plain address a mail can be written to, else None."""
    local, at, domain = value.rpartition("@")
    if not (local and at and "." in domain) or any(c in value for c in '<>,;"() \r\n'):
        return None
    try:
        Address(addr_spec=value)
    except (ValueError, IndexError):
        return None
    return value


def compose(
    message: Outgoing, *, address: str, now: datetime, html_part: bool = False
) -> EmailMessage:
    """The mail for one `Outgoing`; raises `InvalidRecipientError` when the route has no address.

    A ``reply`` answers the thread (``Re:`` subject, ``Auto-Submitted: auto-replied``); a
    ``reminder`` or ``proactive`` mail stays in the thread through its References but is marked
    ``auto-generated``, and a reminder says so in its subject.
    """
    route = message.route
    to, cc = recipients(message, address=address)
    mail = EmailMessage(policy=policy.SMTP)
    mail["From"] = address
    mail["To"] = to
    if cc:
        mail["Cc"] = ", ".join(cc)
    mail["Date"] = format_datetime(now)
    mail["Message-ID"] = message_id_for(message.key, address)
    mail["Subject"] = _subject(message)
    parent = _first_id(route.get("message_id", ""))
    references = _MSG_ID.findall(route.get("references", ""))
    if parent and parent not in references:
        references.append(parent)
    if parent:
        mail["In-Reply-To"] = parent
    if references:
        mail["References"] = " ".join(references)
    mail["Auto-Submitted"] = "auto-replied" if message.kind == "reply" else "auto-generated"
    mail["X-Auto-Response-Suppress"] = "All"  # ask Exchange-style responders not to answer us
    body = message.text.replace("\r\n", "\n").replace("\r", "\n")
    if message.kind == "reply" and route.get("alone"):
        body = f"{body.rstrip()}\n\n{ALONE_NOTE}"
    mail.set_content(body + ("" if body.endswith("\n") else "\n"), subtype="plain", charset="utf-8")
    if html_part:
        mail.add_alternative(_as_html(body), subtype="html", charset="utf-8")
    if message.invite is not None:
        mail.add_attachment(
            invitation(message.invite, now=now),
            maintype="text",
            subtype="calendar",
            filename="meeting.ics",
            params={"method": "PUBLISH", "charset": "utf-8"},
        )
    return mail


def invitation(invite: Invite, *, now: datetime) -> bytes:
    """The meeting as an iCalendar object (RFC 5545) with ``METHOD:PUBLISH``.

    PUBLISH, not REQUEST: calendar apps offer to add the event, and no one's
    app mails an acceptance back to clockbot's inbox, where it would read as a
    message to answer. The ``UID`` is the one in each attendee's feed. A repeating
    meeting carries its ``RRULE`` in its zone, with that zone's ``VTIMEZONE``.
    """
    calendar = Calendar.new(prodid="-//clockbot//meeting//EN", method="PUBLISH")
    calendar.add_component(invite_event(invite, now))
    calendar.add_missing_timezones()
    body: bytes = calendar.to_ical()
    return body


def _subject(message: Outgoing) -> str:
    subject = message.route.get("subject", "")
    if message.kind == "reminder":
        first = _one_line(message.text).removeprefix("Reminder:").strip()
        if len(first) > 60:
            first = first[:59].rstrip() + "…"
        return f"Reminder: {first or 'you asked me to remind you'}"[:_MAX_SUBJECT]
    return reply_subject(subject)


def _first_id(value: str) -> str | None:
    found = _MSG_ID.search(value)
    return found.group(0) if found else None


def _one_line(value: str) -> str:
    return " ".join(_CONTROL.sub(" ", value).split())


def _as_html(text: str) -> str:
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    rendered = "".join(
        "<p>" + "<br>".join(html.escape(line) for line in p.split("\n")) + "</p>"
        for p in paragraphs
    )
    return f"<!DOCTYPE html><html><body>{rendered}</body></html>\n"
