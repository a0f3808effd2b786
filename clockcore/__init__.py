"""clockcore: pure time logic for clockbot. No I/O; "now" is always injected.

The clock, the timezone provider (CLOCK §4.4), session-zone resolution (§4.2),
anchored time parsing (§4.3), contact windows and the CLOCK policy (§0, §5.1).
"""

from clockcore.clock import Clock, SettableClock, SystemClock, as_utc
from clockcore.errors import (
    ClockError,
    InvalidContactWindowError,
    InvalidDurationError,
    NaiveDatetimeError,
    PolicyError,
    UnknownTimezoneError,
)
from clockcore.parse_result import ParseKind, ParseResult, TimeExpression
from clockcore.policy import (
    DEFAULT_POLICY,
    Decision,
    Policy,
    PolicyFacts,
    ThreadKind,
    evaluate,
    load_policy,
)
from clockcore.provider import TimezoneProvider
from clockcore.session import SessionZone, ZoneSource, resolve_session_zone
from clockcore.timeparse import find_time_expressions, mentions_time, parse_anchored_time
from clockcore.window import (
    DEFAULT_CONTACT_WINDOW,
    ContactWindow,
    ToolRuntimeTimeContext,
    runtime_time_context,
)
from clockcore.zones import (
    agent_timezone,
    available_zones,
    canonical_zone,
    delta_hours,
    get_zone,
    is_valid_zone,
    offset_minutes,
    require_zone,
    to_iso,
)
from clockcore.zonetext import ZoneMention, zone_mentions

__all__ = [
    "DEFAULT_CONTACT_WINDOW",
    "DEFAULT_POLICY",
    "Clock",
    "ClockError",
    "ContactWindow",
    "Decision",
    "InvalidContactWindowError",
    "InvalidDurationError",
    "NaiveDatetimeError",
    "ParseKind",
    "ParseResult",
    "Policy",
    "PolicyError",
    "PolicyFacts",
    "SessionZone",
    "SettableClock",
    "SystemClock",
    "ThreadKind",
    "TimeExpression",
    "TimezoneProvider",
    "ToolRuntimeTimeContext",
    "UnknownTimezoneError",
    "ZoneMention",
    "ZoneSource",
    "agent_timezone",
    "as_utc",
    "available_zones",
    "canonical_zone",
    "delta_hours",
    "evaluate",
    "find_time_expressions",
    "get_zone",
    "is_valid_zone",
    "load_policy",
    "mentions_time",
    "offset_minutes",
    "parse_anchored_time",
    "require_zone",
    "resolve_session_zone",
    "runtime_time_context",
    "to_iso",
    "zone_mentions",
]
