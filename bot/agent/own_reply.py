"""clockbot's own words for what a turn did, where the model's could not be sent.

When a model's reply fails a check (`bot.agent.reply_checks`) twice, the person still
learns what was done: one line per staged effect, in their language, with each
time said as every confirmation says it ("Set: call the dentist, Wednesday 2 Dec,
09:00 (in 18 hours).", `clockcore.speech.spoken.say_when`, in the language of their words or of
the words they asked for a reminder with). The effects are what the turn
will store, so the lines are true by construction; the tool results add only
the words an effect does not carry (a reminder's text, a repeating one's next
time). A turn that changed nothing says what its results said for the person
(a time asked for), else nothing: the agent then asks the question a refused
call left for the person, or says `bot.replies.NO_WORDS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot import replies
from bot.agent.tools.tool_errors import tool_result
from bot.agent.tools.tool_session import ToolSession
from bot.llm.reminder_words import REMIND_ME
from bot.llm.types import Message
from clockcore.speech.spoken import say_when
from wrapper.outbound.reminders import ReminderChange, RuleChange
from wrapper.outbound.schedules import NewSchedule
from wrapper.turns.effects import (
    Effect,
    Enqueue,
    ForgetMemory,
    NewAction,
    NewMemory,
    WindowChange,
    ZoneChange,
)

__all__ = ["own_reply", "results_said"]

_ASKED = re.compile(rf"(?<![\w-])(?:{REMIND_ME})\b", re.IGNORECASE)


def _asked_in(text: str) -> str | None:
    """The language of the words that ask for a reminder in `text` ("recuérdame": es), where
    the words alone do not tell the person's language."""
    found = _ASKED.search(text)
    return found.lastgroup if found is not None else None


def own_reply(session: ToolSession, produced: Sequence[Message]) -> str:
    """What the turn did, as clockbot says it to the person (see the module docstring)."""
    results = [tool_result(m.content) for m in produced if m.role == "tool"]
    lines = list(_lines(session, results))
    if lines:
        return "\n".join(dict.fromkeys(lines))
    return results_said(produced)


def results_said(produced: Sequence[Message]) -> str:
    """The ``said`` of the turn's tool results that carry one, in order, as lines ("" if none)."""
    lines = []
    for message in produced:
        found = tool_result(message.content).get("said") if message.role == "tool" else None
        if isinstance(found, list):
            found = "; ".join(str(line) for line in found)
        if found:
            lines.append(" ".join(str(found).split()))
    return "\n".join(dict.fromkeys(lines))


def _lines(session: ToolSession, results: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    language = session.language or _asked_in(session.message.text)
    listed = [r for result in results for r in result.get("reminders") or () if "id" in r]
    by_id: dict[str, dict[str, Any]] = {}
    for found in [*listed, *results]:  # a listing's words, under a change's own result
        if "id" in found:
            by_id[str(found["id"])] = {**by_id.get(str(found["id"]), {}), **found}
    noted = {e.memory_id for e in session.staged if isinstance(e, Enqueue) and e.memory_id}
    yield from (replies.DONE_CLOCKED.in_(language, text=label) for label in _clocked(session))
    for effect in session.staged:
        line = _line(effect, session, language, by_id, noted)
        if line is not None:
            said_as, fields = line
            yield said_as.in_(language, **fields)


def _clocked(session: ToolSession) -> list[str]:
    """The labels of the actions the wrapper clocked from this very message ("clock it:
    lessive", docs/talking.md): done before the model read it, so no staged effect holds
    them, and true to say all the same."""
    envelope = session.envelope
    message = envelope.message
    if message is None:
        return []
    return [a.label for a in envelope.open_actions if a.recorded_at == message.received_at]


def _line(
    effect: Effect,
    session: ToolSession,
    language: str | None,
    by_id: Mapping[str, Mapping[str, Any]],
    noted: set[int],
) -> tuple[replies.Said, dict[str, str]] | None:
    """The reply line for one staged effect and its fields; None for one the person need
    not hear of (a due item marked reminded, an action's status)."""

    def said(at: datetime) -> str:
        return say_when(at, session.session_tz, now=session.clock.now(), language=language)

    match effect:
        case Enqueue(text=text, due_at=due_at):
            return replies.DONE_SET, {"text": text, "when": said(due_at)}
        case NewSchedule(id=number, text=text):
            upcoming = by_id.get(f"s{number}", {}).get("next")
            if isinstance(upcoming, list) and upcoming:
                when = said(datetime.fromisoformat(str(upcoming[0])))
                return replies.DONE_REPEATING, {"text": text, "when": when}
            return replies.DONE_NOTED, {"text": text}
        case NewMemory(id=number, content=content, due_at=due_at) if number not in noted:
            if due_at is not None:
                return replies.DONE_SET, {"text": content, "when": said(due_at)}
            return replies.DONE_NOTED, {"text": content}
        case NewAction(label=label):
            return replies.DONE_CLOCKED, {"text": label}
        case ReminderChange(target=target, action=action, until=until):
            text = str(by_id.get(target, {}).get("text") or "")
            if target == "all":
                text = replies.ALL_REMINDERS.in_(
                    session.language or _asked_in(session.message.text)
                )
            text = text or target
            if action == "move" and until is not None:
                return replies.DONE_MOVED, {"text": text, "when": said(until)}
            if action == "pause" and until is not None:
                return replies.DONE_PAUSED, {"text": text, "when": said(until)}
            if action == "pause":
                return replies.DONE_PAUSED_OPEN, {"text": text}
            if action == "resume":
                return replies.DONE_RESUMED, {"text": text}
            return replies.DONE_CANCELLED, {"text": text}
        case RuleChange(target=target, rule=rule):
            upcoming = by_id.get(target, {}).get("next")
            if isinstance(upcoming, list) and upcoming:
                when = said(datetime.fromisoformat(str(upcoming[0])))
                return replies.DONE_REPEATING, {"text": rule.text, "when": when}
            return replies.DONE_NOTED, {"text": rule.text}
        case ForgetMemory(id=number):
            return replies.DONE_FORGOTTEN, {"text": f"#{number}"}
        case ZoneChange(zone=zone):
            return replies.DONE_ZONE, {"text": zone}
        case WindowChange(window=window):
            return replies.DONE_WINDOW, {"text": window}
    return None
