"""`MessageRef`: one message a person wrote, as one value from the adapter to the outbox.

The adapter builds it (through `channels.base.Inbound.ref`); the wrapper keys
and journals it; the envelope, the waiting list and the turn carry it; the
outbox rows a turn writes are keyed by it. Nothing downstream takes the fields
apart again or re-parses them out of a thread key.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from clockcore.clock import as_utc

__all__ = ["MAX_NAME_CHARS", "MessageRef", "person_name", "primary_language", "speaker_label"]

_TAG = re.compile(r"^[a-z]{2,3}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

MAX_NAME_CHARS = 64
"""A display name longer than this is cut (with "…"): it is shown, never trusted."""


def primary_language(raw: str | None) -> str | None:
    """The primary ISO 639 subtag of a platform's language tag, or None.

    "pt-BR", "es_ES", "de", "en-US, fr;q=0.8" (a Content-Language list: the
    first) give "pt", "es", "de", "en"; anything else gives None.
    """
    if not raw:
        return None
    first = raw.split(",")[0].split(";")[0].strip().replace("_", "-")
    primary = first.split("-")[0].lower()
    return primary if _TAG.match(primary) else None


def person_name(raw: str | None) -> str | None:
    """A platform's display name as one short line, or None when it says nothing.

    Control characters and line breaks become spaces, runs of white space one
    space, and more than `MAX_NAME_CHARS` characters are cut: the name goes into
    the agent's runtime block on a line of its own, and a name is what a person
    chose to be called, so it is shown as given and never acted on.
    """
    if not raw:
        return None
    name = " ".join(_CONTROL.sub(" ", raw).split())
    if all(unicodedata.category(char)[0] in "CZ" for char in name):
        return None  # only invisible characters (zero-width spaces, joiners): no name
    if len(name) > MAX_NAME_CHARS:
        name = name[: MAX_NAME_CHARS - 1].rstrip() + "…"
    return name or None


def speaker_label(name: str | None, channel: str, user_id: str) -> str:
    """How a group's runtime block names a writer: their name, else their channel and id."""
    return name if name else f"{channel} user {user_id}"


@dataclass(frozen=True, slots=True)
class MessageRef:
    """One inbound message.

    Attributes:
        channel: the adapter's name (``telegram``, ``slack``, ``email``, ``console``).
        thread_id: the conversation, in the adapter's documented shape.
        user_id: the writer, stable on that channel.
        message_id: unique per channel; a redelivery carries the same id. None
            only for messages recorded through the bare wrapper API, which can
            then never be recognised again (nor answered by a turn).
        text: what they wrote.
        received_at: when they wrote it, aware UTC.
        route: what the adapter needs to answer in this thread (a copy of
            what was given; treat it as read-only).
        language: the person's language as the platform reports it (ISO 639-1,
            "es"), a hint for reading times; None when unknown.
        reply_to: the platform id of the message this one replies to
            (`channels.base.Inbound.reply_to`), or None.
        proven: whether the channel proves the writer is `user_id`
            (`channels.base.Inbound.proven`); False only for mail without an
            aligned pass from a trusted server.
        user_zone: an IANA zone the platform reports for the writer (Slack's
            profile), their default while they have set none; None when
            unknown. The wrapper ignores one it does not know.
        hint: one sentence about the message for the envelope's notices (an
            email's odd Date header), never acted on; None for none.
        sender_name: what the writer is called on the platform (Telegram's
            first and last name, Slack's display name, an email's ``From``
            display name), made one short line by `person_name`; None when the
            platform gives none.

    Raises:
        NaiveDatetimeError: `received_at` is naive.
    """

    channel: str
    thread_id: str
    user_id: str
    message_id: str | None
    text: str
    received_at: datetime
    route: Mapping[str, str] = field(default_factory=dict)
    language: str | None = None
    reply_to: str | None = None
    proven: bool = True
    user_zone: str | None = None
    hint: str | None = None
    sender_name: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "received_at", as_utc(self.received_at))
        object.__setattr__(self, "sender_name", person_name(self.sender_name))
        object.__setattr__(self, "route", dict(self.route))

    @property
    def key(self) -> str:
        """``<channel>:<message_id>``: the journal's key, and the base of every key a turn makes.

        Raises:
            ValueError: the message has no id.
        """
        if self.message_id is None:
            raise ValueError("a message without an id has no key")
        return f"{self.channel}:{self.message_id}"
