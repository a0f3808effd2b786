"""The person's time as a tool reads it: their words first, a question where it cannot.

`instant` reads a time in the session's zone and asks rather than guess;
`person_instant` prefers the person's own words where a model lost part of
them; `person_question` is the reader's question as the person reads it.
Re-exported by `bot.agent.tools.tool_session`.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Protocol

from bot import messages
from bot.agent.tools.question_words import question_in
from bot.agent.tools.tool_errors import BadArguments, ZoneUnknown
from clockcore import (
    Clock,
    ContactWindow,
    ParseResult,
    TimeExpression,
    parse_anchored_time,
    to_iso,
)
from clockcore.geo.session import CITY_QUESTION, city_question
from clockcore.geo.zones import get_zone, zone_from_label
from clockcore.parsing.grammar import CLOCK_KINDS, DATE_KINDS

__all__ = ["TimeContext", "instant", "person_instant", "person_question"]


class TimeContext(Protocol):
    """What reading a time needs of a turn (`bot.agent.tools.tool_session.ToolSession` is one)."""

    @property
    def language(self) -> str | None: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def contact_window(self) -> ContactWindow: ...
    @property
    def session_tz(self) -> str: ...
    @property
    def zone_known(self) -> bool: ...
    @property
    def their_time(self) -> TimeExpression | None: ...
    @property
    def their_words(self) -> str | None: ...


_OWN_WORDS = (
    "If the person's message says when, pass those words exactly as they wrote them, with "
    "their 'at', 'um' or 'às'; if it does not, ask them."
)
"""Added to a time the tools would rather ask about (docs/eval.md, M46)."""


def person_question(parsed: ParseResult, zone: str, language: str | None = None) -> str:
    """The reader's question as the person reads it, in `language`: choices in local times, no ISO.

    docs/talking.md, "Words for the person"; docs/languages.md for the languages.
    """
    return question_in(parsed, zone, language, _english_question(parsed, zone))


def _english_question(parsed: ParseResult, zone: str) -> str:
    """The reader's question in English, a DST choice's instants said as local times."""
    question = parsed.question
    if question is None or question.kind not in _CLOCKS or len(parsed.candidates) != 2:
        return parsed.clarification_question or ""
    tz = zone_from_label(parsed.zone or zone)
    first, second = (c.astimezone(tz) for c in parsed.candidates)
    if (first.hour, first.minute) == (second.hour, second.minute):
        options = messages.ASK_DST_FOLD.format(first=f"{first:%H:%M}")
    else:
        options = messages.ASK_DST_GAP.format(first=f"{first:%H:%M}", second=f"{second:%H:%M}")
    return question.with_values(options=options).english


_CLOCKS = frozenset({"clocks_skip", "clocks_back"})
"""The questions whose options are instants the clocks skip or pass twice."""


def _clock_choices(parsed: ParseResult, zone: str) -> tuple[str, ...]:
    """The two instants a question offers, as ISO text, in its order.

    A DST question (`person_question`), "which Friday?" or a small-hours "today or
    tomorrow?": the answer picks one, and the time first asked for goes with it
    (docs/talking.md, "Questions it asked").
    """
    if len(parsed.candidates) != 2 or not parsed.clarification_question:
        return ()
    tz = parsed.zone or zone
    return tuple(to_iso(c, tz) for c in parsed.candidates)


def instant(
    text: str,
    context: TimeContext,
    *,
    day_at_window: bool = False,
    day_keeps: time | None = None,
) -> datetime:
    """The instant `text` names in the session's zone; asks rather than guess.

    `day_at_window`: a whole day named without a time of day ("tomorrow",
    "on 1 April") is that day at the start of the person's contact window, not
    its midnight (for a reminder; docs/reminders.md). `day_keeps`: such a day
    at this local time instead (a reminder moved to "Friday" keeps its 16:00). A
    part of the day without a clock time ("tomorrow morning") is its hour moved
    into that window (docs/time-rules.md, "Parts of the day").

    While the person's zone is unknown, only a duration ("in 2 hours") or a
    time that names its own zone is read: "9am" would be 9am in the agent's
    zone, a confident time the person never meant (docs/eval.md, M47).
    """
    parsed = parse_anchored_time(
        text,
        context.session_tz,
        context.clock.now(),
        language=context.language,
        window=context.contact_window,
    )
    if (
        not context.zone_known
        and parsed.start_instant is not None
        and parsed.kind != "relative"
        and parsed.zone_source != "text"
    ):
        raise ZoneUnknown(
            f"the person's timezone is not known, so {text!r} could be any of 24 instants. "
            f'Ask them "{CITY_QUESTION}"; with their answer, call set_timezone, then this',
            ask=city_question(context.language),
        )
    if parsed.needs_clarification or parsed.start_instant is None:
        if parsed.clarification_question:  # what to do next, not only what went wrong
            raise BadArguments(
                f"{parsed.clarification_question} {_OWN_WORDS}",
                ask=person_question(parsed, context.session_tz, context.language),
                choices=_clock_choices(parsed, context.session_tz),
            )
        reason = parsed.reason or "cannot read a time"
        raise BadArguments(
            f"{reason} in {text!r}; pass the time in the "
            "person's own words ('in 2 hours', 'tomorrow at 9am'), or ask them",
            ask=messages.ASK_UNREADABLE_TIME.in_(context.language, text=text),
        )
    if day_keeps is not None and parsed.end_instant is not None:
        day = _whole_day(parsed.start_instant, parsed.end_instant, context)
        if day is not None:
            zone = get_zone(context.session_tz)
            at = datetime.combine(day, day_keeps, tzinfo=zone)
            return at.astimezone(parsed.start_instant.tzinfo)
    if day_at_window and parsed.end_instant is not None:
        return _window_start(text, parsed.start_instant, parsed.end_instant, context)
    return parsed.start_instant


def _whole_day(start: datetime, end: datetime, context: TimeContext) -> date | None:
    """The local day [start, end) is, when it names days rather than a time of day."""
    local = start.astimezone(get_zone(context.session_tz))
    if local.time() != time(0) or end - start < timedelta(hours=23):
        return None
    return local.date()


def _window_start(text: str, start: datetime, end: datetime, context: TimeContext) -> datetime:
    """`start`, or its day at the contact window's start when `text` names days, not a time.

    A whole-day contact window (start == end) has no such start: 09:00 then.
    """
    day = _whole_day(start, end, context)
    if day is None:
        return start
    zone = get_zone(context.session_tz)
    window = context.contact_window
    at_time = window.start if window.start != window.end else time(9)
    at = datetime.combine(day, at_time, tzinfo=zone).astimezone(start.tzinfo)
    if at <= context.clock.now() < end:
        raise BadArguments(
            f"{text!r} names a day that has begun, without a time of day: ask the person "
            "what time, then pass their words",
            ask=messages.ASK_DAY_BEGUN.in_(context.language, text=text),
        )
    return at


def person_instant(when: str | None, context: TimeContext) -> tuple[datetime, str | None]:
    """The instant `when` names, or the person's own words' where the model lost part of them.

    Models lose part of a time on the way (docs/eval.md, M48). The person's words win
    where their message names one time read whole
    (`TimeContext.their_time`) and: `when` cannot be read (or was not given);
    or `when` is a part of that expression and reads to another instant; or
    the expression is complete in itself (`_complete`: it names its day, or
    is a duration from now) and `when` reads to another instant. Any other
    `when` is read as it is: a follow-up ("no, at 10") names a time the model
    may rightly complete from earlier messages, as does a `when` that holds the
    person's day whole and adds its time of day.

    Returns:
        The instant and the person's words it was read from (None for `when`'s own).

    Raises:
        BadArguments: neither reads; the error is `when`'s.
    """
    theirs, words = context.their_time, context.their_words or ""
    if when is None:
        if theirs is None:
            raise BadArguments("give when: the person's own words for the time")
        return instant(words, context, day_at_window=True), theirs.text
    try:
        at = instant(when, context, day_at_window=True)
    except BadArguments as unread:
        if theirs is None:
            raise
        try:
            return instant(words, context, day_at_window=True), theirs.text
        except BadArguments:
            raise unread from None
    if theirs is not None and _part_of(theirs.text, when) and not set(theirs.parts) & CLOCK_KINDS:
        # Their day, with the time said earlier: "5 September" answering "Does 9/5 mean
        # 9 May or 5 September?" of "9/5 at 10" (docs/talking.md).
        return at, None
    if theirs is not None and (_part_of(when, theirs.text) or _complete(theirs)):
        try:
            mine = instant(words, context, day_at_window=True)
        except BadArguments:
            return at, None
        if mine != at and not _same_day_later(theirs, mine, at, context.session_tz):
            return mine, theirs.text
    return at, None


def _same_day_later(theirs: TimeExpression, mine: datetime, at: datetime, zone: str) -> bool:
    """Whether `at` is on the day the person's words name, and those words name no time.

    "the 11th" answering "which Friday? Fri Dec 4 15:00 or Fri Dec 11 15:00": their day
    at the time first asked for, not at the start of their day (docs/talking.md).
    """
    if "relative" in theirs.parts or set(theirs.parts) & CLOCK_KINDS:
        return False  # "in 2 hours" names its own instant
    tz = get_zone(zone)
    return mine.astimezone(tz).date() == at.astimezone(tz).date()


def _complete(expression: TimeExpression) -> bool:
    """Whether `expression` names its own instant, not a time of day alone.

    A day ("on Wednesday at noon", "tomorrow at 9") or a duration ("in 2 hours"),
    known from the grammar's parts (English); what Duckling found is not taken.
    """
    return any(part in DATE_KINDS or part == "relative" for part in expression.parts)


def _part_of(when: str, expression: str) -> bool:
    """Whether `when` is a shorter piece of `expression`, case and spacing aside."""
    short, whole = " ".join(when.casefold().split()), " ".join(expression.casefold().split())
    return short != whole and short in whole
