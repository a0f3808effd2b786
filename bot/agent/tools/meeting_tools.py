"""`find_meeting_time`: slots a group can meet in, from each member's zone and hours.

In a group thread the model calls it with the person's own words for when
("next week", "tomorrow afternoon", "la semana que viene"), a length, and
optionally who. clockcore reads the words (read whole or asked, as every time);
the members are the people who wrote in the thread (`wrapper.people.members`), the
speaker always among them; `clockcore.meetings.find_slots` ranks the slots
against each member's contact window on each date in their own zone. The
result shows every slot in each member's local time, ready to be proposed
as numbered options.

A member whose zone clockbot does not know is left out of the search and named;
if they have a direct conversation with clockbot, the tool stages one message
there asking for their city, never in the group (docs/meetings.md). With
slots for two members or more it stages the poll (`wrapper.meeting_polls`),
posted in the group after the agent's answer. Both go out with the turn's
commit, sent as written (kind ``reply``: no proactive turn rewrites them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, time, timedelta
from typing import Any

from bot.agent.tools.tool_session import (
    TEXT,
    BadArguments,
    Handler,
    NotAvailable,
    ToolSession,
    integer_arg,
    iso,
    object_schema,
    text_arg,
)
from bot.llm.types import ToolSpec
from clockcore import parse_anchored_time
from clockcore.geo.zones import get_zone
from clockcore.meetings import MeetingMember, Slot, find_slots
from wrapper.keys import split_user_key
from wrapper.meeting_polls import NewMeetingPoll, PollOption, new_poll_id
from wrapper.meetings import REPEATS, repeat_words
from wrapper.people.members import ThreadMember
from wrapper.turns.effects import Enqueue

__all__ = ["MEETING_HANDLERS", "MEETING_TOOLS", "as_quoted_name", "ask_for_zone"]

DEFAULT_MINUTES = 60
MAX_MINUTES = 8 * 60
DEFAULT_DAYS = 7
MAX_RANGE = timedelta(days=31)
ZONE_ASK_KEY = "zone-ask:"
"""The outbox key of the private question about a member's zone: ``zone-ask:<thread>:<day>``."""
POLL_OPEN = timedelta(hours=24)
"""A poll is decided when everyone answered, after this long, or when its first slot starts."""

MEETING_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "find_meeting_time",
        "In a group chat: find times when its members can all meet, from each one's "
        "timezone and contact hours. when is the person's own words for the range ('next "
        "week', 'tomorrow afternoon', 'la semana que viene'; default: the next 7 days); "
        "minutes the length (default 60); people the names or @handles asked for (default: "
        "everyone who has written here); repeat for a meeting that repeats ('every other "
        "Tuesday': the slots are its first time; it keeps its wall time in the asker's zone). "
        "The slots it returns, each in every member's local time, go to the group as a poll "
        "after your answer: introduce them briefly.",
        object_schema(
            {
                "when": TEXT,
                "minutes": {"type": "integer"},
                "people": {"type": "array", "items": TEXT},
                "nights": {"type": "boolean", "description": "Allow 00:00-06:00 local."},
                "repeat": {"type": "string", "enum": list(REPEATS)},
            }
        ),
    ),
)


