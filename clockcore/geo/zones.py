"""IANA zones: validation, offsets, ISO rendering, and the host's zone.

Zones are IANA ids everywhere (`Asia/Tokyo`). Abbreviations such as EST or IST
are never mapped to a zone: several zones share each of them, so a guess is a
time bug. The few legacy ids that look like abbreviations (`EST`, `MST`, `HST`,
`CET`, `EST5EDT`, ...) are refused for the same reason.
"""

from __future__ import annotations

import difflib
import re
import zoneinfo
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache

from clockcore.clock import as_utc
from clockcore.errors import UnknownTimezoneError

__all__ = [
    "ABBREVIATIONS",
    "abbreviation_candidates",
    "agent_timezone",
    "available_zones",
    "canonical_zone",
    "delta_hours",
    "fixed_offset_label",
    "fixed_offset_zone",
    "get_zone",
    "is_valid_zone",
    "offset_minutes",
    "parse_utc_offset",
    "require_zone",
    "to_iso",
    "zone_for_offset",
    "zone_from_label",
]

# Abbreviations people type, with the IANA zones each may mean. Used to ask,
# never to answer: "EST" gets a question naming these, not a zone.
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "ACDT": ("Australia/Adelaide",),
    "ACST": ("Australia/Adelaide", "Australia/Darwin"),
    "ADT": ("America/Halifax",),
    "AEDT": ("Australia/Sydney", "Australia/Melbourne"),
    "AEST": ("Australia/Sydney", "Australia/Brisbane", "Australia/Melbourne"),
    "AKDT": ("America/Anchorage",),
    "AKST": ("America/Anchorage",),
    "AST": ("America/Halifax", "Asia/Riyadh", "America/Puerto_Rico"),
    "AWST": ("Australia/Perth",),
    "BST": ("Europe/London", "Asia/Dhaka"),
    "CAT": ("Africa/Maputo", "Africa/Harare"),
    "CDT": ("America/Chicago", "America/Havana"),
    "CEST": ("Europe/Berlin", "Europe/Paris", "Europe/Madrid"),
    "CET": ("Europe/Berlin", "Europe/Paris", "Europe/Madrid"),
    "CST": ("America/Chicago", "Asia/Shanghai", "America/Havana"),
    "CT": ("America/Chicago",),
    "EAT": ("Africa/Nairobi",),
    "EDT": ("America/New_York", "America/Toronto"),
    "EEST": ("Europe/Athens", "Europe/Helsinki", "Europe/Kyiv"),
    "EET": ("Europe/Athens", "Europe/Helsinki", "Africa/Cairo"),
    "EST": ("America/New_York", "America/Toronto", "Australia/Sydney"),
    "ET": ("America/New_York",),
    "HDT": ("America/Adak",),
    "HKT": ("Asia/Hong_Kong",),
    "HST": ("Pacific/Honolulu",),
    "IDT": ("Asia/Jerusalem",),
    "IST": ("Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"),
    "JST": ("Asia/Tokyo",),
    "KST": ("Asia/Seoul",),
    "MDT": ("America/Denver",),
    "MSK": ("Europe/Moscow",),
    "MST": ("America/Denver", "America/Phoenix"),
    "MT": ("America/Denver",),
    "NDT": ("America/St_Johns",),
    "NPT": ("Asia/Kathmandu",),
    "NST": ("America/St_Johns",),
    "NZDT": ("Pacific/Auckland",),
    "NZST": ("Pacific/Auckland",),
    "PDT": ("America/Los_Angeles",),
    "PHT": ("Asia/Manila",),
    "PKT": ("Asia/Karachi",),
    "PST": ("America/Los_Angeles", "Asia/Manila"),
    "PT": ("America/Los_Angeles",),
    "SAST": ("Africa/Johannesburg",),
    "SGT": ("Asia/Singapore",),
    "WAT": ("Africa/Lagos",),
    "WEST": ("Europe/Lisbon",),
    "WET": ("Europe/Lisbon",),
    "WIB": ("Asia/Jakarta",),
}

# Ids in the IANA database that are abbreviations or POSIX rules in disguise.
_LEGACY_ABBREVIATION_IDS = re.compile(r"^(?:[A-Z]{2,5}|[A-Z]{3}\d[A-Z]{3})$")
_OFFSET = re.compile(
    r"^(?:UTC|GMT)\s*(?P<sign>[+\-−])\s*(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?$", re.IGNORECASE
)


@lru_cache(maxsize=1)
def available_zones() -> frozenset[str]:
    """Every usable IANA id (legacy abbreviation-like ids excluded; "UTC" kept)."""
    zones = {z for z in zoneinfo.available_timezones() if not _LEGACY_ABBREVIATION_IDS.match(z)}
    zones.add("UTC")
    return frozenset(zones)


@lru_cache(maxsize=1)
def _by_lower() -> dict[str, str]:
    return {z.lower(): z for z in available_zones()}


def canonical_zone(name: str) -> str | None:
    """The IANA id `name` spells, ignoring case and spaces-for-underscores; else None."""
    key = name.strip().replace(" ", "_").lower()
    if key in ("z", "zulu", "etc/utc", "utc"):
        return "UTC"
    return _by_lower().get(key)


