"""Contact windows and the time context that time-sensitive tools return.

A contact window is the part of the day, in the user's own zone, when they
expect to hear from the agent (default 08:00–23:00). Outside it a proactive
send still goes out unless the agent defers it; the window only produces an
advisory sentence the agent reads (docs/clock-spec.md, "Advice, not enforcement").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time

from clockcore.clock import as_utc
from clockcore.errors import InvalidContactWindowError
from clockcore.geo.zones import get_zone, require_zone, to_iso

__all__ = [
    "DEFAULT_CONTACT_WINDOW",
    "ContactWindow",
    "ToolRuntimeTimeContext",
    "runtime_time_context",
]

_WINDOW = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*(?:-|–|—|to)\s*(\d{1,2}):(\d{2})\s*$")


@dataclass(frozen=True, slots=True)
class ContactWindow:
    """Local times of day: `start` inclusive, `end` exclusive; wraps midnight when end < start.

    ``start == end`` means the whole day.
    """

    start: time = time(8)
    end: time = time(23)

    def __post_init__(self) -> None:
        for value in (self.start, self.end):
            if value.tzinfo is not None:
                raise InvalidContactWindowError(value, "use local times of day without a zone")

    @classmethod
    def parse(cls, text: str) -> ContactWindow:
        """Read "08:00-23:00" (also with an en dash or "to"); "24:00" ends at midnight.

        Raises:
            InvalidContactWindowError: not two HH:MM times.
        """
        match = _WINDOW.match(text)
        if match is None:
            raise InvalidContactWindowError(text, "write it as HH:MM-HH:MM, e.g. 08:00-23:00")
        h1, m1, h2, m2 = (int(g) for g in match.groups())
        if h2 == 24 and m2 == 0:
            h2 = 0
        if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
            raise InvalidContactWindowError(text, "hours run 00–23 and minutes 00–59")
        return cls(time(h1, m1), time(h2, m2))

    def contains(self, local: time) -> bool:
        """Whether a local time of day falls inside the window."""
        local = local.replace(tzinfo=None)
        if self.start == self.end:
            return True
        if self.start < self.end:
            return self.start <= local < self.end
        return local >= self.start or local < self.end

    def __str__(self) -> str:
        return f"{self.start:%H:%M}–{self.end:%H:%M}"


DEFAULT_CONTACT_WINDOW = ContactWindow()


@dataclass(frozen=True, slots=True)
class ToolRuntimeTimeContext:
    """What a time-sensitive tool (send, schedule, defer, remind) tells the agent about now.

    Attributes:
        now: the decision instant, aware UTC.
        user_timezone: the user's IANA zone ("UTC" when unknown; see `zone_known`).
        contact_window: the user's window, in their zone.
        within_contact_window: whether `now` falls inside it.
        advisory: one plain sentence when outside the window, else "".
        zone_known: False when the user's zone is not known and UTC stood in.
        planned: `now` is a later send time (a reminder set now), not the present: the
            result says ``sends_at``, never ``now``, and the advisory speaks of then.
    """

    now: datetime
    user_timezone: str
    contact_window: ContactWindow
    within_contact_window: bool
    advisory: str
    zone_known: bool = True
    planned: bool = False

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, for a tool result."""
        return {
            "sends_at" if self.planned else "now": to_iso(self.now, self.user_timezone),
            "user_timezone": self.user_timezone,
            "user_timezone_known": self.zone_known,
            "contact_window": str(self.contact_window),
            "within_contact_window": self.within_contact_window,
            "advisory": self.advisory,
        }


def runtime_time_context(
    now: datetime,
    user_timezone: str | None,
    window: ContactWindow = DEFAULT_CONTACT_WINDOW,
    *,
    planned: bool = False,
) -> ToolRuntimeTimeContext:
    """Build the tool time context for `now` in the user's zone.

    With `planned`, `now` is when a message set now will be sent: a reminder's result
    once called that instant "now" and said "It is 04:00" at 21:00 the evening before,
    a present time that was wrong (docs/eval.md, fifth run).

    Raises:
        UnknownTimezoneError: `user_timezone` is not an IANA id.
        NaiveDatetimeError: `now` is naive.
    """
    now = as_utc(now)
    zone_known = user_timezone is not None
    name = require_zone(user_timezone) if user_timezone is not None else "UTC"
    local = now.astimezone(get_zone(name))
    inside = window.contains(local.time())
    advisory = ""
    if not inside:
        where = (
            f"in the user's timezone ({name})"
            if zone_known
            else "in UTC (the user's timezone is not known)"
        )
        advisory = (
            f"It will be {local:%H:%M} {where} when it is sent, outside their usual contact "
            f"window {window}; when it falls due you are asked again and may defer it."
            if planned
            else f"It is {local:%H:%M} {where}, outside their usual contact window {window}; "
            "consider deferring unless it is urgent."
        )
    return ToolRuntimeTimeContext(now, name, window, inside, advisory, zone_known, planned)
