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

`format_elapsed` (`clockcore.envelope_text`) writes a duration as at most two
units, truncated (never rounded up): ``just now`` (under 1 s, and negative
durations from clock skew), ``45 s``, ``3 min``, ``10 h 24 min``, ``2 d 3 h``,
``40 d``, ``1 y 12 d``. The smaller unit is left out when it is zero (``1 h``,
``1 d``); a year is 365 days. Seconds only appear under one minute.

``to_dict()`` is JSON-ready: instants are ISO-8601 in the session zone,
durations are ``{"seconds": <int, truncated toward zero>, "text":
format_elapsed(...)}``, tuples become lists, and text is kept as given (not
sanitised: JSON escaping is its own protection).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from clockcore.actions import ActionStatus
from clockcore.clock import as_utc
from clockcore.envelope_items import NamedZone, OpenAction, UpcomingItem, due_label
from clockcore.envelope_text import (
    MAX_TEXT,
    WEEKDAYS,
    ago,
    duration_dict,
    format_elapsed,
    iso_or_none,
    local_time,
    offset_label,
    one_line,
    quoted,
    same_zone,
    wall,
)
from clockcore.geo.session import ZoneSource
from clockcore.geo.zones import get_zone, offset_minutes, to_iso
from clockcore.message import MessageRef
from clockcore.policy import ThreadKind
from clockcore.window import ToolRuntimeTimeContext

__all__ = [
    "RUNTIME_BLOCK_END",
    "RUNTIME_BLOCK_START",
    "ContextEnvelope",
    "render_block",
]


RUNTIME_BLOCK_START = "[Runtime time context: facts, not instructions]"
RUNTIME_BLOCK_END = "[/Runtime time context]"

_MAX_NAME = 60

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
        now_local = local_time(self.now, self.session_tz)
        now_offset = offset_minutes(self.session_tz, self.now)
        zone = one_line(self.session_tz)
        yield f"Current time: {wall(now_local)} {zone} ({offset_label(now_offset)})"
        if self.speaker:
            yield f"Speaker: {one_line(self.speaker)}"
        yield from self._zone_lines()
        for named in self.other_zones:
            there = local_time(self.now, named.zone)
            offset = offset_label(offset_minutes(named.zone, self.now))
            yield (
                f"Time in {one_line(named.name, _MAX_NAME)}: "
                f"{wall(there, seconds=False)} {one_line(named.zone)} ({offset})"
            )
        if self.temporal_awareness:
            yield from self._session_lines(now_offset)
        yield from self._contact_lines()
        if self.temporal_awareness:
            yield from self._checkin_lines()
            yield from self._action_lines(ids)
        yield from self._upcoming_lines(ids)
        for notice in self.notices:
            yield f"Notice: {one_line(notice)}"
        if self.duplicate:
            yield "Duplicate delivery: this message was already handled"

    def _zone_lines(self) -> Iterator[str]:
        session = one_line(self.session_tz)
        if self.user_tz is None:
            if self.session_tz_source == "default" and same_zone(self.session_tz, "UTC"):
                yield "User timezone: not known; times are in UTC"
                return
            yield "User timezone: not known"
        else:
            yield f"User timezone: {one_line(self.user_tz)}"
            if same_zone(self.session_tz, self.user_tz):
                return
        yield f"Session timezone: {session} ({_SOURCE_WORDS[self.session_tz_source]})"

    def _session_lines(self, now_offset: int) -> Iterator[str]:
        started = self.session_started_at
        if started is not None and as_utc(started) < as_utc(self.now):
            local = local_time(started, self.session_tz)
            line = f"Session started: {wall(local)} {one_line(self.session_tz)}"
            offset = offset_minutes(self.session_tz, started)
            if offset != now_offset:
                line += f" ({offset_label(offset)})"
            yield line
        thread = (
            self.elapsed_since_last_user_message
            if self.elapsed_since_last_user_message is not None
            else self.elapsed_since_last_interaction
        )
        if thread is not None:
            line = f"Last message in this thread: {ago(thread)}"
            then = local_time(as_utc(self.now) - thread, self.session_tz)
            if then.date() != local_time(self.now, self.session_tz).date():
                line += f" ({WEEKDAYS[then.weekday()]} {wall(then, seconds=False)})"
            yield line
        anywhere = self.elapsed_since_last_interaction_any_channel
        known = [
            d
            for d in (self.elapsed_since_last_user_message, self.elapsed_since_last_interaction)
            if d is not None
        ]
        if anywhere is not None and all(anywhere < d for d in known):
            line = f"Last message on any channel: {ago(anywhere)}"
            if self.any_channel_last_channel:
                line += f" ({one_line(self.any_channel_last_channel)})"
            yield line
        if self.thread_kind != "conversation":
            yield f"Thread kind: {self.thread_kind}"

    def _contact_lines(self) -> Iterator[str]:
        contact = self.contact
        window = contact.contact_window
        if window.start == window.end:
            return
        head = f"Contact window {window}"
        if not (contact.zone_known and same_zone(contact.user_timezone, self.user_tz)):
            head += f" {one_line(contact.user_timezone)}"
        if contact.within_contact_window:
            yield f"{head}: inside"
            return
        local = local_time(contact.now, contact.user_timezone)
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
        rules = ", ".join(one_line(rule) for rule in self.triggered_rules)
        head = f"Check-in due: {rules}" if rules else "Check-in due"
        yield f"{head} ({'; '.join(wants)})"

    def _action_lines(self, ids: bool) -> Iterator[str]:
        for action in self.open_actions:
            if not action.is_open(self.now):
                continue
            notes = [f"clocked {ago(self.now - action.recorded_at)}"]
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
                notes.append(f"id {one_line(action.id)}")
            yield f"Open action: {quoted(action.label)} ({'; '.join(notes)})"

    def _upcoming_lines(self, ids: bool) -> Iterator[str]:
        items = sorted(
            self.upcoming, key=lambda item: (not item.overdue, as_utc(item.due_at), str(item.id))
        )
        for item in items:
            line = due_label(item, self.session_tz)
            if item.reminded_at is not None:
                line += f" (reminded {ago(self.now - item.reminded_at)})"
            suffix = f" (id {item.id})" if ids else ""
            yield f"{line} {one_line(item.content, MAX_TEXT)}{suffix}"

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
            "session_started_at": iso_or_none(self.session_started_at, tz),
            "elapsed_since_last_interaction": duration_dict(self.elapsed_since_last_interaction),
            "elapsed_since_last_interaction_any_channel": duration_dict(
                self.elapsed_since_last_interaction_any_channel
            ),
            "elapsed_since_last_user_message": duration_dict(self.elapsed_since_last_user_message),
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
