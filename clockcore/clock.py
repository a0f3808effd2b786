"""Where "now" comes from.

Nothing in clockbot reads the system time ad hoc: every component takes a
`Clock`, so tests and replays can set the time. Every instant is an aware UTC
`datetime`.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

from clockcore.errors import NaiveDatetimeError

__all__ = ["Clock", "SettableClock", "SystemClock", "as_utc"]


def as_utc(value: datetime) -> datetime:
    """Return `value` as an aware UTC datetime.

    Raises:
        NaiveDatetimeError: `value` has no tzinfo; guessing its zone is how
            time bugs start.
    """
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise NaiveDatetimeError(value)
    return value.astimezone(UTC)


@runtime_checkable
class Clock(Protocol):
    """A source of the current instant."""

    def now(self) -> datetime:
        """The current instant, aware, in UTC."""
        ...


class SystemClock:
    """The host's clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class SettableClock:
    """A clock that only moves when told to, for tests and replays."""

    def __init__(self, start: datetime) -> None:
        self._now = as_utc(start)

    def now(self) -> datetime:
        return self._now

    def set(self, instant: datetime) -> None:
        """Jump to `instant` (aware; any zone)."""
        self._now = as_utc(instant)

    def advance(self, delta: timedelta | None = None, /, **kwargs: float) -> datetime:
        """Move forward by `delta` or by `timedelta(**kwargs)`; return the new now."""
        self._now += delta if delta is not None else timedelta(**kwargs)
        return self._now
