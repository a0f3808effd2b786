"""clockcore: pure time logic for clockbot. No I/O; "now" is always injected.

The clock, the timezone provider (CLOCK §4.4), session-zone resolution (§4.2),
anchored time parsing (§4.3), contact windows, the CLOCK policy (§0, §5.1),
directives and latest actions (§6), the context envelope, and the
CLOCK-STATE v3 document (§10).
"""

from clockcore.actions import (
    ACTIVITIES,
    OPEN_STATUSES,
    ActionDraft,
    ActionSource,
    ActionStatus,
    detect_temporal_action,
    draft_action,
)
from clockcore.clock import Clock, SettableClock, SystemClock, as_utc
from clockcore.directives import Directives, parse_directives
from clockcore.envelope import (
    RUNTIME_BLOCK_END,
    RUNTIME_BLOCK_START,
    ContextEnvelope,
    OpenAction,
    UpcomingItem,
    due_label,
    format_elapsed,
    render_block,
)
from clockcore.errors import (
    ClockError,
    InvalidContactWindowError,
    InvalidDurationError,
    NaiveDatetimeError,
    PolicyError,
    StateError,
    UnknownTimezoneError,
)
from clockcore.message import MessageRef, primary_language
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
from clockcore.recurrence import RecurrenceResult, occurrences, parse_recurrence
from clockcore.session import SessionZone, ZoneSource, resolve_session_zone
from clockcore.state import ClockState, dump_state, load_state, state_schema
from clockcore.timeparse import (
    find_time_expressions,
    locate_time,
    mentions_time,
    parse_anchored_time,
    without_time,
)
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
    "ACTIVITIES",
    "DEFAULT_CONTACT_WINDOW",
    "DEFAULT_POLICY",
    "OPEN_STATUSES",
    "RUNTIME_BLOCK_END",
    "RUNTIME_BLOCK_START",
    "ActionDraft",
    "ActionSource",
    "ActionStatus",
    "Clock",
    "ClockError",
    "ClockState",
    "ContactWindow",
    "ContextEnvelope",
    "Decision",
    "Directives",
    "InvalidContactWindowError",
    "InvalidDurationError",
    "MessageRef",
    "NaiveDatetimeError",
    "OpenAction",
    "ParseKind",
    "ParseResult",
    "Policy",
    "PolicyError",
    "PolicyFacts",
    "RecurrenceResult",
    "SessionZone",
    "SettableClock",
    "StateError",
    "SystemClock",
    "ThreadKind",
    "TimeExpression",
    "TimezoneProvider",
    "ToolRuntimeTimeContext",
    "UnknownTimezoneError",
    "UpcomingItem",
    "ZoneMention",
    "ZoneSource",
    "agent_timezone",
    "as_utc",
    "available_zones",
    "canonical_zone",
    "delta_hours",
    "detect_temporal_action",
    "draft_action",
    "due_label",
    "dump_state",
    "evaluate",
    "find_time_expressions",
    "format_elapsed",
    "get_zone",
    "is_valid_zone",
    "load_policy",
    "load_state",
    "locate_time",
    "mentions_time",
    "occurrences",
    "offset_minutes",
    "parse_anchored_time",
    "parse_directives",
    "parse_recurrence",
    "primary_language",
    "render_block",
    "require_zone",
    "resolve_session_zone",
    "runtime_time_context",
    "state_schema",
    "to_iso",
    "without_time",
    "zone_mentions",
]