def is_valid_zone(name: str) -> bool:
    """True when `name` is an IANA id this host can load."""
    return canonical_zone(name) is not None


def _suggest(name: str) -> list[str]:
    upper = name.strip().upper()
    if upper in ABBREVIATIONS:
        return list(ABBREVIATIONS[upper])
    key = name.strip().replace(" ", "_").lower()
    lowered = _by_lower()
    tails = [z for low, z in lowered.items() if low.rsplit("/", 1)[-1] == key]
    close = difflib.get_close_matches(key, list(lowered), n=3, cutoff=0.75)
    tail_close = difflib.get_close_matches(
        key, [low.rsplit("/", 1)[-1] for low in lowered], n=3, cutoff=0.8
    )
    found = tails + [lowered[c] for c in close]
    found += [z for low, z in lowered.items() if low.rsplit("/", 1)[-1] in tail_close]
    return list(dict.fromkeys(sorted(found[:3]) + found))[:3]


@lru_cache(maxsize=1024)
def _load(canonical: str) -> tzinfo:
    return UTC if canonical == "UTC" else zoneinfo.ZoneInfo(canonical)


def require_zone(name: str) -> str:
    """The canonical IANA id `name` spells.

    Raises:
        UnknownTimezoneError: `name` is not an IANA id; `.suggestions` holds close ids.
    """
    canonical = canonical_zone(name)
    if canonical is None:
        raise UnknownTimezoneError(name, _suggest(name))
    return canonical


def get_zone(name: str) -> tzinfo:
    """Load the IANA zone `name` (case-insensitive).

    Raises:
        UnknownTimezoneError: `name` is not an IANA id (abbreviations included);
            `.suggestions` holds close ids.
    """
    return _load(require_zone(name))


def abbreviation_candidates(token: str) -> tuple[str, ...] | None:
    """The zones an abbreviation may mean, or None when `token` is not one."""
    return ABBREVIATIONS.get(token.upper())


def parse_utc_offset(text: str) -> timedelta | None:
    """Read "UTC+9", "GMT-03:00", "UTC+5:30" as an offset; None when not one (or out of range)."""
    match = _OFFSET.match(text.strip())
    if match is None:
        return None
    hours, minutes = int(match["h"]), int(match["m"] or 0)
    if hours > 14 or minutes >= 60:
        return None
    offset = timedelta(hours=hours, minutes=minutes)
    return -offset if match["sign"] in "-−" else offset


def fixed_offset_label(offset: timedelta) -> str:
    """ "UTC+05:30" for a fixed offset; "UTC" for zero."""
    if not offset:
        return "UTC"
    total = int(offset.total_seconds()) // 60
    sign = "+" if total >= 0 else "-"
    hours, minutes = divmod(abs(total), 60)
    return f"UTC{sign}{hours:02d}:{minutes:02d}"


def zone_for_offset(offset: timedelta) -> str | None:
    """The IANA id of a whole-hour fixed offset (``Etc/GMT-9`` for UTC+9), else None.

    IANA's ``Etc/GMT`` ids invert the sign, which is why this lives in one place.
    """
    seconds = int(offset.total_seconds())
    if seconds % 3600:
        return None
    hours = seconds // 3600
    if hours == 0:
        return "UTC"
    name = f"Etc/GMT{-hours:+d}"
    return name if name in available_zones() else None


def _tz(zone: str | tzinfo) -> tzinfo:
    return get_zone(zone) if isinstance(zone, str) else zone


def offset_minutes(zone: str | tzinfo, instant: datetime) -> int:
    """The zone's UTC offset at `instant`, in whole minutes (DST-aware; +05:45 is 345)."""
    offset = as_utc(instant).astimezone(_tz(zone)).utcoffset()
    assert offset is not None  # an aware datetime always has one
    return int(offset.total_seconds() // 60)


def to_iso(instant: datetime, zone: str | tzinfo) -> str:
    """ISO-8601 in `zone` with its offset, e.g. ``2026-02-10T12:02:00+09:00``."""
    return as_utc(instant).astimezone(_tz(zone)).isoformat()


def delta_hours(session_tz: str | tzinfo, agent_tz: str | tzinfo, instant: datetime) -> float:
    """Session offset minus agent offset at `instant`, in hours (may be fractional: 5.75)."""
    return (offset_minutes(session_tz, instant) - offset_minutes(agent_tz, instant)) / 60


def agent_timezone() -> str:
    """The host's IANA zone (docs/clock-spec.md §4.2: prefer the OS zone), else "UTC"."""
    import tzlocal

    try:
        name = tzlocal.get_localzone_name()
    except (LookupError, OSError, ValueError, zoneinfo.ZoneInfoNotFoundError):
        return "UTC"
    return (canonical_zone(name) if name else None) or "UTC"


def fixed_offset_zone(offset: timedelta) -> tzinfo:
    """A tzinfo for a fixed offset read from text ("UTC+5:30")."""
    return UTC if not offset else timezone(offset, fixed_offset_label(offset))


def zone_from_label(label: str) -> tzinfo:
    """Load an IANA id, or a fixed offset written as `fixed_offset_label` gives it.

    Raises:
        UnknownTimezoneError: neither.
    """
    offset = parse_utc_offset(label)
    return fixed_offset_zone(offset) if offset is not None else get_zone(label)