async def _find_meeting_time(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    if context.group is None:
        raise NotAvailable(
            "find_meeting_time works in a group conversation, where clockbot knows who is in it"
        )
    minutes = integer_arg(arguments, "minutes", required=False) or DEFAULT_MINUTES
    if not 5 <= minutes <= MAX_MINUTES:
        raise BadArguments(f"minutes must be between 5 and {MAX_MINUTES}, not {minutes}")
    repeat = _repeat(arguments, context)
    start, end = _range(text_arg(arguments, "when", required=False), context)
    everyone = await context.wrapper.thread_members(context.group)
    members = _chosen(everyone, _people(arguments), context.envelope.user_key)
    search = find_slots(
        [MeetingMember(m.name, m.zone, m.window) for m in members],
        start=start, end=end, length=timedelta(minutes=minutes), now=context.clock.now(),
        allow_nights=arguments.get("nights") is True,
    )  # fmt: skip
    headline = context.session_tz if context.zone_known else None
    result: dict[str, Any] = {
        "members": [{"name": m.name, "zone": m.zone} for m in members if m.zone is not None],
        "from": iso(start, context),
        "to": iso(end, context),
        "minutes": minutes,
        "slots": [_shown(n, slot, headline) for n, slot in enumerate(search.slots, 1)],
        "everyone_inside": search.everyone_inside,
    }
    known = [m for m in members if m.zone is not None]
    if search.slots and len(known) >= 2 and context.can_send:
        poll = _poll(context, search.slots, known, minutes, headline, repeat)
        result["poll"] = {
            "id": poll.id,
            "note": "these slots go to the group as a poll after your answer (numbered where "
            "the platform has no polls): introduce them in a line, do not ask for votes in text",
        }
    missing = [m for m in members if m.zone is None]
    if missing:
        asked = [m.name for m in missing if ask_for_zone(context, m)]
        result["zone_unknown"] = [m.name for m in missing]
        result["asked_privately"] = asked
        result["note"] = (
            "left out: their timezone is not known. Never ask for it in the group; those in "
            "asked_privately got a direct message asking for their city; the others must "
            "write to you directly first"
        )
    elif not search.slots:
        result["note"] = (
            "no slot avoids 00:00-06:00 for everyone; say so, and offer a wider range or "
            "nights: true"
        )
    elif not search.everyone_inside:
        result["note"] = (
            "the members' contact hours never meet in this range: these are the least bad, "
            "outside_hours says whose hours each one leaves and by how many minutes"
        )
    return result


def _range(words: str | None, context: ToolSession) -> tuple[datetime, datetime]:
    """The search range the person's words name, read whole (default: the next 7 days)."""
    now = context.clock.now()
    if words is None:
        return now, now + timedelta(days=DEFAULT_DAYS)
    parsed = parse_anchored_time(words, context.session_tz, now, language=context.language)
    if parsed.needs_clarification or parsed.start_instant is None:
        raise BadArguments(
            parsed.clarification_question
            or f"{parsed.reason or 'cannot read a time'} in {words!r}: pass the person's own "
            "words for when ('next week', 'tomorrow afternoon'), or ask them"
        )
    start, end = parsed.start_instant, parsed.end_instant
    if end is None or end <= start:  # an instant ("in two weeks"): that day
        day = start.astimezone(get_zone(context.session_tz)).date()
        start = datetime.combine(day, time(0), get_zone(context.session_tz))
        end = datetime.combine(day + timedelta(days=1), time(0), get_zone(context.session_tz))
    if end <= now:
        raise BadArguments(f"{words!r} is over: ask the person which days they mean")
    if end - start > MAX_RANGE:
        raise BadArguments(f"{words!r} spans more than {MAX_RANGE.days} days: ask for fewer")
    return max(start, now), end


def _people(arguments: Mapping[str, Any]) -> list[str]:
    raw = arguments.get("people")
    if raw is None or raw == "":
        return []
    if isinstance(raw, str):
        raw = raw.replace(" and ", ",").split(",")
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise BadArguments("people must be a list of names")
    return [p for p in raw if p.strip()]


def _key(text: str) -> str:
    return text.strip().removeprefix("<").removesuffix(">").lstrip("@").strip().casefold()


def _matches(member: ThreadMember, asked: str) -> bool:
    key = _key(asked)
    name = member.name.casefold()
    user_id = split_user_key(member.user_key)[1].casefold()
    return key in (name, user_id) or (bool(key) and name.split()[0] == key)


def _chosen(
    everyone: Sequence[ThreadMember], asked: Sequence[str], speaker: str
) -> list[ThreadMember]:
    """The members asked for (the speaker always), else everyone; unknown names refused."""
    if not asked:
        chosen = list(everyone)
    else:
        chosen = [m for m in everyone if m.user_key == speaker]
        unknown = []
        for name in asked:
            found = [m for m in everyone if _matches(m, name)]
            if not found:
                unknown.append(name)
            chosen.extend(m for m in found if m not in chosen)
        if unknown:
            known = ", ".join(m.name for m in everyone) or "nobody yet"
            raise BadArguments(
                f"nobody called {', '.join(repr(n) for n in unknown)} has written in this "
                f"chat (known here: {known}); ask them to write here once, or leave them out"
            )
    names: dict[str, int] = {}
    unique = []
    for member in chosen:  # two people of one name stay two people
        names[member.name] = names.get(member.name, 0) + 1
        count = names[member.name]
        unique.append(member if count == 1 else replace(member, name=f"{member.name} ({count})"))
    return unique


def _shown(option: int, slot: Slot, headline: str | None) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "option": option,
        "when": slot.describe(headline),
        "start_utc": slot.start.isoformat().replace("+00:00", "Z"),
    }
    outside = {m.name: m.minutes_outside for m in slot.members if m.minutes_outside}
    if outside:
        shown["outside_hours"] = outside
    return shown


