"""clockbot's own words for what a turn did, where the model's could not be sent.

When a model's reply fails a check (`bot.reply_checks`) twice, the person still
learns what was done: one line per staged effect, in their language, with each
time said as every confirmation says it ("Set: call the dentist, Wednesday 2 Dec,
09:00 (in 18 hours).", `bot.tool_session.said`). The effects are what the turn
will store, so the lines are true by construction; the tool results add only
the words an effect does not carry (a reminder's text, a repeating one's next
time). A turn that changed nothing says what its results said for the person
(a time asked for), else nothing: the agent then asks the question a refused
call left for the person, or says `bot.replies.NO_WORDS`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot import replies
from bot.llm.types import Message
from bot.tool_errors import tool_result
from bot.tool_session import ToolSession, said
from wrapper.effects import (
    Effect,
    Enqueue,
    ForgetMemory,
    NewAction,
    NewMemory,
    WindowChange,
    ZoneChange,
)
from wrapper.reminders import ReminderChange
from wrapper.schedules import NewSchedule

__all__ = ["own_reply", "results_said"]


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
    language = session.language
    by_id = {str(r["id"]): r for r in results if "id" in r}
    noted = {e.memory_id for e in session.staged if isinstance(e, Enqueue) and e.memory_id}
    for effect in session.staged:
        line = _line(effect, session, by_id, noted)
        if line is not None:
            said_as, fields = line
            yield said_as.in_(language, **fields)


def _line(
    effect: Effect,
    session: ToolSession,
    by_id: Mapping[str, Mapping[str, Any]],
    noted: set[int],
) -> tuple[replies.Said, dict[str, str]] | None:
    """The reply line for one staged effect and its fields; None for one the person need
    not hear of (a due item marked reminded, an action's status)."""
    match effect:
        case Enqueue(text=text, due_at=due_at):
            return replies.DONE_SET, {"text": text, "when": said(due_at, session)}
        case NewSchedule(id=number, text=text):
            next_said = by_id.get(f"s{number}", {}).get("said")
            if isinstance(next_said, list) and next_said:
                return replies.DONE_REPEATING, {"text": text, "when": str(next_said[0])}
            return replies.DONE_NOTED, {"text": text}
        case NewMemory(id=number, content=content, due_at=due_at) if number not in noted:
            if due_at is not None:
                return replies.DONE_SET, {"text": content, "when": said(due_at, session)}
            return replies.DONE_NOTED, {"text": content}
        case NewAction(label=label):
            return replies.DONE_CLOCKED, {"text": label}
        case ReminderChange(target=target, action=action, until=until):
            text = str(by_id.get(target, {}).get("text") or "")
            if target == "all":
                text = replies.ALL_REMINDERS.in_(session.language)
            text = text or target
            if action == "move" and until is not None:
                return replies.DONE_MOVED, {"text": text, "when": said(until, session)}
            if action == "pause" and until is not None:
                return replies.DONE_PAUSED, {"text": text, "when": said(until, session)}
            if action == "pause":
                return replies.DONE_PAUSED_OPEN, {"text": text}
            if action == "resume":
                return replies.DONE_RESUMED, {"text": text}
            return replies.DONE_CANCELLED, {"text": text}
        case ForgetMemory(id=number):
            return replies.DONE_FORGOTTEN, {"text": f"#{number}"}
        case ZoneChange(zone=zone):
            return replies.DONE_ZONE, {"text": zone}
        case WindowChange(window=window):
            return replies.DONE_WINDOW, {"text": window}
    return None
