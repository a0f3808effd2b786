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

from channels.base import Outgoing

__all__ = [
    "InvalidRecipientError",
    "compose",
    "message_id_for",
    "recipient",
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


def recipient(route: Mapping[str, str], user_id: str | None) -> str:
    """The address to write to: the route's ``to``, else the user id. Raises if neither is one."""
    value = _one_line(route.get("to") or user_id or "")
    local, at, domain = value.rpartition("@")
    if not (local and at and "." in domain) or any(c in value for c in '<>,;"() '):
        raise InvalidRecipientError(value)
    try:
        Address(addr_spec=value)
    except (ValueError, IndexError) as exc:
        raise InvalidRecipientError(value) from exc
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
    to = recipient(route, message.user_id)
    mail = EmailMessage(policy=policy.SMTP)
    mail["From"] = address
    mail["To"] = to
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
    mail.set_content(body + ("" if body.endswith("\n") else "\n"), subtype="plain", charset="utf-8")
    if html_part:
        mail.add_alternative(_as_html(body), subtype="html", charset="utf-8")
    return mail


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
