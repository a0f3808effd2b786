"""What a turn's tool calls share (`ToolSession`), and the helpers every tool module uses.

`bot.agent.tools.toolbox` builds the tool list and runs calls; the handlers there and in
`bot.agent.tools.reminder_tools` read their arguments with `text_arg`/`integer_arg`,
raise `BadArguments` (its message goes back to the model) or `NotAvailable`,
and stage effects on the session.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, time
from functools import cached_property
from typing import Any, Literal

from bot.agent.tools.tool_errors import BadArguments, NotAvailable, ZoneUnknown
from bot.agent.tools.tool_times import instant, person_instant
from bot.replies import language_of
from clockcore import (
    Clock,
    ContactWindow,
    ContextEnvelope,
    MessageRef,
    TimeExpression,
    find_time_expressions,
    mentions_time,
    runtime_time_context,
    to_iso,
    without_time,
)
from clockcore.speech.spoken import say_when
from wrapper import InteractionWrapper
from wrapper.keys import is_private_thread, split_thread_key
from wrapper.turns.effects import (
    Effect,
    Enqueue,
    ForgetMemory,
    MarkReminded,
    NewMemory,
    check_memory,
    outbox_values,
)

__all__ = [
    "TEXT",
    "WHEN",
    "BadArguments",
    "Handler",
    "NotAvailable",
    "ToolSession",
    "ZoneUnknown",
    "instant",
    "integer_arg",
    "iso",
    "memory_content",
    "object_schema",
    "person_instant",
    "required_text",
    "sending",
    "text_arg",
    "time_context",
    "time_of_day",
]


def object_schema(properties: Mapping[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }


TEXT = {"type": "string"}


WHEN = {
    "type": "string",
    "description": "A time as the person said it ('tomorrow 9am', 'in 2 hours') "
    "or an ISO-8601 instant with an offset.",
}


class ToolSession:
    """What one turn's tool calls share: the envelope, the clock, and the staged writes.

    Reading tools read the store at once. Writing tools only stage an effect
    (`wrapper.turns.effects`) and answer from it; later tools see what is staged
    (an item remembered can be recalled or forgotten, a zone set is the
    session's zone from then on). `bot.turns.lifecycle` commits `staged` with the turn.

    `message` is the one the turn answers: every message a tool enqueues is
    keyed ``<message.key>#<n>``, `n` counting the turn's tool calls. Times are
    read, and questions and errors said, in `language`, the conversation's
    (`bot.replies.conversation_language`; "Montag" alone says none), else the
    one the message's words look like. `can_send` False (no outbox here) turns
    the sending tools off.

    In a group thread (`group` is its key) the tools read and change only what
    was made in that thread, and the person-wide ones (home zone, contact
    window, forget, pause all) answer `personal`: the history there holds other
    people's words, and a model that obeys one of them must not reach the
    speaker's private data (docs/SECURITY.md).
    """

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        envelope: ContextEnvelope,
        clock: Clock,
        contact_window: ContactWindow,
        message: MessageRef,
        language: str | None = None,
        can_send: bool = True,
    ) -> None:
        self.wrapper = wrapper
        self.message = message
        self.language = language or language_of(message)
        self.envelope = envelope
        self.clock = clock
        self.contact_window = contact_window
        self.can_send = can_send
        self.session_tz = envelope.session_tz
        self.zone_known = envelope.session_tz_source != "default"
        """False while the session's zone is only the agent's default (the person's is unknown)."""
        self.staged: list[Effect] = []
        self._calls = 0
        _, channel, thread_id = split_thread_key(envelope.thread_key)
        self.group: str | None = (
            None if is_private_thread(channel, thread_id) else envelope.thread_key
        )
        """The group thread's key, or None in a private thread."""

    @cached_property
    def their_time(self) -> TimeExpression | None:
        """The one time the person's message names, read whole; None if it names none or more.

        "ricordami domani alle 7 di chiamare Luca" names 'domani alle 7'; "remind
        me 10 minutes before my 3pm meeting" names none here: a digit or a time
        word is left outside '3pm', so the expression alone is not what they
        meant. Looked for once a turn: the message does not change between calls.
        """
        return _find_their_time(self.message.text, self.language)

    @property
    def their_words(self) -> str | None:
        """The message up to the end of `their_time`, what reads it: the words before it
        may name its place ("the New York office … tomorrow at 9am their time")."""
        theirs = self.their_time
        return None if theirs is None else self.message.text[: theirs.end]

    def personal(self, what: str) -> None:
        """Refuse `what`, a person-wide change or read, in a group thread.

        Raises:
            NotAvailable: this is a group thread.
        """
        if self.group is not None:
            raise NotAvailable(
                f"{what} is about the person everywhere, so it is done only in a direct "
                "conversation: ask them to write to you directly"
            )

    def fork(self) -> ToolSession:
        """A copy of this session whose writes are staged apart: tried, then kept (`adopt`)
        or dropped; what was read once (`their_time`) is not read again."""
        twin = copy.copy(self)
        twin.staged = list(self.staged)
        return twin

    def adopt(self, fork: ToolSession) -> None:
        """What `fork` (`fork`) staged and learnt since (a zone set), as this session's own."""
        vars(self).update(vars(fork))
        self.staged = list(fork.staged)

    def next_key(self) -> str:
        """The key of the next message a tool enqueues."""
        self._calls += 1
        return f"{self.message.key}#{self._calls}"

    def stage(self, effect: Effect) -> None:
        self.staged.append(effect)

    def remember(self, content: str, due: datetime | None) -> NewMemory:
        """Stage a memory item of the person's (`content` already checked), in this scope."""
        item = NewMemory.new(
            self.envelope.user_key, content, due_at=due, created_at=self.clock.now(),
            group=self.group,
        )  # fmt: skip
        self.stage(item)
        return item

    def staged_memories(self) -> list[NewMemory]:
        return [e for e in self.staged if isinstance(e, NewMemory)]

    def reminded_marks(self) -> dict[int, datetime]:
        """The reminded_at marks staged this turn, the latest per item."""
        return {e.id: e.at for e in self.staged if isinstance(e, MarkReminded)}

    def forgotten(self) -> set[int]:
        return {e.id for e in self.staged if isinstance(e, ForgetMemory)}

    def unstage_memory(self, item_id: int) -> int:
        """Drop a staged item and its staged reminders; how many reminders went with it."""
        reminders = [e for e in self.staged if isinstance(e, Enqueue) and e.memory_id == item_id]
        self.staged = [
            e
            for e in self.staged
            if not (isinstance(e, NewMemory) and e.id == item_id) and e not in reminders
        ]
        return len(reminders)

    def enqueue(
        self,
        kind: Literal["proactive", "reminder"],
        text: str,
        due: datetime,
        memory_id: int | None = None,
    ) -> Enqueue:
        effect = Enqueue.answering(
            self.message, self.envelope, key=self.next_key(), kind=kind, text=text, due_at=due,
            memory_id=memory_id,
        )  # fmt: skip
        try:
            outbox_values(effect, self.clock.now())
        except ValueError as exc:
            raise BadArguments(str(exc)) from exc
        self.stage(effect)
        return effect


Handler = Callable[[Mapping[str, Any], ToolSession], Awaitable[dict[str, Any]]]
"""A tool's handler: the model's arguments and the turn's session to a JSON-able result."""


def memory_content(text: str) -> str:
    """`text` as a memory item keeps it (`wrapper.turns.effects.check_memory`), or BadArguments."""
    try:
        return check_memory(text)
    except ValueError as exc:
        raise BadArguments(str(exc)) from exc


def text_arg(arguments: Mapping[str, Any], name: str, *, required: bool = True) -> str | None:
    """A string argument, stripped; an optional one left empty is absent.

    An optional parameter filled with "" is not a value (docs/eval.md, M28).
    """
    value = arguments.get(name)
    if not required and (value is None or (isinstance(value, str) and not value.strip())):
        return None
    if not isinstance(value, str) or not value.strip():
        raise BadArguments(f"{name} must be a non-empty string")
    return value.strip()


def required_text(arguments: Mapping[str, Any], name: str) -> str:
    """A required string argument, stripped (`text_arg`).

    Raises:
        BadArguments: missing, empty or not a string.
    """
    value = text_arg(arguments, name)
    assert value is not None
    return value


def time_context(context: ToolSession) -> dict[str, object]:
    envelope = context.envelope
    return runtime_time_context(
        context.clock.now(), envelope.user_tz, context.contact_window
    ).to_dict()


def _find_their_time(text: str, language: str | None) -> TimeExpression | None:
    """`ToolSession.their_time`, looked for."""
    found = find_time_expressions(text, language=language)
    if len(found) != 1 or not found[0].whole:
        return None
    rest = without_time(text, found[0])
    if any(c.isdigit() for c in rest) or mentions_time(rest, language=language):
        return None
    return found[0]


_HHMM = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")


def time_of_day(arguments: Mapping[str, Any], name: str) -> time | None:
    """A 24-hour ``HH:MM`` argument as a time of day (``24:00`` is midnight); None if absent."""
    value = text_arg(arguments, name, required=False)
    if value is None:
        return None
    found = _HHMM.match(value)
    if found is None or int(found[1]) > 24 or int(found[2]) > 59:
        raise BadArguments(f"{name} must be a 24-hour time like '09:00', not {value!r}")
    hour, minute = int(found[1]), int(found[2])
    return time(0) if hour == 24 and minute == 0 else time(hour % 24, minute)


def integer_arg(arguments: Mapping[str, Any], name: str, *, required: bool = True) -> int | None:
    value = arguments.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        hint = ""
        if isinstance(value, str) and value[:1] in ("s", "r") and value[1:].isdigit():
            hint = f" ({value!r} is a reminder's id: list_reminders, snooze and cancel take those)"
        raise BadArguments(f"{name} must be an integer{hint}")
    return value


def iso(at: datetime | None, context: ToolSession) -> str | None:
    return to_iso(at, context.session_tz) if at is not None else None


def said(at: datetime, context: ToolSession) -> str:
    """`at` as the person reads it, in their language and zone (`clockcore.speech.spoken`).

    Tools that set a time return it beside the ISO instant, so the confirmation
    can say it back in the person's words: a misread they see, they can correct.
    """
    return say_when(at, context.session_tz, now=context.clock.now(), language=context.language)


def sending(context: ToolSession, name: str) -> None:
    if not context.can_send:
        raise NotAvailable(f"{name} is not available here: there is no outbox to send through")
