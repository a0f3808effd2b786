"""A state document's timestamps: RFC 3339 with an offset, read (or refused, with why), written."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from clockcore.clock import as_utc
from clockcore.geo.zones import get_zone

__all__ = ["OUT_OF_RANGE", "instant_or_none", "read_instant", "render_instant"]

# One day inside datetime's range, so an instant can be shown in any zone.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
_LATEST = datetime(9999, 12, 30, 23, 59, 59, 999999, tzinfo=UTC)
_EXAMPLE_INSTANT = "2026-02-09T10:00:00+09:00"
OUT_OF_RANGE = "is outside the supported range, 0001-01-02 to 9999-12-30 in UTC"
_INSTANT = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
_NAIVE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?", re.ASCII)


def read_instant(text: str) -> datetime | str:
    """The UTC instant `text` names, or the reason it names none."""
    if not _INSTANT.fullmatch(text):
        if _NAIVE.fullmatch(text.strip()):
            return (
                "has no UTC offset: a naive timestamp is ambiguous; "
                f"add Z or ±HH:MM, e.g. {_EXAMPLE_INSTANT}"
            )
        return f"is not an RFC 3339 timestamp with an offset, such as {_EXAMPLE_INSTANT}"
    try:
        parsed = datetime.fromisoformat(text.upper())
        instant = as_utc(parsed)
    except OverflowError:
        return OUT_OF_RANGE
    except ValueError:
        return "is not a real date and time, or its offset is 24 hours or more"
    if not _EARLIEST <= instant <= _LATEST:
        return OUT_OF_RANGE
    return instant


def instant_or_none(value: object) -> datetime | None:
    """The instant of a timestamp that validated; None for null or an invalid one."""
    if not isinstance(value, str):
        return None
    result = read_instant(value)
    return result if isinstance(result, datetime) else None


def render_instant(instant: datetime, zone: str) -> str:
    """ISO-8601 in `zone`, or in UTC when the zone's offset then is not whole minutes."""
    try:
        local = instant.astimezone(get_zone(zone))
    except OverflowError:
        return instant.astimezone(UTC).isoformat()
    offset = local.utcoffset()
    if offset is None or offset.total_seconds() % 60:
        return instant.astimezone(UTC).isoformat()
    return local.isoformat()
