"""The context envelope and its runtime block: live time facts for one agent turn.

The wrapper fills a `ContextEnvelope` for each inbound message; the agent puts
``envelope.render()`` at the top of the newest user message (never in the
system prompt, which stays byte-stable). The block holds facts, never
instructions, and leaves out every line that carries nothing, so the block for
a plain first message is three or four lines long.

``render()`` is a pure function of the envelope's fields: the same envelope
always gives the same bytes. It never reads the clock or the host's zone; every
"ago" is measured from ``now``.

Shape (lines in this order; each one only when its rule below says so)::

    [Runtime time context: facts, not instructions]
    - Current time: 2026-04-29 08:34:12 America/Los_Angeles (UTC-07:00)
    - User timezone: America/Los_Angeles
    - Session timezone: Asia/Tokyo (from this message)
    - Time in Kathmandu: 2026-04-29 21:19 Asia/Kathmandu (UTC+05:45)
    - Session started: 2026-04-29 08:00:02 America/Los_Angeles
    - Last message in this thread: 10 h 24 min ago (Tuesday 2026-04-28 22:09)
    - Last message on any channel: 5 min ago (slack)
    - Thread kind: project
    - Contact window 08:00–23:00: inside
    - Check-in due: project_gap_1d (ask for updates before continuing)
    - Open action: "gym" (clocked 3 h ago; any reference must be hedged)
    - [OVERDUE 2026-04-28 09:00] call the bank
    - [DUE 2026-04-30 09:00] dentist
    - Notice: ...
    - Duplicate delivery: this message was already handled
    [/Runtime time context]

The block has no trailing newline.

Rules:

- **Current time**, always: ``now`` in the session zone, to the second, with
  the zone's UTC offset at that instant as ``(UTC±HH:MM)``. Fractional offsets
  are exact (``UTC+05:45``, ``UTC+13:45``, ``UTC-03:30``); a zero offset is
  written ``(UTC+00:00)``, also for the zone ``UTC`` itself.
- **Speaker**, in a group thread only: who wrote the message (``speaker``).
- **User timezone**, always: the user's zone. Unknown, with the session in UTC
  by default: ``not known; times are in UTC``. Unknown otherwise: ``not known``.
- **Session timezone**, when the session zone differs from the user's zone (or
  the user's zone is unknown and the session is not the UTC default), with
  where it came from: ``from this message``, ``set for this thread``,
  ``the user's default``, ``from a place they mentioned``, ``default``.
- **Time in <place>**, one line per zone the message names (``other_zones``:
  "what time is it in Kathmandu?", "9am Tokyo time") that is not the session
  zone: the wall time there now, to the minute, with the zone and its offset.
  The model reads the time there instead of converting it.
- **Session started**, when ``session_started_at`` is before ``now``; in the
  session zone, to the second. Its UTC offset is added only when it differs
  from the current one (a DST change happened since).
- **Last message in this thread**: ``elapsed_since_last_user_message``, else
  ``elapsed_since_last_interaction``; left out when both are None (a first
  message). When that was on an earlier day in the session zone, its weekday
  and wall time follow (``2 d 3 h ago (Monday 2026-03-09 10:00)``): "which day
  did I last write?" is read, not worked out backwards.
- **Last message on any channel**: only when that elapsed is smaller than
  every known thread elapsed (or there is none): the person talked elsewhere
  since. The channel is named in parentheses when known.
- **Thread kind**: only when it is not ``conversation``.
- **Contact window**, from ``contact``: ``inside``, or ``outside (it is HH:MM
  there)``. When the window's zone is not the user zone shown above, it is
  named after the window (``Contact window 08:00–23:00 UTC: ...``); when the
  user's zone is unknown, the local time reads ``(it is HH:MM UTC)``. A window
  covering the whole day (start == end) is left out: it says nothing.
- **Check-in due**, when ``ask_for_updates`` or ``offer_recap``: the fired rule
  ids (``triggered_rules``, comma-separated) and what the policy asks for:
  ``ask for updates before continuing`` and/or ``offer a recap``.
- **Open action**, one line per action that is still open: status
  ``planned``, ``in_progress`` or ``likely_done`` and ``expires_at`` after
  ``now`` (the others are left out: an expired action never counts as open).
  The label is quoted, then in parentheses: ``clocked <elapsed> ago``;
  ``in progress`` / ``likely done`` (``planned`` says nothing);
  ``in another thread`` when its thread key is not this thread's; the
  expected duration when known (``usually ~1 h 30 min``, ``up to ~3 h``); and
  ``any reference must be hedged`` only when ``allow_hedged_reference``.
  Actions keep the order they were given in.
- **Upcoming items**, one line each: `due_label` in the session zone, then the
  content. Overdue items first, then the rest; each group by ``due_at``, then
  id. An item reminded before (``reminded_at`` set) says ``(reminded <elapsed>
  ago)`` before its content.
- **Notice**: one line per notice, in order.
- **Duplicate delivery**: only when ``duplicate``.

When ``temporal_awareness`` is False the policy decided that elapsed time does
not matter for this prompt, so the block keeps only Current time, User and
Session timezone, Time in <place>, Contact window, upcoming items, notices and the duplicate
line: no Session started, elapsed, thread kind, check-in or open-action lines.
Reminders and zone anchoring still matter then.

Text that comes from people (action labels, memory content, notices, rule ids,
channel names) cannot break the block: control and format characters are
removed, every run of whitespace (newlines included) becomes one space, any
``[Runtime time context`` / ``[/Runtime time context`` text (any case or
spacing, ASCII or fullwidth bracket) has its bracket turned into ``(``, labels
and content are cut to 200 characters (ending in ``…``), and labels are quoted
with ``\\`` and ``"`` escaped.

`format_elapsed` writes a duration as at most two units, truncated (never
rounded up): ``just now`` (under 1 s, and negative durations from clock skew),
``45 s``, ``3 min``, ``10 h 24 min``, ``2 d 3 h``, ``40 d``, ``1 y 12 d``. The
smaller unit is left out when it is zero (``1 h``, ``1 d``); a year is 365
days. Seconds only appear under one minute.

``to_dict()`` is JSON-ready: instants are ISO-8601 in the session zone,
durations are ``{"seconds": <int, truncated toward zero>, "text":
format_elapsed(...)}``, tuples become lists, and text is kept as given (not
sanitised: JSON escaping is its own protection).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from clockcore.actions import OPEN_STATUSES, ActionSource, ActionStatus
from clockcore.clock import as_utc
from clockcore.geo.session import ZoneSource
from clockcore.geo.zones import canonical_zone, get_zone, offset_minutes, to_iso
from clockcore.message import MessageRef
from clockcore.policy import ThreadKind
from clockcore.window import ToolRuntimeTimeContext

__all__ = [
    "RUNTIME_BLOCK_END",
    "RUNTIME_BLOCK_START",
    "ContextEnvelope",
    "NamedZone",
    "OpenAction",
    "UpcomingItem",
    "due_label",
    "format_elapsed",
    "render_block",
]


RUNTIME_BLOCK_START = "[Runtime time context: facts, not instructions]"
RUNTIME_BLOCK_END = "[/Runtime time context]"

_MAX_TEXT = 200
_MAX_NAME = 60
_MINUTE = 60
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
_YEAR = 365 * _DAY

_SOURCE_WORDS: dict[ZoneSource, str] = {
    "message": "from this message",
    "thread": "set for this thread",
    "user": "the user's default",
    "location": "from a place they mentioned",
    "default": "default",
}
_STATUS_WORDS: dict[ActionStatus, str] = {
    "in_progress": "in progress",
    "likely_done": "likely done",
}
_MARKER = re.compile(r"[\[［](\s*/?\s*runtime[\s_-]*time[\s_-]*context)", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")


# --------------------------------------------------------------------------- formatting


def format_elapsed(delta: timedelta) -> str:
    """A duration as at most two units, truncated: ``10 h 24 min``, ``40 d``.

    Under one second, and any negative duration (clock skew), is ``just now``;
    seconds only appear under a minute; a year counts as 365 days.

    Args:
        delta: the duration.

    Returns:
        ``just now``, ``N s``, ``N min``, ``N h [M min]``, ``N d [M h]`` or
        ``N y [M d]``.
    """
    total = delta.days * _DAY + delta.seconds  # floor of the exact seconds
    if total < 1:
        return "just now"
    if total < _MINUTE:
        return f"{total} s"
    if total < _HOUR:
        return f"{total // _MINUTE} min"
    if total < _DAY:
        return _two_units(total, _HOUR, "h", _MINUTE, "min")
    if total < _YEAR:
        return _two_units(total, _DAY, "d", _HOUR, "h")
    return _two_units(total, _YEAR, "y", _DAY, "d")


def _two_units(total: int, big: int, big_name: str, small: int, small_name: str) -> str:
    major, rest = divmod(total, big)
    minor = rest // small
    return f"{major} {big_name} {minor} {small_name}" if minor else f"{major} {big_name}"


_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""English whatever the host's locale: the block's bytes never depend on the host."""


