"""The reminder tools: set one (`remind`), the list, snooze, cancel, pause and resume.

One tool sets every reminder, one-shot or repeating: it takes the person's
own words for when, and clockcore reads them (docs/reminders.md). A model
given three overlapping ways to set a reminder picked a repeating rule for a
one-shot request and computed ISO times itself (docs/eval.md), so there is
one way, and no ISO arithmetic is asked of the model.

Their definitions join `bot.tools.TOOLS` once, at import, after the others, so
the tool list stays byte-stable. Like every writing tool they only stage
effects (`wrapper.schedules.NewSchedule`, a `NewMemory` and its `Enqueue`,
`wrapper.reminders.ReminderChange`, an `Enqueue` for a snooze), committed
with the turn.

Reminders are named ``s<id>`` (recurring) and ``r<id>`` (one-shot), the ids
`list_reminders` shows. Snooze without an id means the newest reminder sent in
this thread: what a person answering a reminder means.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from bot import messages
from bot.llm.types import ToolSpec
from bot.reminder_words import asks_to_keep_in_mind
from bot.tool_session import (
    TEXT,
    WHEN,
    BadArguments,
    Handler,
    ToolSession,
    instant,
    iso,
    memory_content,
    object_schema,
    person_instant,
    required_text,
    said,
    sending,
    text_arg,
)
from bot.window_tools import set_contact_window
from clockcore import RecurrenceResult, parse_recurrence, runtime_time_context
from wrapper.effects import Enqueue
from wrapper.outbox import OutboxItem
from wrapper.reminders import (
    ReminderChange,
    parse_reminder_id,
    reminder_id,
    resolve_reminder_id,
    short_reminder_id,
)
from wrapper.schedules import (
    MISSED_RUNS,
    WAITING,
    MissedRuns,
    NewSchedule,
    Schedule,
    new_schedule_id,
)

__all__ = ["REMINDER_HANDLERS", "REMINDER_TOOLS"]

log = logging.getLogger(__name__)

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
        "one late message (default), skip, or all.",
        object_schema(
            {
                "text": TEXT,
                "when": {"type": "string", "description": "The time as the person said it."},
                "every": {"type": "string", "description": "The repeat, if it repeats."},
                "missed": {"type": "string", "enum": list(MISSED_RUNS)},
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


async def _remind(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    text = required_text(arguments, "text")
    when = text_arg(arguments, "when", required=False)
    every = text_arg(arguments, "every", required=False)
    if when is None and every is None:
        raise BadArguments(
            "give when: the person's own words for the time, e.g. 'in 2 hours', "
            "'tomorrow at 9am', 'every Monday at 9'"
        )
    sending(context, "remind")
    rule = _repeat(when, every, context)
    schedules, one_shots = await _in_scope(context)
    if rule is not None:
        for schedule in schedules:
            if (schedule.text, schedule.rrule) == (text, rule.rrule):
                return _set_before(schedule, context)
        return _repeating(text, rule, arguments.get("missed", "one"), context)
    send = not asks_to_keep_in_mind(context.message.text)
    if every is None:
        return _one_shot(text, when, context, send=send, existing=one_shots)
    # No rule with `every`: the person named one time and no repeat; theirs is read (docs/eval.md).
    result = _one_shot(text, None, context, send=send, existing=one_shots)
    result["every"] = f"not set: the person asked for one time ({result['said']}), no repeat"
    return result


def _repeat(when: str | None, every: str | None, context: ToolSession) -> RecurrenceResult | None:
    """The repeat `when`/`every` name, or None for a one-shot time.

    Where the person's message names one time, read whole, and it repeats
    (`ToolSession.their_time`: "todos los días a las 8 de la noche"), that
    repeat is set whatever the model passed: a 1.5B model dropped the repeat, or
    "de la noche", from its arguments (docs/eval.md). Otherwise a model splits a
    repeating time several ways ("every weekday" + "9am", "Monday" + "at 9", or
    all of it in `when`); each reads as the phrase the person said. With `every`
    given, a phrase that does not repeat is an error, never a one-shot reminder,
    unless the person's own one time asks for no repeat: then it is set once.
    """
    now = context.clock.now()

    def read(phrase: str) -> RecurrenceResult:
        return parse_recurrence(phrase, context.session_tz, now, language=context.language)

    theirs = context.their_time
    # The person's one time expression, read whole, when it repeats (docs/reminders.md).
    their_rule = read(theirs.text) if theirs is not None else None
    if their_rule is not None and their_rule.rrule is not None:
        return their_rule
    if when is not None:
        rule = read(when)
        if rule.rrule is not None:
            return rule
        if every is None:
            return rule if rule.kind == "recurring" else None
    assert every is not None
    phrase = f"{every} {when}" if when else every
    rule = read(phrase)
    if rule.kind != "recurring":
        rule = read(f"every {phrase}")
    if rule.kind != "recurring" or rule.rrule is None:
        problem = rule.clarification_question or (
            f"{phrase!r} is not a repeating time; give when as the person said it, "
            "like 'every Monday at 9am'"
        )
        if read(context.message.text).kind == "invalid":
            # A 1.5B model filled `every` for "tomorrow at 7" and retried it six times
            # (docs/eval.md): what the person wrote settles it. Their one time, read
            # whole, is set once; else the model is told to drop `every`.
            if theirs is not None:
                return None
            problem += (
                " The person's message asks for no repeat: for a one-time reminder, call "
                "remind again without every."
            )
        raise BadArguments(problem, ask=rule.clarification_question or _not_a_repeat(phrase))
    return rule


def _not_a_repeat(phrase: str) -> str:
    return messages.ASK_NOT_A_REPEAT.format(phrase=phrase)


def _repeating(
    text: str, rule: RecurrenceResult, missed: object, context: ToolSession
) -> dict[str, Any]:
    if missed not in MISSED_RUNS:
        raise BadArguments(f"missed must be one of {list(MISSED_RUNS)}, not {missed!r}")
    runs = cast("MissedRuns", missed)
    if rule.rrule is None or rule.dtstart is None:
        raise BadArguments(
            rule.clarification_question or "say the repeat like 'every Monday at 9am'",
            ask=rule.clarification_question or _not_a_repeat(text),
        )
    for effect in context.staged:
        if isinstance(effect, NewSchedule) and (effect.text, effect.rrule) == (text, rule.rrule):
            return _already(f"s{effect.id}")
    envelope, message = context.envelope, context.message
    schedule = NewSchedule(
        id=new_schedule_id(), user_key=envelope.user_key, thread_key=envelope.thread_key,
        channel=message.channel, thread_id=message.thread_id, user_id=message.user_id, text=text,
        rrule=rule.rrule, dtstart=rule.dtstart, zone=rule.zone, origin_tz=context.session_tz,
        elapsed=rule.elapsed, missed=runs,
    )  # fmt: skip
    context.stage(schedule)
    return {
        "id": f"s{schedule.id}",
        "scheduled": True,
        "text": text,
        "repeats": True,
        "rule": rule.rrule,
        "zone": rule.zone or f"floating (now {context.session_tz})",
        "next": [iso(at, context) for at in rule.next_occurrences[:3]],
        "said": [said(at, context) for at in rule.next_occurrences[:3]],
        "missed": missed,
    }


def _already(item: object) -> dict[str, Any]:
    """The answer to a second identical `remind` in one turn: nothing new is made.

    A 1.5B model called the same remind four times in a turn (docs/eval.md);
    each would have been a reminder of its own.
    """
    return {
        "id": item,
        "scheduled": True,
        "already_set": "this reminder was set earlier in this turn: now answer the person",
    }


_A_NOTE = (
    "a note due then, not a reminder: the person asked you to keep it in mind, so nothing "
    "is sent (it shows as DUE when they write). Ask them whether they want a reminder."
)


def _set_before(item: OutboxItem | Schedule, context: ToolSession) -> dict[str, Any]:
    """The answer to a reminder the person already has, same words, same time: none is added."""
    at = item.next_at if isinstance(item, Schedule) else item.due_at
    shown: dict[str, Any] = {
        "id": reminder_id(item), "scheduled": True, "text": item.text,
        "already_set": "the person already has this reminder at this time; nothing new was "
        "set: tell them",
    }  # fmt: skip
    if at is not None:
        shown |= {"at": iso(at, context), "said": said(at, context)}
    return shown


def _one_shot(
    text: str,
    when: str | None,
    context: ToolSession,
    *,
    send: bool = True,
    existing: Sequence[OutboxItem] = (),
) -> dict[str, Any]:
    """A reminder sent once, kept as a memory item due then (recall and forget find it).

    `when` is read as `person_instant` reads it: the person's own words win
    where the model lost part of them. Not `send`: the person asked only to
    keep it in mind ("keep in mind the insurance renews on 1 April"), so it is
    the note due then, and nothing is sent: a 1.5B model set a reminder for it
    (docs/eval.md). The model is told to ask whether they want one.
    """
    at, theirs = person_instant(when, context)
    if at <= context.clock.now():
        raise BadArguments(
            f"{theirs or when!r} is {iso(at, context)}, which has already passed",
            ask=messages.ASK_TIME_PASSED.format(when=said(at, context)),
        )
    content = memory_content(text)
    for effect in context.staged:
        if isinstance(effect, Enqueue) and (effect.text, effect.due_at) == (content, at):
            return _already(effect.memory_id)
    for job in existing:
        if send and (job.text, job.due_at) == (content, at):
            return _set_before(job, context)
    item = context.remember(content, at)
    if not send:
        return {
            "id": item.id,
            "stored": True,
            "due_at": iso(at, context),
            "said": said(at, context),
            "set_as": _A_NOTE,
        }
    context.enqueue("reminder", content, at, memory_id=item.id)
    timing = runtime_time_context(
        at, context.envelope.user_tz, context.contact_window, planned=True
    )
    if theirs is not None:
        # Not said to the model: told "read from the person's words, not 'tomorrow 8'",
        # a 1.5B model answered "I can't assist with that" (docs/eval.md). `said` is true.
        log.info("remind: read the person's own words for the time, not the model's")
    return {
        "id": item.id,
        "scheduled": True,
        "text": content,
        "repeats": False,
        "at": iso(at, context),
        "said": said(at, context),
        "time_context": timing.to_dict(),
    }


async def _in_scope(context: ToolSession) -> tuple[list[Schedule], list[OutboxItem]]:
    """The person's repeating and one-shot reminders to come; in a group, that group's only."""
    schedules, one_shots = await context.wrapper.reminders.reminders(context.envelope.user_key)
    if context.group is None:
        return list(schedules), list(one_shots)
    return (
        [s for s in schedules if s.thread_key == context.group],
        [j for j in one_shots if j.thread_key == context.group],
    )


async def _list_reminders(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    schedules, one_shots = await _in_scope(context)
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
    sending(context, "snooze")
    at = _future(until, context)
    named = text_arg(arguments, "id", required=False)
    wrapper, envelope = context.wrapper, context.envelope
    if named is None:
        job = await _reminder_meant(context)
        if job is None:
            raise BadArguments(
                "no reminder was sent in this conversation; give an id",
                ask=messages.ASK_WHICH_REMINDER,
            )
    else:
        parsed = parse_reminder_id(named)
        if parsed is None:
            raise BadArguments(
                f"{named!r} is not a reminder id like 'r40'", ask=messages.ASK_WHICH_REMINDER
            )
        if parsed[0] == "s":
            raise BadArguments(
                "a recurring reminder comes again by itself; to hold it, use pause_reminders",
                ask=messages.ASK_REPEATING_NOT_SNOOZED.format(id=short_reminder_id(named)),
            )
        job = await wrapper.reminders.job(envelope.user_key, parsed[1])
        if job is None or (context.group is not None and job.thread_key != context.group):
            raise BadArguments(
                f"no reminder {named!r}", ask=messages.ASK_NO_SUCH_REMINDER.format(id=named)
            )
    moved = job.status in WAITING  # not sent yet: it moves
    if moved:
        context.stage(ReminderChange(envelope.user_key, reminder_id(job), "move", at))
    else:
        context.enqueue("reminder", job.text, at)
    shown = {
        "snoozed": reminder_id(job), "text": job.text, "until": iso(at, context),
        "said": said(at, context),
    }  # fmt: skip
    return {**shown, "moved": True} if moved else shown


async def _cancel_reminder(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    if arguments.get("id") is None:
        arguments = {"id": await _this_one(context)}
    if str(arguments["id"]).strip().lower() == "all":
        context.personal("cancelling all their reminders")
        schedules, one_shots = await _in_scope(context)
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
        context.stage(ReminderChange(context.envelope.user_key, target, "resume"))
        return {"id": target, "resumed": True}
    until_text = text_arg(arguments, "until", required=False)
    until = _future(until_text, context) if until_text else None
    if until is None and target.startswith("r"):
        raise BadArguments(
            "a one-shot reminder is paused until a time: give until",
            ask=messages.ASK_PAUSE_UNTIL.format(id=target),
        )
    context.stage(ReminderChange(context.envelope.user_key, target, "pause", until))
    if until is None:
        return {"id": target, "paused": True, "until": None}
    # What the pause holds, said back: each one-shot due before its end comes at its end.
    _, one_shots = await _in_scope(context)
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
    """The repeating reminder "this one" means: the one replied to, else the last sent here.

    A snoozed copy of an occurrence is a one-shot job; it stands for the
    person's active repeating reminder with the same text.
    """
    last = await _reminder_meant(context)
    if last is None:
        raise BadArguments(
            "no reminder was sent in this conversation; give an id",
            ask=messages.ASK_WHICH_REMINDER,
        )
    if last.schedule_id is not None:
        return f"s{last.schedule_id}"
    schedules, _ = await _in_scope(context)
    same = [s for s in schedules if s.text == last.text and s.state != "ended"]
    if len(same) != 1:
        raise BadArguments(
            "the reminder last sent here does not repeat: nothing more will come",
            ask=messages.ASK_NOTHING_MORE,
        )
    return reminder_id(same[0])


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
            f"{named!r} is not a reminder id like 's12' or 'r40'", ask=messages.ASK_WHICH_REMINDER
        )
    _, number = parsed
    if any(isinstance(e, NewSchedule) and e.id == number for e in context.staged):
        raise BadArguments("that reminder is being set up in this turn; change it next turn")
    schedules, one_shots = await _in_scope(context)
    known = {reminder_id(s) for s in schedules} | {reminder_id(j) for j in one_shots}
    # A repeating one may be named by its short id (docs/reminders.md, "Ids").
    found = resolve_reminder_id(named, known)
    if len(found) > 1:
        raise BadArguments(
            f"several reminders end in {named!r}; give the whole id",
            ask=messages.ASK_SEVERAL_END_IN.format(id=named),
        )
    if not found:
        raise BadArguments(
            f"no reminder {named!r} still to come; list_reminders shows them",
            ask=messages.ASK_NO_SUCH_REMINDER.format(id=named),
        )
    return found[0]


def _future(text: str, context: ToolSession) -> datetime:
    at = instant(text, context)
    if at <= context.clock.now():
        raise BadArguments(
            f"{text!r} is {iso(at, context)}, which has already passed",
            ask=messages.ASK_TIME_PASSED.format(when=said(at, context)),
        )
    return at


REMINDER_HANDLERS: dict[str, Handler] = {
    "remind": _remind,
    "list_reminders": _list_reminders,
    "snooze": _snooze,
    "cancel_reminder": _cancel_reminder,
    "pause_reminders": _pause_reminders,
    "set_contact_window": set_contact_window,
}
