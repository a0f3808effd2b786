"""How the runtime block writes a fact: elapsed times, wall clocks, offsets, people's words.

Every function is pure: English whatever the host's locale, never reading the
clock or the host's zone (the rules are `clockcore.envelope`'s docstring).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta

from clockcore.clock import as_utc
from clockcore.geo.zones import canonical_zone, get_zone, to_iso

__all__ = [
    "MAX_TEXT",
    "WEEKDAYS",
    "ago",
    "duration_dict",
    "format_elapsed",
    "iso_or_none",
    "local_time",
    "offset_label",
    "one_line",
    "quoted",
    "same_zone",
    "wall",
]

MAX_TEXT = 200
"""The longest text from people a line of the block quotes."""
_MINUTE = 60
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
_YEAR = 365 * _DAY
_MARKER = re.compile(r"[\[［](\s*/?\s*runtime[\s_-]*time[\s_-]*context)", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")


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


WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""English whatever the host's locale: the block's bytes never depend on the host."""


def ago(delta: timedelta) -> str:
    text = format_elapsed(delta)
    return text if text == "just now" else f"{text} ago"


def local_time(instant: datetime, tz: str) -> datetime:
    return as_utc(instant).astimezone(get_zone(tz))


def wall(local: datetime, *, seconds: bool = True) -> str:
    text = f"{local.year:04d}-{local.month:02d}-{local.day:02d} {local.hour:02d}:{local.minute:02d}"
    return f"{text}:{local.second:02d}" if seconds else text


def offset_label(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{mins:02d}"


def one_line(text: str, limit: int | None = None) -> str:
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


def quoted(text: str) -> str:
    escaped = one_line(text, MAX_TEXT).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def same_zone(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a is b
    return (canonical_zone(a) or a) == (canonical_zone(b) or b)


def duration_dict(delta: timedelta | None) -> dict[str, object] | None:
    if delta is None:
        return None
    return {"seconds": int(delta.total_seconds()), "text": format_elapsed(delta)}


def iso_or_none(instant: datetime | None, tz: str) -> str | None:
    return None if instant is None else to_iso(instant, tz)
