"""The ``remind`` tool: every reminder, one-shot or repeating, from the person's own words.

One tool sets every reminder: it takes the person's own words for when, and
clockcore reads them (docs/reminders.md). A model given three overlapping
ways to set a reminder picked a repeating rule for a one-shot request and
computed ISO times itself (docs/eval.md), so there is one way, and no ISO
arithmetic is asked of the model. Its definition is in `bot.agent.tools.reminder_tools`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from bot import messages
from bot.agent.tools.question_words import said_in
from bot.agent.tools.tool_session import (
    BadArguments,
    ToolSession,
    iso,
    memory_content,
    person_instant,
    required_text,
    said,
    sending,
    text_arg,
)
from bot.llm.reminder_words import asks_to_keep_in_mind
from clockcore import RecurrenceResult, parse_recurrence, runtime_time_context
from clockcore.geo.zones import get_zone
from clockcore.recurrence import occurrences
from wrapper.outbound.outbox import OutboxItem
from wrapper.outbound.reminder_ids import reminder_id, resolve_reminder_id
from wrapper.outbound.reminders import RuleChange
from wrapper.outbound.schedules import (
    MISSED_RUNS,
    MissedRuns,
    NewSchedule,
    Schedule,
    new_schedule_id,
)
from wrapper.turns.effects import Enqueue

__all__ = ["in_scope", "remind", "this_reminder"]

log = logging.getLogger(__name__)


async def in_scope(context: ToolSession) -> tuple[list[Schedule], list[OutboxItem]]:
    """The person's repeating and one-shot reminders to come; in a group, that group's only."""
    schedules, one_shots = await context.wrapper.reminders.reminders(context.envelope.user_key)
    if context.group is None:
        return list(schedules), list(one_shots)
    return (
        [s for s in schedules if s.thread_key == context.group],
        [j for j in one_shots if j.thread_key == context.group],
    )


async def remind(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    if text_arg(arguments, "id", required=False) is not None:
        return await _change(arguments, context)
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
    schedules, one_shots = await in_scope(context)
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
    repeat is set whatever the model passed (docs/eval.md, M29). Otherwise a model splits a
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
            # What the person wrote settles it (docs/eval.md, M30): their one time,
            # read whole, is set once; else the model is told to drop `every`.
            if theirs is not None:
                return None
            problem += (
                " The person's message asks for no repeat: for a one-time reminder, call "
                "remind again without every."
            )
        raise BadArguments(problem, ask=_asked(rule, context) or _not_a_repeat(phrase, context))
    return rule


def _asked(rule: RecurrenceResult, context: ToolSession) -> str | None:
    """The repeat's question as the person reads it, in their language."""
    if rule.question is not None and (words := said_in(rule.question, context.language)):
        return words
    return rule.clarification_question


def _not_a_repeat(phrase: str, context: ToolSession) -> str:
    return messages.ASK_NOT_A_REPEAT.in_(context.language, phrase=phrase)