def _ago(delta: timedelta) -> str:
    text = format_elapsed(delta)
    return text if text == "just now" else f"{text} ago"


def _local(instant: datetime, tz: str) -> datetime:
    return as_utc(instant).astimezone(get_zone(tz))


def _wall(local: datetime, *, seconds: bool = True) -> str:
    text = f"{local.year:04d}-{local.month:02d}-{local.day:02d} {local.hour:02d}:{local.minute:02d}"
    return f"{text}:{local.second:02d}" if seconds else text


def _offset_label(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{mins:02d}"


def due_label(item: UpcomingItem, tz: str) -> str:
    """``[DUE 2026-04-30 09:00]`` or ``[OVERDUE 2026-04-28 09:00]``, in zone `tz`.

    Overdue is the item's own ``overdue`` flag (set when the envelope was built).

    Raises:
        UnknownTimezoneError: `tz` is not an IANA id.
    """
    word = "OVERDUE" if item.overdue else "DUE"
    return f"[{word} {_wall(_local(item.due_at, tz), seconds=False)}]"


def _one_line(text: str, limit: int | None = None) -> str:
    """Text from people, made safe for one line of the block (see the module docstring)."""
    kept = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
        if unicodedata.category(ch) != "Cf"
    )
    flat = _WHITESPACE.sub(" ", kept).strip()
    flat = _MARKER.sub(r"(\1", flat)
    if limit is not None and len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return flat


