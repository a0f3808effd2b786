"""What every channel adapter is: the contract between `channels/` and the gateway.

An adapter only translates. Inbound, it turns a platform event into an
`Inbound` and hands it to the gateway's `Sink`; the sink returns once the
message is durably recorded (journaled, and queued for an answer), and only
then does the adapter tell the platform it has the message (Telegram's
offset, a Slack ack, ``\\Seen`` on a mail). Outbound, the gateway calls
`Channel.send` with an `Outgoing`; the adapter delivers it or raises
`ChannelError` (with ``retry_after`` when the platform says how long to wait).

Adapters take plain values (tokens, URLs, allow-lists), never the bot's
settings object: ``channels`` imports nothing of ``bot`` or ``wrapper``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from clockcore.message import MessageRef, primary_language

__all__ = [
    "Channel",
    "ChannelError",
    "HttpRoute",
    "InMemoryStateStore",
    "Inbound",
    "Invite",
    "Outgoing",
    "OutgoingKind",
    "Pace",
    "Poll",
    "Sink",
    "StateStore",
    "storable",
]

OutgoingKind = Literal["reply", "proactive", "reminder"]


@dataclass(frozen=True, slots=True)
class Inbound:
    """One message a person wrote, as the gateway needs it.

    Attributes:
        channel: the adapter's name (``telegram``, ``slack``, ``email``, ``console``).
        thread_id: the conversation, in the adapter's documented shape.
        user_id: the writer, stable on that channel.
        text: what they wrote (plain text; may be empty for a non-text message).
        message_id: unique per channel; a redelivery carries the same id.
        received_at: when the person wrote it (aware UTC), from the platform.
        route: what the adapter needs to answer in this thread (chat ids,
            thread timestamps, mail headers); stored per thread and handed
            back in `Outgoing.route`, also for reminders days later.
        respond: False records the message (timestamps count) without an
            answer: an unmentioned group message.
        user_zone: an IANA zone the platform reports for the person (Slack's
            profile ``tz``); the gateway uses it as their default unless they
            set one themselves.
        hint: a fact about the message for the agent's envelope (an email's
            ``Date:`` offset), never acted on by the gateway.
        language: the person's language as the platform reports it (Telegram
            ``language_code``, Slack ``locale``, email ``Content-Language``),
            ISO 639-1 ("es"); times they write are read in it and in English.
        reply_to: the platform id of the message this one answers (Telegram
            ``reply_to_message``, the parent of a Slack thread reply, an
            email's ``In-Reply-To``), in the shape `Channel.send` returns ids,
            so "snooze 20 min" in reply to a reminder means that reminder.
        refers_to: platform ids of earlier messages this one follows, nearest
            first (an email's ``In-Reply-To`` and ``References``). The gateway
            moves the message into the thread of the first one it knows, if
            the writer already writes there (`wrapper.inbound.replies`); otherwise
            `thread_id` stands.
        proven: whether the channel proves that `user_id` wrote this. Telegram
            and Slack do (the platform signs in its users; the webhook is
            verified), the console does (it is local). An email's ``From`` is
            proven only by an aligned pass from a trusted mail server
            (`channels.email.proof`); an unproven sender's privileged requests
            (linking, erasing, their data, a sign-in link) wait for a
            confirmation mailed to the address (docs/SECURITY.md).
        sender_name: what the writer is called on the platform (Telegram's
            full name, Slack's display or real name, an email's ``From``
            display name); in a group the agent is told who is speaking, and
            the meeting finder names people by it. Shown, never trusted.
    """

    channel: str
    thread_id: str
    user_id: str
    text: str
    message_id: str
    received_at: datetime
    route: Mapping[str, str] = field(default_factory=dict)
    respond: bool = True
    user_zone: str | None = None
    hint: str | None = None
    language: str | None = None
    reply_to: str | None = None
    refers_to: tuple[str, ...] = ()
    proven: bool = True
    sender_name: str | None = None

    def __post_init__(self) -> None:
        """Every string made storable (`storable`): a platform's odd bytes never poison a turn."""
        for name in ("channel", "thread_id", "user_id", "text", "message_id"):
            object.__setattr__(self, name, storable(getattr(self, name)))
        for name in ("user_zone", "hint", "language", "reply_to", "sender_name"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, storable(value))
        route = {storable(key): storable(value) for key, value in self.route.items()}
        object.__setattr__(self, "route", route)
        object.__setattr__(self, "refers_to", tuple(storable(ref) for ref in self.refers_to))

    @property
    def ref(self) -> MessageRef:
        """The message as one value, for everything downstream of the adapter."""
        return MessageRef(
            channel=self.channel,
            thread_id=self.thread_id,
            user_id=self.user_id,
            message_id=self.message_id,
            text=self.text,
            received_at=self.received_at,
            route=self.route,
            language=primary_language(self.language),
            reply_to=self.reply_to,
            proven=self.proven,
            user_zone=self.user_zone,
            hint=self.hint,
            sender_name=self.sender_name,
        )


def storable(text: str) -> str:
    """`text` as every store can keep it: lone surrogates and NULs become U+FFFD.

    JSON may carry a lone surrogate (``"\\ud800"``), which UTF-8 cannot encode, and
    PostgreSQL refuses NUL in text. Either would fail the journal write on every
    redelivery; found by fuzzing Telegram updates. A replacement, not a deletion, so an id
    made only of them stays an id.
    """
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


def storable_values(value: Any) -> Any:
    """`value` (decoded JSON) with every string in it, keys too, made `storable`: a model's
    tool arguments may hold NUL, and a turn whose commit PostgreSQL refuses is retried in vain."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, dict):
        return {storable(str(k)): storable_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable_values(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message to deliver.

    Attributes:
        kind: ``reply`` to a message, ``reminder`` the person asked for, or
            another ``proactive`` message.
        thread_id: the thread it belongs to (the `Inbound.thread_id` shape).
        user_id: the person it is for, when known.
        text: the agent's Markdown.
        route: the latest `Inbound.route` seen in this thread (empty if none).
        key: unique per outbox job and the same on every attempt, for
            platforms that take an idempotency key (a mail's Message-ID).
        reminder: for a reminder, how the person names it (``r<id>``), so an
            adapter can put buttons under it whose presses say which one.
        question: ``link`` for a link request (`wrapper.people.linking`): an adapter
            that can show buttons puts yes and no under it
            (`channels.reminder_buttons.LINK_BUTTONS`).
        poll: a question with options to show as the platform's own poll (a
            meeting's proposed slots); `text` holds the same as numbered lines
            for an adapter that has no polls.
        invite: the meeting a poll chose, for an adapter that can attach it
            as a calendar event (email: an ``.ics``); `text` announces it.
        attempt: how many times the job has been claimed, this time included.
            Above 1, an earlier attempt may have reached the platform (its
            worker died after the send, or a timeout hid an accepted post); an
            adapter that can look (Slack) checks before sending again.
        queued_at: when the job was made: nothing of it can be older.
    """

    kind: OutgoingKind
    thread_id: str
    user_id: str | None
    text: str
    route: Mapping[str, str]
    key: str
    reminder: str | None = None
    question: Literal["link"] | None = None
    poll: Poll | None = None
    invite: Invite | None = None
    attempt: int = 1
    queued_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Invite:
    """A meeting to attach as a calendar event: the same `uid` as in each attendee's feed.

    A repeating meeting has its RRULE in `repeat`, read in `zone` (`start` is its first).
    """

    uid: str
    start: datetime
    end: datetime
    title: str
    description: str
    repeat: str | None = None
    zone: str | None = None


@dataclass(frozen=True, slots=True)
class Poll:
    """A question and its options (at most 10, of 100 characters each); many answers allowed."""

    question: str
    options: tuple[str, ...]


class ChannelError(Exception):
    """A send failed. `retry_after`: seconds the platform asked to wait.

    `permanent` means sending again cannot help (the chat is gone, the bot
    was blocked); the job is then marked failed with this message instead of
    being retried. Messages never contain tokens or secrets.
    """

    def __init__(
        self, message: str, *, retry_after: float | None = None, permanent: bool = False
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.permanent = permanent


Sink = Callable[[Inbound], Awaitable[None]]
"""The gateway's intake: returns once the message is recorded (or refused)."""


class StateStore(Protocol):
    """Small durable values an adapter keeps across restarts (an IMAP ``UIDVALIDITY``).

    The gateway's store backs it, shared by every worker; keys are the
    adapter's own, prefixed with its name (``email:bot@example.org:uid``).
    A `put` is durable when it returns.
    """

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        ...

    async def put(self, key: str, value: str) -> None:
        """Store `value` under `key`, replacing any earlier one."""
        ...


class InMemoryStateStore:
    """A `StateStore` in memory, for tests and the console: nothing outlives the process."""

    def __init__(self) -> None:
        self._values: dict[str, str] = {}

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        return self._values.get(key)

    async def put(self, key: str, value: str) -> None:
        """Store `value` under `key`."""
        self._values[key] = value


@dataclass(frozen=True, slots=True)
class Pace:
    """A platform's send limit: at most `count` sends in `seconds` under `key`, as a leaky
    bucket (`count` at once, then one every ``seconds / count``).

    ``Pace("telegram:<bot>:chat:42", 3, 3.0)``: a short burst of three to one chat, then
    one a second.
    """

    key: str
    count: int
    seconds: float


@dataclass(frozen=True, slots=True)
class HttpRoute:
    """A path the adapter serves on the gateway's aiohttp server.

    `handler` is an aiohttp handler: ``async (aiohttp.web.Request) -> aiohttp.web.Response``.
    """

    method: str
    path: str
    handler: Callable[[Any], Awaitable[Any]]


class Channel(ABC):
    """An adapter. The gateway calls `start` once, `send` any number of times, `stop` once."""

    name: str

    @abstractmethod
    async def start(self, sink: Sink, state: StateStore, *, intake: bool = True) -> None:
        """Connect and begin feeding `sink`; returns once running (work goes on in tasks).

        With `intake` False, an adapter whose `intake` is named starts all but
        that reading (it sends, and serves its webhooks); `start_intake` then
        starts it, on the worker that leads it (`bot.app.intake`).

        Raises `ChannelError` when it cannot start (bad token, unreachable
        server), with a message that names no secret.
        """

    @property
    def intake(self) -> str | None:
        """The name of the intake this adapter reads that its platform allows only once.

        Telegram polling, a Slack Socket Mode connection, an IMAP mailbox: among
        workers sharing a store, only the one leading this name reads it. None
        (the default) when every worker may receive (webhooks, the console).
        """
        return None

    async def start_intake(self) -> None:  # noqa: B027 - only adapters with an `intake`
        """Begin the single-reader intake held back by ``start(intake=False)``.

        Raises `ChannelError` when it cannot (the mailbox refuses the login).
        """

    async def stop_intake(self) -> None:  # noqa: B027 - only adapters with an `intake`
        """Stop the single-reader intake; the message in hand is finished, sending goes on."""

    @abstractmethod
    async def send(self, message: Outgoing) -> Sequence[str] | None:
        """Deliver one message, split as the platform needs; raises `ChannelError`.

        Returns the platform's ids of what it posted (Telegram ``<chat>:<message>``,
        Slack ``<channel>:<ts>``, a mail's Message-ID), the shape `Inbound.reply_to`
        takes, so a reply to it can be matched; None where the platform has none.
        """

    @abstractmethod
    async def stop(self) -> None:
        """Stop receiving and close connections; messages in hand are finished first."""

    def paces(self, message: Outgoing) -> Sequence[Pace]:
        """The platform's send limits `message` counts against (`bot.app.pacing`); none here."""
        return ()

    def http_routes(self) -> Sequence[HttpRoute]:
        """Paths this adapter serves on the shared HTTP server (webhooks); none by default."""
        return ()

    async def typing(self, route: Mapping[str, str]) -> None:  # noqa: B027 - optional hook
        """Show that an answer is being written, where the platform can; nothing by default."""

    async def health(self) -> str | None:
        """None when healthy, else one line saying what is wrong (for ``/healthz``)."""
        return None

    async def probe(self) -> str:
        """Ask the platform whether this adapter could run, without starting it (``doctor``).

        Returns one line naming what answered, never a secret. Raises
        `ChannelError` saying what failed (a refused token, an unreachable server).
        """
        return "nothing to ask"
