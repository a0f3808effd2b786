"""Inbound mail → `Inbound`: parse, screen for loops and abuse, extract the text.

Pure functions over bytes, no I/O. `read_mail` is the one entry point the IMAP
reader calls; it returns exactly one of three outcomes:

- `Accepted`: a person wrote to us; its `Inbound` goes to the gateway.
- `Refused`: readable, but never answered (an auto-reply, a list, a bounce,
  our own address, a sender off the allow-list, a sender not proven when
  proof is required). Marked ``\\Seen``, never stored.
- `Broken`: no usable sender or unparseable; left unseen for a person to look
  at, and not retried.

The extractors (`named_ids`, `sender`, `date_hint`, and the text of
`channels.email.body`) are plain functions so their tables can be tested on their own.

Threads. A mail that starts a conversation gets the thread id
``<sender>/<its Message-ID>``: it belongs to its sender, and no header another
person writes can name it. A reply names the mails it follows (`named_ids`:
``In-Reply-To``, then ``References`` newest first) in `Inbound.refers_to`; the
gateway joins the thread of the newest one it knows, ours or theirs, only when
the sender already writes in that thread (`wrapper.inbound.replies`). So a stranger
who learns someone's Message-IDs starts a thread of their own, and a client
that sets only ``In-Reply-To`` to our reply still finds its thread.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr

from channels.base import Inbound
from channels.email.body import attachment_notes, body_text, kb, one_line
from channels.email.cuts import MAX_PARTS, headers_capped, part_headers_capped, parts_capped
from channels.email.proof import proof

__all__ = [
    "Accepted",
    "Broken",
    "MailFacts",
    "Refused",
    "Screening",
    "date_hint",
    "in_reply_to",
    "internal_date_utc",
    "message_id_of",
    "named_ids",
    "others_addressed",
    "read_mail",
    "refusal",
    "sender",
]

_MAX_SUBJECT = 300
MAX_ADDRESSED = 20
"""The other people a group mail names (To and Cc) that clockbot keeps and writes back to;
a mail to more is answered to its first ones (in header order), as a list would be cut."""
GROUP_THREAD = "group/"
"""How a thread id starts when its first mail named other people too: a group thread
(`wrapper.keys.is_private_thread`), whose answers go to all of them."""
_MAX_REFERENCES = 20  # RFC 5322 lets a client trim; we keep the root and the latest ones
_MSG_ID = re.compile(r"<[^<>\s]{1,250}>")
_AUTOMATED_LOCALPARTS = frozenset(
    {
        "mailer-daemon",
        "postmaster",
        "no-reply",
        "noreply",
        "do-not-reply",
        "donotreply",
        "no_reply",
        "bounce",
        "bounces",
    }
)
_BULK_PRECEDENCE = frozenset({"bulk", "list", "junk"})


@dataclass(frozen=True, slots=True)
class Screening:
    """Who may reach the agent: the bot's own address, the allow-list, the proof requirement.

    `authserv_ids` names the mail servers whose Authentication-Results are
    trusted (`channels.email.proof`); `require_auth_results` refuses every mail
    whose sender they do not prove, instead of asking it to confirm privileged
    requests.
    """

    own_address: str
    allowed_senders: Sequence[str] = ()
    require_auth_results: bool = False
    authserv_ids: Sequence[str] = ()

    def allows(self, address: str) -> bool:
        """Whether `address` passes the allow-list (empty: everyone; ``@domain``: that domain)."""
        if not self.allowed_senders:
            return True
        domain = "@" + address.rpartition("@")[2]
        return any(entry.lower() in (address, domain) for entry in self.allowed_senders)


@dataclass(frozen=True, slots=True)
class MailFacts:
    """What the IMAP server says about one message besides its bytes."""

    uid: int
    uid_validity: int
    internal_date: datetime | None
    size: int
    truncated: bool = False
    """Only the header was fetched: the message is over the size limit."""


@dataclass(frozen=True, slots=True)
class Accepted:
    """Goes to the gateway."""

    inbound: Inbound


@dataclass(frozen=True, slots=True)
class Refused:
    """Never answered; marked seen. `reason` is for the log."""

    reason: str
    sender: str


@dataclass(frozen=True, slots=True)
class Broken:
    """Not readable as mail from a person; left unseen. `reason` is for the log."""

    reason: str


def read_mail(
    raw: bytes, facts: MailFacts, screening: Screening, *, now: datetime
) -> Accepted | Refused | Broken:
    """Classify one fetched message and, if a person may be answered, build its `Inbound`.

    `now` stands in for the arrival time when the server gave no INTERNALDATE.
    Pure and CPU-bound (the IMAP reader runs it on a worker thread); a mail of
    more than `MAX_PARTS` parts is read as far as that.
    """
    raw, parts_cut = parts_capped(headers_capped(raw))
    raw = part_headers_capped(raw)
    message = message_from_bytes(raw, policy=policy.default)
    who = sender(message)
    if who is None:
        if _is_null_sender(message):
            return Refused("null sender (a bounce)", "")
        return Broken("no readable From address")
    reason = refusal(message, who, screening)
    if reason is not None:
        return Refused(reason, who)
    verdict = proof(message, who, screening.authserv_ids)
    if screening.require_auth_results and not verdict.proven:
        return Refused(f"sender not proven: {verdict.reason}", who)
    own_id = message_id_of(message)
    message_id = own_id or _synthetic_id(facts, screening.own_address)
    if facts.truncated:
        text = (
            f"[This mail is {kb(facts.size)} and over the size limit, so it was not read. "
            "Only its headers arrived.]"
        )
    else:
        text = body_text(message)
        notes = attachment_notes(message)
        if parts_cut:
            notes.append(f"[… this mail has more than {MAX_PARTS} parts; the rest was not read]")
        if notes:
            text = (text + "\n\n" if text else "") + "\n".join(notes)
    subject = one_line(_header(message, "subject"))[:_MAX_SUBJECT]
    references = _references(message)
    route = {
        "to": who,
        "subject": subject,
        "message_id": own_id or "",
        "references": " ".join([*references, own_id] if own_id else references),
    }
    others = others_addressed(message, who, screening.own_address)
    if others and verdict.proven:
        route["cc"] = " ".join(others)
    # Who the thread's answers go to (`channels.email.writing.recipients`): a mail its
    # server proved adds its sender and the people it named to the thread's members
    # (`wrapper.outbound.routes.save_route` keeps the union); an unproven one adds nobody, and its
    # own answer goes to its sender alone (docs/SECURITY.md).
    route["members"] = " ".join([who, *others]) if verdict.proven else ""
    if not verdict.proven:
        route["unproven"] = "yes"
    return Accepted(
        Inbound(
            channel="email",
            thread_id=f"{GROUP_THREAD if others else ''}{who}/{message_id}",
            user_id=who,
            text=text,
            message_id=message_id,
            received_at=facts.internal_date or now,
            route=route,
            hint=date_hint(message),
            language=one_line(_header(message, "content-language")) or None,
            reply_to=in_reply_to(message),
            refers_to=named_ids(message),
            proven=verdict.proven,
            sender_name=sender_name(message, who),
        )
    )


# --- screening ------------------------------------------------------------------------------------


def refusal(message: EmailMessage, who: str, screening: Screening) -> str | None:
    """Why this mail must not be answered, or None. Checked before anything is stored."""
    localpart, _, _ = who.partition("@")
    if who == screening.own_address.lower():
        return "from our own address"
    if localpart in _AUTOMATED_LOCALPARTS or localpart.startswith(("noreply", "no-reply")):
        return f"automated sender ({localpart})"
    auto = _header(message, "auto-submitted").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto.split(';')[0].strip()[:40]}"
    if _header(message, "precedence").strip().lower() in _BULK_PRECEDENCE:
        return "Precedence: bulk, list or junk"
    if message.get("list-id") is not None or message.get("list-unsubscribe") is not None:
        return "a mailing list message"
    if message.get_content_type() == "multipart/report" or _is_null_sender(message):
        return "a delivery report (bounce)"
    if any(message.get(name) is not None for name in ("x-autoreply", "x-autorespond")):
        return "an auto-responder"
    if not screening.allows(who):
        return "sender not on the allow-list"
    return None


def _is_null_sender(message: Message) -> bool:
    return message.get("return-path") is not None and _header(message, "return-path").strip() in (
        "<>",
        "",
    )


# --- extractors -----------------------------------------------------------------------------------


def sender(message: Message) -> str | None:
    """The lower-cased address in From (the first, if several), or None if there is none."""
    raw = _header(message, "from")
    if not raw:
        return None
    for _name, address in getaddresses([raw]):
        address = address.strip().lower()
        if _plausible_address(address):
            return address
    _name, address = parseaddr(raw)
    address = address.strip().lower()
    return address if _plausible_address(address) else None


def sender_name(message: Message, address: str) -> str | None:
    """The display name From gives for `address` ("Ana Lima" in ``Ana Lima <ana@…>``), or None."""
    for name, found in getaddresses([_header(message, "from")]):
        if found.strip().lower() == address and name.strip():
            return one_line(name)
    return None


def others_addressed(message: Message, who: str, own_address: str) -> tuple[str, ...]:
    """The people besides the sender and clockbot that To and Cc name, lower-cased, once each.

    At most `MAX_ADDRESSED`; Bcc is never seen by a recipient, so it never counts.
    """
    raw = [_header(message, "to"), _header(message, "cc")]
    skip = {who, own_address.lower()}
    found: list[str] = []
    for _name, address in getaddresses([r for r in raw if r]):
        address = address.strip().lower()
        if address in skip or address in found or any(c in address for c in '<>,;"()'):
            continue  # ourselves, a repeat, or nothing a mail could be written to
        if _plausible_address(address):
            found.append(address)
    return tuple(found[:MAX_ADDRESSED])


def _plausible_address(address: str) -> bool:
    local, at, domain = address.rpartition("@")
    return (
        bool(local and at and "." in domain)
        and not any(c.isspace() for c in address)
        and len(address) <= 254
    )


def message_id_of(message: Message) -> str | None:
    """The message's own Message-ID in angle brackets, or None when missing or malformed."""
    return _first_id(message, "message-id")