def _repeating(
    text: str, rule: RecurrenceResult, missed: object, context: ToolSession
) -> dict[str, Any]:
    if missed not in MISSED_RUNS:
        raise BadArguments(f"missed must be one of {list(MISSED_RUNS)}, not {missed!r}")
    runs = cast("MissedRuns", missed)
    if rule.rrule is None or rule.dtstart is None:
        raise BadArguments(
            rule.clarification_question or "say the repeat like 'every Monday at 9am'",
            ask=_asked(rule, context) or _not_a_repeat(text, context),
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

    The same call again would be a reminder of its own (docs/eval.md, M31).
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
    the note due then, and nothing is sent (docs/eval.md, M32). The model is told to
    ask whether they want one.
    """
    at, theirs = person_instant(when, context)
    if at <= context.clock.now():
        raise BadArguments(
            f"{theirs or when!r} is {iso(at, context)}, which has already passed",
            ask=messages.ASK_TIME_PASSED.in_(context.language, when=said(at, context)),
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
        # Not said to the model (docs/eval.md, M33); `said` is true.
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


async def this_reminder(context: ToolSession) -> OutboxItem | None:
    """The reminder a message means without an id: the one it replies to, else the last sent."""
    envelope = context.envelope
    ref = envelope.message
    reply_to = ref.reply_to if ref is not None else None
    return await context.wrapper.reminders.meant(envelope.thread_key, envelope.channel, reply_to)


_ANCHOR_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


async def _change(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    """``remind`` with an id: that reminder gets the new repeat in place (issue 61).

    The same id, so the same calendar event; a one-shot one becomes repeating and
    keeps its ``r<id>``. What the words do not name is kept: "every other week"
    alone keeps the reminder's weekday, time of day and text, and counts its weeks
    from it (docs/reminders.md, "Changing a reminder").
    """
    named = str(arguments["id"]).strip()
    target, text, anchor = await _changed(named, context)
    text = text_arg(arguments, "text", required=False) or text
    when = text_arg(arguments, "when", required=False)
    every = text_arg(arguments, "every", required=False)
    if every is None and when is None:
        raise BadArguments("give every: the new repeat as the person said it ('every other week')")
    sending(context, "remind")
    rule, anchored = _completed(when, every, anchor, context)
    if rule is None or rule.rrule is None or rule.dtstart is None:
        raise BadArguments(
            "that is one time, not a repeat: to move a reminder, use snooze with its id",
            ask=_not_a_repeat(" ".join(p for p in (every, when) if p), context),
        )
    missed = arguments.get("missed", "one")
    if missed not in MISSED_RUNS:
        raise BadArguments(f"missed must be one of {list(MISSED_RUNS)}, not {missed!r}")
    envelope, message = context.envelope, context.message
    start = anchored or rule.dtstart
    new = NewSchedule(
        id=new_schedule_id(), user_key=envelope.user_key, thread_key=envelope.thread_key,
        channel=message.channel, thread_id=message.thread_id, user_id=message.user_id,
        text=text, rrule=rule.rrule, dtstart=start, zone=rule.zone,
        origin_tz=context.session_tz, elapsed=rule.elapsed, missed=cast("MissedRuns", missed),
    )  # fmt: skip
    context.stage(RuleChange(envelope.user_key, target, new))
    zone = rule.zone or context.session_tz
    nexts = occurrences_after(new, zone, context.clock.now())
    return {
        "id": target, "changed": True, "text": text, "repeats": True, "rule": rule.rrule,
        "next": [iso(at, context) for at in nexts], "said": [said(at, context) for at in nexts],
    }  # fmt: skip


def occurrences_after(new: NewSchedule, zone: str, now: datetime) -> list[datetime]:
    """The first three times `new` comes after `now`."""
    return occurrences(new.rrule, new.dtstart, "UTC" if new.elapsed else zone, after=now, count=3)


async def _changed(named: str, context: ToolSession) -> tuple[str, str, datetime | None]:
    """(the reminder's id, its text, its time) for `named`: an id, or "this" (the one the
    message replies to, else the last sent here)."""
    schedules, one_shots = await in_scope(context)
    if named.lower() in ("this", "it", "last"):
        sent = await this_reminder(context)
        if sent is None:
            raise BadArguments(
                "no reminder was sent in this conversation; give an id",
                ask=messages.ASK_WHICH_REMINDER.in_(context.language),
            )
        if sent.schedule_id is not None:
            named = f"s{sent.schedule_id}"
        else:
            return reminder_id(sent), sent.text, sent.occurs_at or sent.due_at
    known = {reminder_id(s): s for s in schedules}
    found = resolve_reminder_id(named, {*known, *(reminder_id(j) for j in one_shots)})
    if len(found) != 1:
        raise BadArguments(
            f"no reminder {named!r} still to come; list_reminders shows them",
            ask=messages.ASK_NO_SUCH_REMINDER.in_(context.language, id=named),
        )
    if (schedule := known.get(found[0])) is not None:
        return found[0], schedule.text, schedule.next_at
    job = next(j for j in one_shots if reminder_id(j) == found[0])
    return found[0], job.text, job.due_at


def _completed(
    when: str | None, every: str | None, anchor: datetime | None, context: ToolSession
) -> tuple[RecurrenceResult | None, datetime | None]:
    """The new rule, completed from the reminder's own time where the words leave it open;
    and, so completed, the reminder's wall time to count from (else None)."""
    now = context.clock.now()
    phrase = " ".join(p for p in (every, when) if p)

    def read(words: str) -> RecurrenceResult:
        return parse_recurrence(words, context.session_tz, now, language=context.language)

    rule = read(phrase)
    if rule.kind != "recurring" and every is not None and not every.lower().startswith("every"):
        rule = read(f"every {phrase}")
    if rule.kind != "recurring":
        return None, None
    if rule.rrule is not None or anchor is None:
        return rule, None
    local = anchor.astimezone(get_zone(context.session_tz))
    at = f"{local:%H:%M}"
    timed = read(f"{phrase} at {at}")
    if timed.rrule is not None and "FREQ=WEEKLY" in timed.rrule and "BYDAY" not in timed.rrule:
        timed = read(f"{phrase} on {_ANCHOR_DAYS[local.weekday()]} at {at}")
    if timed.rrule is None:
        return timed, None
    return timed, local.replace(tzinfo=None, second=0, microsecond=0)
