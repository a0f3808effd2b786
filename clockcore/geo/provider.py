"""The timezone provider of docs/clock-spec.md §4.4: one object a runtime hands its components."""

from __future__ import annotations

from datetime import datetime

from clockcore.clock import Clock, SystemClock
from clockcore.geo.zones import agent_timezone, delta_hours, offset_minutes, require_zone, to_iso
from clockcore.parse_result import ParseResult
from clockcore.parsing.timeparse import parse_anchored_time

__all__ = ["TimezoneProvider"]


class TimezoneProvider:
    """`now`, the agent zone, offsets, ISO rendering and anchored parsing, over one `Clock`.

    The session zone needs stored state, so it is resolved by
    `clockcore.geo.session.resolve_session_zone` from what the store holds.
    """

    def __init__(self, clock: Clock | None = None, *, agent_tz: str | None = None) -> None:
        self._clock = clock or SystemClock()
        self._agent_tz = require_zone(agent_tz) if agent_tz else agent_timezone()

    def now(self) -> datetime:
        """The current instant for this decision cycle, aware UTC."""
        return self._clock.now()

    def agent_timezone(self) -> str:
        """The host's IANA zone (or the configured one), else "UTC"."""
        return self._agent_tz

    def offset_minutes(self, tz: str, instant: datetime) -> int:
        """DST-aware UTC offset of `tz` at `instant`, in minutes."""
        return offset_minutes(tz, instant)

    def to_iso(self, instant: datetime, tz: str) -> str:
        """ISO-8601 with the offset of `tz`."""
        return to_iso(instant, tz)

    def delta_hours(self, session_tz: str, instant: datetime | None = None) -> float:
        """Session offset minus agent offset, in hours, at `instant` (default now)."""
        return delta_hours(session_tz, self._agent_tz, instant or self.now())

    def parse_anchored_time(
        self, text: str, tz: str | None, reference_instant: datetime | None = None
    ) -> ParseResult:
        """`clockcore.parse_anchored_time` with `reference_instant` defaulting to now."""
        return parse_anchored_time(text, tz, reference_instant or self.now())