def _repeat(arguments: Mapping[str, Any], context: ToolSession) -> str | None:
    """The RRULE of a repeating meeting, or None; it needs the asker's zone to keep its time in."""
    words = text_arg(arguments, "repeat", required=False)
    if words is None:
        return None
    rule = REPEATS.get(words.strip().lower())
    if rule is None:
        raise BadArguments(f"repeat must be one of {', '.join(REPEATS)}, not {words!r}")
    if not context.zone_known:
        raise BadArguments(
            "a repeating meeting keeps its time in the asker's timezone, which is not known: "
            "ask them for their city first (in a direct message)"
        )
    return rule


def _poll(
    context: ToolSession,
    slots: Sequence[Slot],
    voters: Sequence[ThreadMember],
    minutes: int,
    headline: str | None,
    repeat: str | None,
) -> NewMeetingPoll:
    """Stage the poll of `slots` (one per turn: a second search replaces the first's)."""
    context.staged[:] = [e for e in context.staged if not isinstance(e, NewMeetingPoll)]
    message = context.message
    now = context.clock.now()
    how = f", {repeat_words(repeat)}" if repeat else ""
    poll = NewMeetingPoll(
        id=new_poll_id(), thread_key=context.envelope.thread_key, channel=message.channel,
        thread_id=message.thread_id, organiser=context.envelope.user_key, minutes=minutes,
        question=f"When can we meet? ({minutes} min{how})",
        options=tuple(PollOption(slot.start, slot.describe(headline)) for slot in slots),
        voters=tuple(m.user_key for m in voters),
        closes_at=min(now + POLL_OPEN, min(slot.start for slot in slots)),
        repeat=repeat, zone=context.session_tz if repeat else None,
    )  # fmt: skip
    context.stage(poll)
    return poll


_NAME_CHARS = 40


def as_quoted_name(name: str) -> str:
    """A display name the sender chose, as data inside quotes: one line, no quote marks or
    control characters, at most 40 characters (docs/SECURITY.md, the review of December
    2026, row 12): it is sent to someone else, who must not read it as our words."""
    kept = "".join(c if c.isprintable() and c not in '“”"<>' else " " for c in name)
    flat = " ".join(kept.split())
    return flat if len(flat) <= _NAME_CHARS else flat[: _NAME_CHARS - 1] + "…"


def ask_for_zone(context: ToolSession, member: ThreadMember) -> bool:
    """Stage a direct message asking `member` for their city; False: no direct thread known.

    At most one a day (UTC) per member, however many searches leave them out.
    """
    private = member.private
    if private is None or not context.can_send:
        return False
    speaker = context.envelope.speaker
    quoted = f"“{as_quoted_name(speaker)}”" if speaker else "Someone"
    who = "You are" if member.user_key == context.envelope.user_key else f"{quoted} is"
    text = (
        f"{who} looking for a time when everyone in a group chat can meet, and I do not "
        "know your timezone. Which city are you in? (Or set it yourself: "
        "clock: home tz Europe/Lisbon, with your own zone.)"
    )
    # One question a day: the key makes a second one, in this turn or a later one, a no-op.
    day = context.clock.now().date().isoformat()
    question = Enqueue(
        key=f"{ZONE_ASK_KEY}{private.thread_key}:{day}", kind="reply", channel=private.channel,
        thread_id=private.thread_id, thread_key=private.thread_key,
        user_key=private.user_key, user_id=private.user_id, text=text,
        due_at=context.clock.now(),
    )  # fmt: skip
    context.stage(question)
    return True


MEETING_HANDLERS: dict[str, Handler] = {"find_meeting_time": _find_meeting_time}