def _first_id(message: Message, header: str) -> str | None:
    """The first ``<id>`` the header names, or None."""
    found = _MSG_ID.search(_header(message, header))
    return found.group(0) if found else None


def _references(message: Message) -> list[str]:
    ids = _MSG_ID.findall(_header(message, "references"))
    if not ids:
        ids = _MSG_ID.findall(_header(message, "in-reply-to"))[:1]
    if len(ids) > _MAX_REFERENCES:
        ids = [ids[0], *ids[-(_MAX_REFERENCES - 1) :]]
    return ids


def in_reply_to(message: Message) -> str | None:
    """The Message-ID the mail's ``In-Reply-To`` names (the mail it answers), or None."""
    return _first_id(message, "in-reply-to")


def named_ids(message: Message) -> tuple[str, ...]:
    """The Message-IDs a mail follows, nearest first: In-Reply-To, then References backwards.

    At most `_MAX_REFERENCES` + 1, without repeats and without the mail's own id.
    """
    own = message_id_of(message)
    nearest = [in_reply_to(message), *reversed(_MSG_ID.findall(_header(message, "references")))]
    found = dict.fromkeys(i for i in nearest if i and i != own)
    return tuple(found)[: _MAX_REFERENCES + 1]


def date_hint(message: Message) -> str | None:
    """The Date header's UTC offset as a sentence, or None (missing, unreadable, or ``-0000``)."""
    try:
        header = message.get("date")
        moment = getattr(header, "datetime", None)
    except (TypeError, ValueError, IndexError):
        return None
    if not isinstance(moment, datetime) or moment.tzinfo is None:
        return None
    offset = moment.utcoffset()
    if offset is None:
        return None
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hours, mins = divmod(abs(minutes), 60)
    return f"Their mail's Date header carries UTC{sign}{hours:02d}:{mins:02d}"


# --- small helpers --------------------------------------------------------------------------------


def _header(message: Message, name: str) -> str:
    """A header as text; "" when missing or so broken the parser gives up on it."""
    try:
        value = message.get(name)
    except (TypeError, ValueError, IndexError, LookupError, AttributeError):
        # AttributeError: CPython's address parser fails inside on "From: .:" (a group
        # with an empty display name), found by the MIME fuzz.
        return ""
    return "" if value is None else str(value)


def _synthetic_id(facts: MailFacts, own_address: str) -> str:
    """A stable Message-ID for a mail without one, from the mailbox, UIDVALIDITY and UID."""
    digest = hashlib.sha256(own_address.lower().encode()).hexdigest()[:12]
    return f"<imap.{facts.uid_validity}.{facts.uid}.{digest}@clockbot.invalid>"


def internal_date_utc(value: str) -> datetime | None:
    """An IMAP INTERNALDATE (``22-Nov-2026 02:15:32 +0000``) as aware UTC, or None."""
    try:
        return datetime.strptime(value.strip(), "%d-%b-%Y %H:%M:%S %z").astimezone(UTC)
    except ValueError:
        return None
