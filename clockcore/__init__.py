"""clockcore: pure time logic for clockbot. No I/O; "now" is always injected.

The clock, the timezone provider (docs/clock-spec.md §4.4), session-zone resolution (§4.2),
anchored time parsing (§4.3), contact windows, the CLOCK policy (§0, §5.1),
directives and latest actions (§6), the context envelope, and the
CLOCK-STATE v3 document (§10).

The names below load their module on first use (PEP 562): importing clockcore costs
nothing until a name is used, so a command that needs only zones does not load the
policy models or the state schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clockcore.lazy import lazy_names

if TYPE_CHECKING:
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
        render_block,
    )
    from clockcore.envelope_items import NamedZone, OpenAction, UpcomingItem, due_label
    from clockcore.envelope_text import format_elapsed
    from clockcore.errors import (
        ClockError,
        InvalidContactWindowError,
        InvalidDurationError,
        NaiveDatetimeError,
        PolicyError,
        StateError,
        UnknownTimezoneError,
    )
    from clockcore.geo.provider import TimezoneProvider
    from clockcore.geo.session import SessionZone, ZoneSource, resolve_session_zone
    from clockcore.geo.zones import (
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
    from clockcore.geo.zonetext import ZoneMention, zone_mentions
    from clockcore.language import guess_language
    from clockcore.message import MessageRef, primary_language
    from clockcore.parse_result import ParseKind, ParseResult, TimeExpression
    from clockcore.parsing.time_mentions import (
        find_time_expressions,
        locate_time,
        mentions_time,
        without_time,
    )
    from clockcore.parsing.timeparse import parse_anchored_time
    from clockcore.policy import (
        DEFAULT_POLICY,
        Decision,
        Policy,
        PolicyFacts,
        ThreadKind,
        evaluate,
        load_policy,
    )
    from clockcore.recurrence import RecurrenceResult, occurrences, parse_recurrence
    from clockcore.state.document import ClockState, dump_state, load_state, state_schema
    from clockcore.window import (
        DEFAULT_CONTACT_WINDOW,
        ContactWindow,
        ToolRuntimeTimeContext,
        runtime_time_context,
    )

_HOME: dict[str, str] = {
    "ACTIVITIES": "clockcore.actions",
    "ActionDraft": "clockcore.actions",
    "ActionSource": "clockcore.actions",
    "ActionStatus": "clockcore.actions",
    "Clock": "clockcore.clock",
    "ClockError": "clockcore.errors",
    "ClockState": "clockcore.state.document",
    "ContactWindow": "clockcore.window",
    "ContextEnvelope": "clockcore.envelope",
    "DEFAULT_CONTACT_WINDOW": "clockcore.window",
    "DEFAULT_POLICY": "clockcore.policy",
    "Decision": "clockcore.policy",
    "Directives": "clockcore.directives",
    "InvalidContactWindowError": "clockcore.errors",
    "InvalidDurationError": "clockcore.errors",
    "MessageRef": "clockcore.message",
    "NaiveDatetimeError": "clockcore.errors",
    "OPEN_STATUSES": "clockcore.actions",
    "NamedZone": "clockcore.envelope_items",
    "OpenAction": "clockcore.envelope_items",
    "ParseKind": "clockcore.parse_result",
    "ParseResult": "clockcore.parse_result",
    "Policy": "clockcore.policy",
    "PolicyError": "clockcore.errors",
    "PolicyFacts": "clockcore.policy",
    "RUNTIME_BLOCK_END": "clockcore.envelope",
    "RUNTIME_BLOCK_START": "clockcore.envelope",
    "RecurrenceResult": "clockcore.recurrence",
    "SessionZone": "clockcore.geo.session",
    "SettableClock": "clockcore.clock",
    "StateError": "clockcore.errors",
    "SystemClock": "clockcore.clock",
    "ThreadKind": "clockcore.policy",
    "TimeExpression": "clockcore.parse_result",
    "TimezoneProvider": "clockcore.geo.provider",
    "ToolRuntimeTimeContext": "clockcore.window",
    "UnknownTimezoneError": "clockcore.errors",
    "UpcomingItem": "clockcore.envelope_items",
    "ZoneMention": "clockcore.geo.zonetext",
    "ZoneSource": "clockcore.geo.session",
    "agent_timezone": "clockcore.geo.zones",
    "as_utc": "clockcore.clock",
    "available_zones": "clockcore.geo.zones",
    "canonical_zone": "clockcore.geo.zones",
    "delta_hours": "clockcore.geo.zones",
    "detect_temporal_action": "clockcore.actions",
    "draft_action": "clockcore.actions",
    "due_label": "clockcore.envelope_items",
    "dump_state": "clockcore.state.document",
    "evaluate": "clockcore.policy",
    "find_time_expressions": "clockcore.parsing.time_mentions",
    "format_elapsed": "clockcore.envelope_text",
    "guess_language": "clockcore.language",
    "get_zone": "clockcore.geo.zones",
    "is_valid_zone": "clockcore.geo.zones",
    "load_policy": "clockcore.policy",
    "load_state": "clockcore.state.document",
    "locate_time": "clockcore.parsing.time_mentions",
    "mentions_time": "clockcore.parsing.time_mentions",
    "occurrences": "clockcore.recurrence",
    "offset_minutes": "clockcore.geo.zones",
    "parse_anchored_time": "clockcore.parsing.timeparse",
    "parse_directives": "clockcore.directives",
    "parse_recurrence": "clockcore.recurrence",
    "primary_language": "clockcore.message",
    "render_block": "clockcore.envelope",
    "require_zone": "clockcore.geo.zones",
    "resolve_session_zone": "clockcore.geo.session",
    "runtime_time_context": "clockcore.window",
    "state_schema": "clockcore.state.document",
    "to_iso": "clockcore.geo.zones",
    "without_time": "clockcore.parsing.time_mentions",
    "zone_mentions": "clockcore.geo.zonetext",
}
"""Each public name and the module that defines it."""


__getattr__ = lazy_names(__name__, _HOME, globals())

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
    "NamedZone",
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
    "guess_language",
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
