"""The reminder tools: set one (`remind`), the list, snooze, cancel, pause and resume.

One tool sets every reminder, one-shot or repeating (`bot.agent.tools.remind_tool`).

Their definitions join `bot.agent.tools.toolbox.TOOLS` once, at import, after the others, so
the tool list stays byte-stable. Like every writing tool they only stage
effects (`wrapper.outbound.schedules.NewSchedule`, a `NewMemory` and its `Enqueue`,
`wrapper.outbound.reminders.ReminderChange`, an `Enqueue` for a snooze), committed
with the turn.

Reminders are named ``s<id>`` (recurring) and ``r<id>`` (one-shot), the ids
`list_reminders` shows. Snooze without an id means the newest reminder sent in
this thread: what a person answering a reminder means.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, time, timedelta
from typing import Any

from bot import messages
from bot.agent.tools.remind_tool import in_scope, remind
from bot.agent.tools.tool_session import (
    TEXT,
    WHEN,
    BadArguments,
    Handler,
    ToolSession,
    instant,
    iso,
    object_schema,
    required_text,
    said,
    sending,
    text_arg,
)
from bot.agent.tools.window_tools import set_contact_window
from bot.llm.types import ToolSpec
from clockcore import parse_anchored_time
from clockcore.geo.zones import get_zone
from clockcore.parsing.relative import from_now
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.reminder_ids import (
    parse_reminder_id,
    reminder_id,
    resolve_reminder_id,
    short_reminder_id,
)
from wrapper.outbound.reminders import ReminderChange
from wrapper.outbound.schedules import (
    MISSED_RUNS,
    WAITING,
    NewSchedule,
)
from wrapper.turns.effects import Enqueue

__all__ = ["REMINDER_HANDLERS", "REMINDER_TOOLS"]

_ID = {"type": "string", "description": "A reminder id from list_reminders ('s12', 'r40')."}

REMINDER_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "remind",
        "Set a reminder: at that time the person gets a message with text. when is the "
        "person's own words for the time, copied as they wrote them ('in 2 minutes', "
        "'tomorrow at 9am', 'every weekday at 9', 'mañana a las 9'): clockbot reads them in "
        "the person's zone, so never compute a date or an ISO time yourself. A repeating "
        "reminder may give the repeat in every ('every Monday') and the time in when. missed "
        "(repeating only): what happens to occurrences missed while clockbot was offline: "
        "one late message (default), skip, or all. id: change that reminder's repeat in place "
        "instead ('make it every other week': every, and what else they named; 'this' for the "
        "one just sent); it keeps its id, and what the words do not name.",
        object_schema(
            {
                "text": TEXT,
                "when": {"type": "string", "description": "The time as the person said it."},
                "every": {"type": "string", "description": "The repeat, if it repeats."},
                "missed": {"type": "string", "enum": list(MISSED_RUNS)},
                "id": _ID,
            },
            ("text", "when"),
        ),
    ),
    ToolSpec(
        "list_reminders",
        "The person's reminders: recurring ones with their rule and next time, and "
        "one-shot ones still to come.",
        object_schema({}),
    ),
    ToolSpec(
        "snooze",
        "Bring a reminder back later ('in 10 minutes', 'tonight at 8'); without an id, the "
        "reminder the message replies to, else the one last sent in this conversation. "
        "A one-shot reminder still to come moves.",
        object_schema({"id": _ID, "until": WHEN}, ("until",)),
    ),
    ToolSpec(
        "cancel_reminder",
        "Cancel a reminder: a recurring one stops for good, a one-shot one is not sent. "
        "Without an id, the reminder the message replies to, else the one last sent in this "
        "conversation (its whole schedule when it repeats). id 'all' cancels every one of "
        "the person's reminders: only after they confirmed it.",
        object_schema({"id": _ID}),
    ),
    ToolSpec(
        "set_contact_window",
        "Set the hours the person may be contacted, in their own zone, as 24-hour HH:MM "
        "('09:00', '22:00'); give start, end or both. Outside them, proactive messages "
        "come to you with an advisory and you decide; nothing is held back by itself.",
        object_schema({"start": TEXT, "end": TEXT}),
    ),
    ToolSpec(
        "pause_reminders",
        "Pause one reminder (id) or all of them until a time, or until resumed; resume=true "
        "resumes them.",
        object_schema({"id": _ID, "until": WHEN, "resume": {"type": "boolean"}}),
    ),
)


async def _list_reminders(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    schedules, one_shots = await in_scope(context)
    changed = {e.target: e.action for e in context.staged if isinstance(e, ReminderChange)}
    items: list[dict[str, Any]] = []
    for schedule in schedules:
        shown: dict[str, Any] = {
            "id": reminder_id(schedule), "text": schedule.text, "repeats": schedule.rrule,
            "zone": schedule.zone or "floating", "state": schedule.state,
            "next": iso(schedule.next_at, context),
        }  # fmt: skip
        if schedule.next_at is not None:
            shown["said"] = said(schedule.next_at, context)
        items.append(shown)
    for job in one_shots:
        items.append({
            "id": reminder_id(job), "text": job.text, "next": iso(job.due_at, context),
            "said": said(job.due_at, context),
        })  # fmt: skip
    for item in items:
        if item["id"] in changed:
            item["changed_this_turn"] = changed[item["id"]]
    for effect in context.staged:
        if isinstance(effect, NewSchedule):
            items.append({"id": f"s{effect.id}", "text": effect.text, "repeats": effect.rrule})
        elif isinstance(effect, Enqueue) and effect.kind in ("reminder", "proactive"):
            items.append({"id": None, "text": effect.text, "next": iso(effect.due_at, context)})
    return {"count": len(items), "reminders": items}


async def _snooze(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    until = required_text(arguments, "until")
    if _BARE_SPAN.fullmatch(until):  # "1h" is a span to a snooze, not French for 01:00
        until = f"in {until.strip().removeprefix('for ')}"
    else:  # "10 minutos", "2 Stunden": the same span in the person's language
        until = from_now(until, context.language) or until
    sending(context, "snooze")
    named = text_arg(arguments, "id", required=False)
    wrapper, envelope = context.wrapper, context.envelope
    if named is None:
        job = await _reminder_meant(context)
        if job is None:
            raise BadArguments(
                "no reminder was sent in this conversation; give an id",
                ask=messages.ASK_WHICH_REMINDER.in_(context.language),
            )
    else:
        parsed = parse_reminder_id(named)
        if parsed is None:
            raise BadArguments(
                f"{named!r} is not a reminder id like 'r40'",
                ask=messages.ASK_WHICH_REMINDER.in_(context.language),
            )
        repeating, _ = await in_scope(context)
        if parsed[0] == "s" or named.strip().lower() in {reminder_id(s) for s in repeating}:
            raise BadArguments(
                "a recurring reminder comes again by itself; to hold it, use pause_reminders",
                ask=messages.ASK_REPEATING_NOT_SNOOZED.in_(
                    context.language, id=short_reminder_id(named)
                ),
            )
        job = await wrapper.reminders.job(envelope.user_key, parsed[1])
        if job is None or (context.group is not None and job.thread_key != context.group):
            raise BadArguments(
                f"no reminder {named!r}",
                ask=messages.ASK_NO_SUCH_REMINDER.in_(context.language, id=named),
            )
    copy = await _snoozed_copy(job, context) if job.status not in WAITING else None
    sent = copy is not None or job.status not in WAITING  # a span counts from now
    job = copy or job  # snoozed again: its waiting copy moves, no second copy (issue 61)
    moved = job.status in WAITING  # not sent yet: it moves
    # Moved to "Friday", a reminder keeps its time of day (issue 61: a change touches only
    # what the words name); a sent one snoozed to a day comes at the window's start.
    local = job.due_at.astimezone(get_zone(context.session_tz)).time()
    at = _future(until, context, day_at_window=not moved, day_keeps=local if moved else None)
    now = context.clock.now()
    # A span counts in whole seconds: the reader's instant is now's, microseconds and all,
    # and a clock read twice drifted the reminder to 04:29:59.999 (docs/reminders.md).
    if _is_duration(until, context):
        span = timedelta(seconds=round((at - now).total_seconds()))
        # "snooze r12 30 min" on a reminder due tomorrow: 30 minutes later than it was, not
        # 30 minutes from now (which moved it ten hours earlier).
        later_than_due = not sent and job.due_at > now
        at = (job.due_at if later_than_due else now.replace(microsecond=0)) + span
    if moved:
        context.stage(ReminderChange(envelope.user_key, reminder_id(job), "move", at))
    else:
        context.enqueue("reminder", job.text, at)
    shown = {
        "snoozed": reminder_id(job), "text": job.text, "until": iso(at, context),
        "said": said(at, context),
    }  # fmt: skip
    return {**shown, "moved": True} if moved and not sent else shown


async def _cancel_reminder(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    if arguments.get("id") is None:
        arguments = {"id": await _this_one(context)}
    if str(arguments["id"]).strip().lower() == "all":
        context.personal("cancelling all their reminders")
        schedules, one_shots = await in_scope(context)
        context.stage(ReminderChange(context.envelope.user_key, "all", "cancel"))
        return {"id": "all", "canceled": True, "count": len(schedules) + len(one_shots)}
    target = await _owned(arguments, context)
    context.stage(ReminderChange(context.envelope.user_key, target, "cancel"))
    return {"id": target, "canceled": True}


async def _pause_reminders(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    if arguments.get("id") is None:
        context.personal("pausing all their reminders")
    target = await _owned(arguments, context) if arguments.get("id") is not None else "all"
    if arguments.get("resume"):
        user_key, now = context.envelope.user_key, context.clock.now()
        if not await context.wrapper.reminders.paused(user_key, target, now=now):
            # "resume r2" of one never paused said "back on" (issue 61): it was on all along.
            raise BadArguments(
                f"{target} is not paused: nothing to resume",
                ask=messages.ASK_NOT_PAUSED.in_(context.language),
            )
        context.stage(ReminderChange(user_key, target, "resume"))
        return {"id": target, "resumed": True}
    until_text = text_arg(arguments, "until", required=False)
    # "until Monday": when their Monday starts (the contact window), not its midnight
    until = _future(until_text, context, day_at_window=True) if until_text else None
    repeating, _ = await in_scope(context)  # an r<id> made repeating pauses as one (`named`)
    if until is None and target.startswith("r") and target not in map(reminder_id, repeating):
        raise BadArguments(
            "a one-shot reminder is paused until a time: give until",
            ask=messages.ASK_PAUSE_UNTIL.in_(context.language, id=target),
        )
    context.stage(ReminderChange(context.envelope.user_key, target, "pause", until))
    if until is None:
        return {"id": target, "paused": True, "until": None}
    # What the pause holds, said back: each one-shot due before its end comes at its end.
    _, one_shots = await in_scope(context)
    held = [
        {"id": reminder_id(job), "text": job.text, "was": said(job.due_at, context)}
        for job in one_shots
        if job.due_at < until and target in ("all", reminder_id(job))
    ]
    return {
        "id": target,
        "paused": True,
        "until": iso(until, context),
        "said": said(until, context),
        "held": held,
    }


async def _this_one(context: ToolSession) -> str:
    """The reminder "this one" means: of the one replied to, else the last sent here, its
    schedule, else its snoozed copy still to come (`_snoozed_copy`).

    A snoozed copy of an occurrence is a one-shot job; it stands for the
    person's active repeating reminder with the same text.
    """
    last = await _reminder_meant(context)
    if last is None:
        raise BadArguments(
            "no reminder was sent in this conversation; give an id",
            ask=messages.ASK_WHICH_REMINDER.in_(context.language),
        )
    schedules, _ = await in_scope(context)
    if last.schedule_id is not None:  # by the id the person knows it by (`Schedule.named`)
        own = next((s for s in schedules if s.id == last.schedule_id), None)
        return reminder_id(own) if own is not None else f"s{last.schedule_id}"
    if (copy := await _snoozed_copy(last, context)) is not None:
        return reminder_id(copy)  # snoozed: the copy that would come again
    same = [s for s in schedules if s.text == last.text and s.state != "ended"]
    if len(same) != 1:
        raise BadArguments(
            "the reminder last sent here does not repeat: nothing more will come",
            ask=messages.ASK_NOTHING_MORE.in_(context.language),
        )
    return reminder_id(same[0])


async def _snoozed_copy(sent: OutboxItem, context: ToolSession) -> OutboxItem | None:
    """The waiting copy a snooze of `sent` made (same thread and text, made after it was
    sent), or None: snoozed again or stopped, that copy is the reminder meant."""
    if sent.sent_at is None:
        return None
    _, one_shots = await in_scope(context)
    copies = [
        job for job in one_shots
        if job.thread_key == sent.thread_key and job.text == sent.text
        and job.created_at >= sent.sent_at and job.status in WAITING
    ]  # fmt: skip
    return min(copies, key=lambda job: job.due_at, default=None)


async def _reminder_meant(context: ToolSession) -> OutboxItem | None:
    """The reminder a message means without an id: the one it replies to, else the last sent."""
    envelope = context.envelope
    ref = envelope.message
    reply_to = ref.reply_to if ref is not None else None
    return await context.wrapper.reminders.meant(envelope.thread_key, envelope.channel, reply_to)


async def _owned(arguments: Mapping[str, Any], context: ToolSession) -> str:
    """The id argument, checked to name a reminder of this person that is still to come."""
    named = required_text(arguments, "id")
    parsed = parse_reminder_id(named)
    if parsed is None:
        raise BadArguments(
            f"{named!r} is not a reminder id like 's12' or 'r40'",
            ask=messages.ASK_WHICH_REMINDER.in_(context.language),
        )
    _, number = parsed
    if any(isinstance(e, NewSchedule) and e.id == number for e in context.staged):
        raise BadArguments("that reminder is being set up in this turn; change it next turn")
    schedules, one_shots = await in_scope(context)
    known = {reminder_id(s) for s in schedules} | {reminder_id(j) for j in one_shots}
    # A repeating one may be named by its short id (docs/reminders.md, "Ids").
    found = resolve_reminder_id(named, known)
    if len(found) > 1:
        raise BadArguments(
            f"several reminders end in {named!r}; give the whole id",
            ask=messages.ASK_SEVERAL_END_IN.in_(context.language, id=named),
        )
    if not found:
        raise BadArguments(
            f"no reminder {named!r} still to come; list_reminders shows them",
            ask=messages.ASK_NO_SUCH_REMINDER.in_(context.language, id=named),
        )
    return found[0]


_BARE_SPAN = re.compile(
    r"\s*(?:for )?\d+(?:[.,]\d+)?\s*(?:m|mins?|minutes?|h|hrs?|hours?|d|days?)\.?\s*", re.IGNORECASE
)
"""A span with no "in": what a snooze means by "30 min" or "1h"."""


def _is_duration(text: str, context: ToolSession) -> bool:
    """Whether `text` names a span from now ("30 min", "in an hour"), not a clock time."""
    now = context.clock.now()
    read = parse_anchored_time(text, context.session_tz, now, language=context.language)
    return read.kind == "relative"


def _future(
    text: str, context: ToolSession, *, day_at_window: bool = False, day_keeps: time | None = None
) -> datetime:
    at = instant(text, context, day_at_window=day_at_window, day_keeps=day_keeps)
    if at <= context.clock.now():
        raise BadArguments(
            f"{text!r} is {iso(at, context)}, which has already passed",
            ask=messages.ASK_TIME_PASSED.in_(context.language, when=said(at, context)),
        )
    return at


REMINDER_HANDLERS: dict[str, Handler] = {
    "remind": remind,
    "list_reminders": _list_reminders,
    "snooze": _snooze,
    "cancel_reminder": _cancel_reminder,
    "pause_reminders": _pause_reminders,
    "set_contact_window": set_contact_window,
}
