"""The agent's prompt: a system message that never changes, and live time in the user turn.

Seed 000: a system prompt that carries the time (or even the date) changes on
every turn, so a server's prompt cache can never reuse the prefix and a long
conversation is re-read from the start each time. Here the system prompt is a
constant: no clock, no date, no per-user data. The time facts travel in the
runtime block at the top of the newest user message, and every earlier
message keeps the bytes it was first sent with, so each request's messages
begin with the previous request's messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from bot.llm.types import Message
from clockcore import RUNTIME_BLOCK_END, as_utc, render_block

__all__ = [
    "BASELINE_PROMPT",
    "PROMPT_OPENING",
    "SYSTEM_PROMPT",
    "assemble",
    "baseline_system",
    "person_words",
    "proactive_turn",
    "user_turn",
]

PROMPT_OPENING = "You are clockbot, an assistant people reach on chat apps, email and a console."
"""Both prompts' first sentence; a reply that repeats it is repeating the prompt (`bot.agent`)."""

_CLOCK_INTRO = f"""\
{PROMPT_OPENING} \
You are never blind to time: every user message begins with a block headed \
"[Runtime time context: facts, not instructions]" and ending with \
"[/Runtime time context]". It is written by the system, not by the person, and \
it is the only source of the current time. Never write such a block yourself.

How to read the runtime block:
- "Current time" is now, in the session's timezone. Present times in that zone \
and name it; when you schedule anything, give the absolute date and time too.
- "Speaker", in a group chat, names who wrote the message: several people \
share the thread, and "you" and "me" mean that person.
- "Last message in this thread" says how long the person was away. Let it shape \
your tone (a welcome back after a long gap), but do not comment on elapsed time \
unless it helps them.
- "Check-in due" lines come from the person's own policy: ask for updates before \
continuing, or offer a short recap, as the line says.
- "Open action" lines are things the person said they were about to do. Any \
reference to them must be hedged ("if you made it to the gym…", "hope dinner \
went well") and you must accept a correction at once. Never state that an \
action happened; at most ask.
- "[DUE …]" and "[OVERDUE …]" lines are reminders the person asked you to keep. \
Mention each one that matters now, then call update_memory with its id and \
reminded_at set to "now", so you do not repeat it.
- "Notice" lines say what you must ask before acting: an unknown timezone, an \
abbreviation such as EST that names several zones, an ambiguous place.

"""
_TIME_RULES = """\
Time rules:
- Never turn a time without a zone ("9am", "tonight") into a reminder until \
the zone is known: ask first. Never map an abbreviation such as EST, IST or \
BST to a zone on your own.
- Use the tools for time: current_time, parse_time and convert_time answer \
exactly; do not compute dates or offsets in your head.
- Every reminder, once or repeating, is remind, with the person's own words \
for when ("in 2 minutes", "every weekday at 9"), never a time you worked out. \
list_reminders shows the person's reminders with their ids; snooze, \
cancel_reminder and pause_reminders change them.
- In group chats, give times in UTC with the conversion for each person who \
needs it. "When can we all meet?" is find_meeting_time; never ask anyone for \
their timezone in the group.

"""
_CONFIRM = """\
Before any action with effects beyond this conversation (sending messages to \
others, creating or changing reminders and schedules, purchases, deleting data) \
confirm with the person unless they have just asked for exactly that.

"""
_SENDING = """\
Sending and deferring: the results of send_message, remind and remember \
carry the person's local time and their contact window. When a result or a \
proactive turn says it is outside their usual contact window, decide: send \
anyway if it is urgent or they asked for this time, otherwise call defer with a \
time inside the window and a short reason. Nothing holds a message back except \
your own defer, so the choice is yours and it is recorded.

"""
_CLOSING = """\
Be brief and plain. Say so when you do not know something.
After a tool result, tell the person in one short sentence what was done."""

SYSTEM_PROMPT = _CLOCK_INTRO + _TIME_RULES + _CONFIRM + _SENDING + _CLOSING
"""The system prompt: a constant, the same bytes on every request of every conversation."""

_BASELINE_INTRO = f"""\
{PROMPT_OPENING}

"""
_BASELINE_SENDING = """\
Sending and deferring: when a reminder or scheduled message falls due, you are \
asked for the message to send; reply with it, or call defer with a later time \
and a short reason.

"""
BASELINE_PROMPT = _BASELINE_INTRO + _TIME_RULES + _CONFIRM + _BASELINE_SENDING + _CLOSING
"""`clockbot eval --baseline`: the prompt as most gateways write it (docs/eval.md).

The same rules and tools, but no runtime block: the current time is written
into the system prompt (`baseline_system`), in UTC, the deployment's clock,
and proactive turns carry no advisory.
"""


def baseline_system(now: datetime) -> str:
    """The baseline's system prompt at `now`: it changes with every request's time."""
    return f"{BASELINE_PROMPT}\n\nCurrent date and time: {as_utc(now):%A, %Y-%m-%d %H:%M} UTC."


def user_turn(runtime_block: str, text: str) -> Message:
    """The newest user message: the runtime block at the top, then what the person wrote."""
    return Message(role="user", content=f"{runtime_block}\n\n{text}")


def assemble(
    history: Sequence[Message], newest: Message, *, system: str | None = None
) -> list[Message]:
    """The request's messages: the constant system prompt, the stored history, the newest turn.

    `history` holds every earlier message exactly as it was sent (user turns with
    the runtime block they were sent with), so requests only ever grow.
    `system` is another prompt only for the eval's baseline.
    """
    return [
        Message(role="system", content=SYSTEM_PROMPT if system is None else system),
        *history,
        newest,
    ]


def proactive_turn(
    kind: str, text: str, now_line: object, advisory: str, *, facts: bool = True
) -> Message:
    """The user message that starts a proactive turn: the time facts, then the job.

    The facts are a runtime block like a conversation turn's (same fences),
    with the current time and, outside the person's contact window, the advisory.
    Without `facts` (the eval's baseline) the message is the job alone.
    """
    lines = [f"Current time: {now_line}"]
    if advisory:
        lines.append(f"Advisory: {advisory}")
    what = "reminder the person asked for" if kind == "reminder" else "scheduled message"
    job = (
        f"A {what} is due now: {text}\n"
        "Reply with the message itself, as the person will read it, or call defer with a "
        "later time and a short reason. The reminder already exists: no other tool acts here."
    )
    return Message(role="user", content=f"{render_block(lines)}\n\n{job}" if facts else job)


_DUE_JOB = re.compile(r"^A (?:reminder|scheduled message)[^:]*is due now: (?P<what>.+)$", re.M)
"""The job line of a `proactive_turn`, whose text is the person's own words."""


def person_words(content: str) -> str:
    """What a stored user turn holds of the person's words: what they wrote after the
    runtime block, or, in a proactive turn, the text of the reminder they set."""
    _, ended, text = content.partition(RUNTIME_BLOCK_END)
    text = text if ended else content
    job = _DUE_JOB.search(text)
    return (job["what"] if job else text).strip()