def _quoted(text: str) -> str:
    escaped = _one_line(text, _MAX_TEXT).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _same_zone(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a is b
    return (canonical_zone(a) or a) == (canonical_zone(b) or b)


def _duration_dict(delta: timedelta | None) -> dict[str, object] | None:
    if delta is None:
        return None
    return {"seconds": int(delta.total_seconds()), "text": format_elapsed(delta)}


def _iso(instant: datetime | None, tz: str) -> str | None:
    return None if instant is None else to_iso(instant, tz)


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class NamedZone:
    """A zone the message names that is not the session's: `name` as written, `zone` its id."""

    name: str
    zone: str

    def __post_init__(self) -> None:
        get_zone(self.zone)


@dataclass(frozen=True, slots=True)
class OpenAction:
    """A clocked action the envelope may mention (docs/clock-spec.md §6).

    Attributes:
        id: the action's id (``act_9f3c``).
        label: the normalised short label, as the user's words summarised.
        status: its status; only ``planned``, ``in_progress`` and
            ``likely_done`` are rendered.
        recorded_at: when it was clocked, aware.
        expires_at: when it stops counting, aware.
        thread_key: the thread it was clocked in.
        source: how it was stored.
        expected_typical_minutes: a typical duration, when known.
        expected_max_minutes: a maximal duration, when known.

    Raises:
        NaiveDatetimeError: an instant is naive.
    """

    id: str
    label: str
    status: ActionStatus
    recorded_at: datetime
    expires_at: datetime
    thread_key: str
    source: ActionSource
    expected_typical_minutes: int | None = None
    expected_max_minutes: int | None = None

    def __post_init__(self) -> None:
        as_utc(self.recorded_at)
        as_utc(self.expires_at)

    def is_open(self, now: datetime) -> bool:
        """Still open at `now`: an open status and not yet expired."""
        return self.status in OPEN_STATUSES and as_utc(self.expires_at) > as_utc(now)

    def to_dict(self, tz: str) -> dict[str, object]:
        """JSON-ready, instants ISO-8601 in zone `tz`."""
        return {
            "id": self.id,
            "label": self.label,
            "status": self.status,
            "recorded_at": to_iso(self.recorded_at, tz),
            "expires_at": to_iso(self.expires_at, tz),
            "thread_key": self.thread_key,
            "source": self.source,
            "expected_typical_minutes": self.expected_typical_minutes,
            "expected_max_minutes": self.expected_max_minutes,
        }


@dataclass(frozen=True, slots=True)
class UpcomingItem:
    """A reminder to come, or a note due soon or overdue (docs/reminders.md, "What is due").

    Attributes:
        id: a reminder's id (``"r12"`` one-shot, ``"s5"`` repeating), or a note's
            memory item id.
        content: what it says, as stored.
        due_at: when it is due, aware.
        overdue: ``due_at <= now`` when the envelope was built.
        reminded_at: when the agent last surfaced it, if ever.

    Raises:
        NaiveDatetimeError: an instant is naive.
    """

    id: int | str
    content: str
    due_at: datetime
    overdue: bool
    reminded_at: datetime | None = None

    def __post_init__(self) -> None:
        as_utc(self.due_at)
        if self.reminded_at is not None:
            as_utc(self.reminded_at)

    def to_dict(self, tz: str) -> dict[str, object]:
        """JSON-ready, instants ISO-8601 in zone `tz`, with its `due_label`."""
        return {
            "id": self.id,
            "content": self.content,
            "due_at": to_iso(self.due_at, tz),
            "overdue": self.overdue,
            "reminded_at": _iso(self.reminded_at, tz),
            "label": due_label(self, tz),
        }


# --------------------------------------------------------------------------- envelope


def render_block(lines: Iterable[str]) -> str:
    """A runtime block of `lines` (one fact each, each already one line), fenced as facts."""
    body = (f"- {line}" for line in lines)
    return "\n".join([RUNTIME_BLOCK_START, *body, RUNTIME_BLOCK_END])


@dataclass(frozen=True, slots=True)
class ContextEnvelope:
    """The live time facts for one inbound message (docs/clock-spec.md §5).

    The fields up to ``duplicate`` are the contract the agent and tests rely on; the three after it
    feed `render`.

    Attributes:
        session_started_at: the first interaction of the current session;
            None (or ``now``) when this message starts it.
        elapsed_since_last_user_message: since this user's previous message in
            this thread ("since they last spoke"); None when there was none.
        any_channel_last_channel: the channel the any-channel stamp came from,
            when known.
        message: the message this envelope is for, when the wrapper was
            given one (`InteractionWrapper.receive`).
        speaker: in a group thread, who wrote the message (their platform
            name, else their channel and id), rendered as the ``Speaker`` line;
            None in a private thread.
        other_zones: zones the message names other than the session's
            ("what time is it in Kathmandu?"), rendered as ``Time in`` lines.

    Raises:
        NaiveDatetimeError: an instant is naive.
        UnknownTimezoneError: a zone is not an IANA id.
    """

    thread_key: str
    user_key: str
    channel: str
    now: datetime
    session_tz: str
    session_tz_source: ZoneSource
    user_tz: str | None
    agent_tz: str
    delta_hours: float
    thread_kind: ThreadKind
    elapsed_since_last_interaction: timedelta | None
    elapsed_since_last_interaction_any_channel: timedelta | None
    temporal_awareness: bool
    triggered_rules: tuple[str, ...]
    ask_for_updates: bool
    offer_recap: bool
    allow_hedged_reference: bool
    open_actions: tuple[OpenAction, ...]
    upcoming: tuple[UpcomingItem, ...]
    contact: ToolRuntimeTimeContext
    notices: tuple[str, ...]
    duplicate: bool = False
    session_started_at: datetime | None = None
    elapsed_since_last_user_message: timedelta | None = None
    any_channel_last_channel: str | None = None
    message: MessageRef | None = None
    speaker: str | None = None
    other_zones: tuple[NamedZone, ...] = ()

    def __post_init__(self) -> None:
        as_utc(self.now)
        if self.session_started_at is not None:
            as_utc(self.session_started_at)
        get_zone(self.session_tz)
        get_zone(self.agent_tz)
        if self.user_tz is not None:
            get_zone(self.user_tz)

    # ------------------------------------------------------------------ render

    def render(self, *, ids: bool = False) -> str:
        """The runtime block (rules in the module docstring); no trailing newline.

        Args:
            ids: end each open action and upcoming item with its id, for an agent
                that marks items reminded or updates actions through tools.
        """
        return render_block(self._lines(ids))

    def _lines(self, ids: bool) -> Iterator[str]:
        now_local = _local(self.now, self.session_tz)
        now_offset = offset_minutes(self.session_tz, self.now)
        zone = _one_line(self.session_tz)
        yield f"Current time: {_wall(now_local)} {zone} ({_offset_label(now_offset)})"
        if self.speaker:
            yield f"Speaker: {_one_line(self.speaker)}"
        yield from self._zone_lines()
        for named in self.other_zones:
            there = _local(self.now, named.zone)
            offset = _offset_label(offset_minutes(named.zone, self.now))
            yield (
                f"Time in {_one_line(named.name, _MAX_NAME)}: "
                f"{_wall(there, seconds=False)} {_one_line(named.zone)} ({offset})"
            )
        if self.temporal_awareness:
            yield from self._session_lines(now_offset)
        yield from self._contact_lines()
        if self.temporal_awareness:
            yield from self._checkin_lines()
            yield from self._action_lines(ids)
        yield from self._upcoming_lines(ids)
        for notice in self.notices:
            yield f"Notice: {_one_line(notice)}"
        if self.duplicate:
            yield "Duplicate delivery: this message was already handled"

    def _zone_lines(self) -> Iterator[str]:
        session = _one_line(self.session_tz)
        if self.user_tz is None:
            if self.session_tz_source == "default" and _same_zone(self.session_tz, "UTC"):
                yield "User timezone: not known; times are in UTC"
                return
            yield "User timezone: not known"
        else:
            yield f"User timezone: {_one_line(self.user_tz)}"
            if _same_zone(self.session_tz, self.user_tz):
                return
        yield f"Session timezone: {session} ({_SOURCE_WORDS[self.session_tz_source]})"

    def _session_lines(self, now_offset: int) -> Iterator[str]:
        started = self.session_started_at
        if started is not None and as_utc(started) < as_utc(self.now):
            local = _local(started, self.session_tz)
            line = f"Session started: {_wall(local)} {_one_line(self.session_tz)}"
            offset = offset_minutes(self.session_tz, started)
            if offset != now_offset:
                line += f" ({_offset_label(offset)})"
            yield line
        thread = (
            self.elapsed_since_last_user_message
            if self.elapsed_since_last_user_message is not None
            else self.elapsed_since_last_interaction
        )
        if thread is not None:
            line = f"Last message in this thread: {_ago(thread)}"
            then = _local(as_utc(self.now) - thread, self.session_tz)
            if then.date() != _local(self.now, self.session_tz).date():
                line += f" ({_WEEKDAYS[then.weekday()]} {_wall(then, seconds=False)})"
            yield line
        anywhere = self.elapsed_since_last_interaction_any_channel
        known = [
            d
            for d in (self.elapsed_since_last_user_message, self.elapsed_since_last_interaction)
            if d is not None
        ]
        if anywhere is not None and all(anywhere < d for d in known):
            line = f"Last message on any channel: {_ago(anywhere)}"
            if self.any_channel_last_channel:
                line += f" ({_one_line(self.any_channel_last_channel)})"
            yield line
        if self.thread_kind != "conversation":
            yield f"Thread kind: {self.thread_kind}"

    def _contact_lines(self) -> Iterator[str]:
        contact = self.contact
        window = contact.contact_window
        if window.start == window.end:
            return
        head = f"Contact window {window}"
        if not (contact.zone_known and _same_zone(contact.user_timezone, self.user_tz)):
            head += f" {_one_line(contact.user_timezone)}"
        if contact.within_contact_window:
            yield f"{head}: inside"
            return
        local = _local(contact.now, contact.user_timezone)
        where = "there" if contact.zone_known else "UTC"
        yield f"{head}: outside (it is {local.hour:02d}:{local.minute:02d} {where})"

    def _checkin_lines(self) -> Iterator[str]:
        wants = []
        if self.ask_for_updates:
            wants.append("ask for updates before continuing")
        if self.offer_recap:
            wants.append("offer a recap")
        if not wants:
            return
        rules = ", ".join(_one_line(rule) for rule in self.triggered_rules)
        head = f"Check-in due: {rules}" if rules else "Check-in due"
        yield f"{head} ({'; '.join(wants)})"

    def _action_lines(self, ids: bool) -> Iterator[str]:
        for action in self.open_actions:
            if not action.is_open(self.now):
                continue
            notes = [f"clocked {_ago(self.now - action.recorded_at)}"]
            if action.status in _STATUS_WORDS:
                notes.append(_STATUS_WORDS[action.status])
            if action.thread_key != self.thread_key:
                notes.append("in another thread")
            expected = []
            if action.expected_typical_minutes is not None and action.expected_typical_minutes > 0:
                typical = format_elapsed(timedelta(minutes=action.expected_typical_minutes))
                expected.append(f"usually ~{typical}")
            if action.expected_max_minutes is not None and action.expected_max_minutes > 0:
                longest = format_elapsed(timedelta(minutes=action.expected_max_minutes))
                expected.append(f"up to ~{longest}")
            if expected:
                notes.append(", ".join(expected))
            if self.allow_hedged_reference:
                notes.append("any reference must be hedged")
            if ids:
                notes.append(f"id {_one_line(action.id)}")
            yield f"Open action: {_quoted(action.label)} ({'; '.join(notes)})"

    def _upcoming_lines(self, ids: bool) -> Iterator[str]:
        items = sorted(
            self.upcoming, key=lambda item: (not item.overdue, as_utc(item.due_at), str(item.id))
        )
        for item in items:
            line = due_label(item, self.session_tz)
            if item.reminded_at is not None:
                line += f" (reminded {_ago(self.now - item.reminded_at)})"
            suffix = f" (id {item.id})" if ids else ""
            yield f"{line} {_one_line(item.content, _MAX_TEXT)}{suffix}"

    # ------------------------------------------------------------------ data

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: instants ISO-8601 in the session zone, durations as seconds and text."""
        tz = self.session_tz
        return {
            "thread_key": self.thread_key,
            "user_key": self.user_key,
            "channel": self.channel,
            "now": to_iso(self.now, tz),
            "session_tz": self.session_tz,
            "session_tz_source": self.session_tz_source,
            "user_tz": self.user_tz,
            "agent_tz": self.agent_tz,
            "delta_hours": self.delta_hours,
            "thread_kind": self.thread_kind,
            "session_started_at": _iso(self.session_started_at, tz),
            "elapsed_since_last_interaction": _duration_dict(self.elapsed_since_last_interaction),
            "elapsed_since_last_interaction_any_channel": _duration_dict(
                self.elapsed_since_last_interaction_any_channel
            ),
            "elapsed_since_last_user_message": _duration_dict(self.elapsed_since_last_user_message),
            "any_channel_last_channel": self.any_channel_last_channel,
            "temporal_awareness": self.temporal_awareness,
            "triggered_rules": list(self.triggered_rules),
            "ask_for_updates": self.ask_for_updates,
            "offer_recap": self.offer_recap,
            "allow_hedged_reference": self.allow_hedged_reference,
            "open_actions": [action.to_dict(tz) for action in self.open_actions],
            "upcoming": [item.to_dict(tz) for item in self.upcoming],
            "contact": self.contact.to_dict(),
            "other_zones": [
                {"name": z.name, "zone": z.zone, "now": to_iso(self.now, z.zone)}
                for z in self.other_zones
            ],
            "notices": list(self.notices),
            "duplicate": self.duplicate,
        }
