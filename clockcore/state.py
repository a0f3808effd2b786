"""CLOCK-STATE.json version 3 (docs/clock-spec.md §10.2): its schema, validation and typed values.

The wrapper keeps state in its database; this module is the pure part of
export and import. `load_state` checks a parsed JSON document against the
packaged schema (``state_schema.json``) and against the rules a schema cannot
express, then builds a `ClockState`; `dump_state` writes a `ClockState` back
as a document that `load_state` reads to an equal value.

Choices worth knowing:

- The top level refuses unknown keys, so a typo (``"user"``) is caught;
  clockbot's own extensions live under ``x_clockbot`` (today only
  ``x_clockbot.memory``, the remembered items), which also refuses unknown
  keys. The objects CLOCK defines (user, channel, action, calibration,
  activity, thread) accept unknown keys that other CLOCK implementations add;
  they are dropped on import, and `ignored_fields` names them.
- Maps and lists (``users``, ``channels``, ``latest_actions``, ``participants``,
  ...) may be left out and read as empty; optional scalars may be left out or
  null. `dump_state` always writes the containers and leaves out unset scalars.
- CLOCK's example writes ``"source": "auto|clock_it|user_confirmed"`` and
  ``"thread_kind": "project|conversation|scheduling|operations"`` to list the
  alternatives; such a literal is refused with a message naming the values.
- Thread participants, and the users of ``last_user_message_iso_by_user`` and
  of memory items, need not appear under ``users``: the spec's own example
  names participants it has no state for.
- Every timestamp needs an explicit offset (``Z`` or ``±HH:MM``); a naive one
  is an error, because its zone would be a guess. Instants are read into aware
  UTC datetimes.
- Zones are IANA ids, read to their canonical spelling (``asia/tokyo`` →
  ``Asia/Tokyo``); abbreviations such as ``EST`` are refused with suggestions.

Error messages name the JSON path of each problem and quote at most a short
scalar, never a whole object.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from importlib import resources
from typing import Any, Final, TypeGuard, cast

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from clockcore.actions import ActionSource, ActionStatus
from clockcore.clock import as_utc
from clockcore.errors import (
    ClockError,
    NaiveDatetimeError,
    PolicyError,
    StateError,
    UnknownTimezoneError,
)
from clockcore.policy import DEFAULT_POLICY, ThreadKind
from clockcore.zones import canonical_zone, get_zone, require_zone

__all__ = [
    "ACTION_SOURCES",
    "ACTION_STATUSES",
    "STATE_VERSION",
    "THREAD_KINDS",
    "ActionState",
    "CalibrationState",
    "ChannelStamps",
    "ClockState",
    "MemoryState",
    "ThreadState",
    "UserState",
    "dump_state",
    "ignored_fields",
    "load_state",
    "state_schema",
]

STATE_VERSION: Final = 3
ACTION_STATUSES: tuple[ActionStatus, ...] = (
    "planned",
    "in_progress",
    "likely_done",
    "done",
    "canceled",
    "expired",
)
ACTION_SOURCES: tuple[ActionSource, ...] = ("auto", "clock_it", "user_confirmed")
THREAD_KINDS: tuple[ThreadKind, ...] = ("project", "conversation", "scheduling", "operations")

_SCHEMA_FILE = "state_schema.json"
_MAX_DEPTH = 64
_SHORT = 40
# One day inside datetime's range, so an instant can be shown in any zone.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
_LATEST = datetime(9999, 12, 30, 23, 59, 59, 999999, tzinfo=UTC)
_EXAMPLE_INSTANT = "2026-02-09T10:00:00+09:00"
_OUT_OF_RANGE = "is outside the supported range, 0001-01-02 to 9999-12-30 in UTC"

_INSTANT = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
_NAIVE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?", re.ASCII)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_POLICY_PATH = re.compile(r"\bclock((?:\.[A-Za-z0-9_]+)+)")

_Path = tuple[str | int, ...]
_Problem = tuple[_Path, str]


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class ChannelStamps:
    """A user's last messages on one channel (``users.<id>.channels.<channel_key>``)."""

    last_user_message_at: datetime | None = None
    last_agent_message_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ActionState:
    """A clocked action (docs/clock-spec.md §6.3); every action expires."""

    id: str
    label: str
    type: str
    status: ActionStatus
    recorded_at: datetime
    expires_at: datetime
    thread_key: str
    source: ActionSource
    expected_typical_minutes: int | None = None
    expected_max_minutes: int | None = None


@dataclass(frozen=True, slots=True)
class CalibrationState:
    """A user's own duration for an activity (``calibration.activity_overrides``)."""

    typical_minutes: int
    max_minutes: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class UserState:
    """Everything stored for one user.

    Attributes:
        default_tz: the user's home IANA zone, when known.
        policy_overrides: a partial CLOCK policy block (keys under ``clock:``),
            as written; apply it with ``DEFAULT_POLICY.with_overrides``.
        last_interaction_any_channel_at: the user's last interaction anywhere.
        channels: last-message stamps per channel key.
        latest_actions: clocked actions, in stored order.
        calibration: per-activity durations, keyed by activity (``meal:dinner``).
    """

    default_tz: str | None = None
    policy_overrides: Mapping[str, object] = field(default_factory=dict)
    last_interaction_any_channel_at: datetime | None = None
    channels: Mapping[str, ChannelStamps] = field(default_factory=dict)
    latest_actions: tuple[ActionState, ...] = ()
    calibration: Mapping[str, CalibrationState] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ThreadState:
    """Everything stored for one thread (docs/clock-spec.md §7.2 thread key)."""

    thread_kind: ThreadKind = "conversation"
    session_tz: str | None = None
    agent_tz: str | None = None
    delta_hours: float | None = None
    participants: tuple[str, ...] = ()
    last_interaction_at: datetime | None = None
    last_user_message_at_by_user: Mapping[str, datetime] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MemoryState:
    """A remembered item or reminder (``x_clockbot.memory``)."""

    id: int
    user_id: str
    content: str
    created_at: datetime
    due_at: datetime | None = None
    reminded_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ClockState:
    """A whole CLOCK-STATE document as values: users and threads by id, then memory.

    Mappings are plain dicts; treat them as read-only. Instants read by
    `load_state` are aware UTC datetimes.
    """

    users: Mapping[str, UserState] = field(default_factory=dict)
    threads: Mapping[str, ThreadState] = field(default_factory=dict)
    memory: tuple[MemoryState, ...] = ()


# --------------------------------------------------------------------------- public API


def state_schema() -> Mapping[str, object]:
    """The JSON Schema (draft 2020-12) of a version 3 document, as a fresh copy."""
    return copy.deepcopy(_schema())


def load_state(document: object) -> ClockState:
    """Validate a parsed CLOCK-STATE.json document and build its `ClockState`.

    Args:
        document: the document as `json.loads` gives it (a mapping at the top).

    Returns:
        The state, instants as aware UTC datetimes and zones canonical.

    Raises:
        StateError: the document does not validate; `.problems` lists every
            problem with its JSON path. A version other than 3 is reported
            alone, since the rest of such a document follows another schema.
    """
    plain, problems = _check(document)
    if problems:
        raise StateError(_rendered(problems))
    assert isinstance(plain, dict)
    return _build(plain)


def dump_state(
    state: ClockState, *, zone_for: Callable[[str], str | None] | None = None
) -> dict[str, object]:
    """Write `state` as a version 3 document that `load_state` reads back to an equal state.

    Each instant is written with its offset in the zone of the user it belongs
    to (the user's own stamps, actions and calibration; a thread's per-user
    stamps; a memory item's user): the user's ``default_tz``, else
    ``zone_for(user_id)`` when given and not None, else UTC. A thread's
    ``last_interaction_iso`` uses the thread's ``session_tz``, else UTC. An
    instant that zone cannot show with a whole-minute offset (local mean time
    before 1900, say) is written in UTC. Zones are written canonically and
    whole ``delta_hours`` as integers (``8``), as CLOCK writes them.

    Args:
        state: the state to write.
        zone_for: the IANA zone of a user the state has no ``default_tz`` for.

    Returns:
        The document, ready for `json.dumps`; `state.memory` goes under
        ``x_clockbot.memory`` when not empty.

    Raises:
        StateError: the state cannot be written as a valid document (a naive
            datetime, an unknown zone, an action expiring before it was
            recorded, ...); `.problems` names each field by its JSON path.
        UnknownTimezoneError: `zone_for` returned something that is not an IANA id.
    """
    writer = _Writer(state, zone_for)
    document = writer.document()
    plain, problems = _check(document)
    taken = [path for path, _ in writer.problems]
    problems = _in_document_order(writer.problems + _outside(problems, taken), plain)
    if problems:
        raise StateError(_rendered(problems))
    assert isinstance(plain, dict)
    return plain


def ignored_fields(document: object) -> tuple[str, ...]:
    """JSON paths of the unknown keys `load_state` accepts and drops.

    They are keys other CLOCK implementations may add to the objects CLOCK
    defines (a user, a channel, an action, ...). Worth telling whoever imports
    the file; anything that is not such an object is skipped.

    Args:
        document: a parsed document.

    Returns:
        The paths, in document order.
    """
    known = _known_fields()
    found: list[str] = []

    def extras(value: object, kind: str, path: _Path) -> Mapping[str, object]:
        if not isinstance(value, Mapping):
            return {}
        found.extend(
            _json_path((*path, key))
            for key in value
            if isinstance(key, str) and key not in known[kind]
        )
        return value

    top = document if isinstance(document, Mapping) else {}
    for user_id, user_value in _entries(top.get("users")):
        user_path: _Path = ("users", user_id)
        user = extras(user_value, "user", user_path)
        for key, channel in _entries(user.get("channels")):
            extras(channel, "channel", (*user_path, "channels", key))
        actions = user.get("latest_actions")
        if isinstance(actions, Sequence) and not isinstance(actions, str):
            for index, action in enumerate(actions):
                extras(action, "action", (*user_path, "latest_actions", index))
        calibration = extras(user.get("calibration"), "calibration", (*user_path, "calibration"))
        for key, activity in _entries(calibration.get("activity_overrides")):
            path = (*user_path, "calibration", "activity_overrides", key)
            extras(activity, "activity", path)
    for thread_key, thread in _entries(top.get("threads")):
        extras(thread, "thread", ("threads", thread_key))
    return tuple(found)


# --------------------------------------------------------------------------- schema


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    text = resources.files("clockcore").joinpath(_SCHEMA_FILE).read_text(encoding="utf-8")
    loaded = json.loads(text)
    assert isinstance(loaded, dict)
    return loaded


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    # jsonschema's own date-time check needs an optional package and is silently
    # skipped without it, so clockbot brings its own.
    checker = FormatChecker(formats=())
    checker.checks("date-time")(_is_instant_text)
    return Draft202012Validator(_schema(), format_checker=checker)


@lru_cache(maxsize=1)
def _known_fields() -> dict[str, frozenset[str]]:
    definitions = _schema()["$defs"]
    kinds = ("user", "channel", "action", "calibration", "activity", "thread")
    return {kind: frozenset(definitions[kind]["properties"]) for kind in kinds}


def _entries(value: object) -> Iterable[tuple[str, object]]:
    """The string-keyed items of `value` when it is a mapping, else none."""
    if not isinstance(value, Mapping):
        return ()
    return [(key, item) for key, item in value.items() if isinstance(key, str)]


# --------------------------------------------------------------------------- instants


def _read_instant(text: str) -> datetime | str:
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
        return _OUT_OF_RANGE
    except ValueError:
        return "is not a real date and time, or its offset is 24 hours or more"
    if not _EARLIEST <= instant <= _LATEST:
        return _OUT_OF_RANGE
    return instant


def _is_instant_text(instance: object) -> bool:
    return not isinstance(instance, str) or isinstance(_read_instant(instance), datetime)


def _instant(value: object) -> datetime | None:
    """The instant of a timestamp that validated; None for null or an invalid one."""
    if not isinstance(value, str):
        return None
    result = _read_instant(value)
    return result if isinstance(result, datetime) else None


def _render_instant(instant: datetime, zone: str) -> str:
    """ISO-8601 in `zone`, or in UTC when the zone's offset then is not whole minutes."""
    try:
        local = instant.astimezone(get_zone(zone))
    except OverflowError:
        return instant.astimezone(UTC).isoformat()
    offset = local.utcoffset()
    if offset is None or offset.total_seconds() % 60:
        return instant.astimezone(UTC).isoformat()
    return local.isoformat()


# --------------------------------------------------------------------------- checking


def _check(document: object) -> tuple[object, list[_Problem]]:
    """The document as plain JSON values, and every problem found in it."""
    if not isinstance(document, Mapping):
        hint = " (parse the JSON text first)" if isinstance(document, str | bytes) else ""
        message = f"the document must be a JSON object, not {_json_type(document)}{hint}"
        return document, [((), message)]
    problems: list[_Problem] = []
    plain = _plain(document, (), problems, 0)
    if problems:
        return plain, problems
    assert isinstance(plain, dict)
    version = _version_problem(plain)
    if version is not None and "version" in plain:
        return plain, [version]
    problems = []
    for error in _validator().iter_errors(plain):
        problems.extend(_describe(error))
    problems += _outside(_semantic(plain), [path for path, _ in problems])
    first = [] if version is None else [version]
    return plain, first + _in_document_order(_unique(problems), plain)


def _plain(value: object, path: _Path, problems: list[_Problem], depth: int) -> object:
    """A copy of `value` as JSON values (dict, list, str, int, float, bool, None)."""
    if depth > _MAX_DEPTH:
        problems.append((path, f"is nested more than {_MAX_DEPTH} levels deep"))
        return None
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            problems.append((path, "is not a finite number (JSON has no NaN or Infinity)"))
        return value
    if isinstance(value, Mapping):
        copied: dict[str, object] = {}
        for key, item in value.items():
            if isinstance(key, str):
                copied[key] = _plain(item, (*path, key), problems, depth + 1)
            else:
                problems.append((path, f"has a key that is not a string ({_json_type(key)})"))
        return copied
    if isinstance(value, list | tuple):
        return [_plain(item, (*path, i), problems, depth + 1) for i, item in enumerate(value)]
    problems.append((path, f"is not a JSON value ({_json_type(value)})"))
    return None


def _version_problem(document: Mapping[str, object]) -> _Problem | None:
    if "version" not in document:
        return ("version",), f"is missing: this clockbot reads version {STATE_VERSION}"
    version = document["version"]
    if isinstance(version, bool) or not isinstance(version, int | float):
        return ("version",), f"must be the number {STATE_VERSION}, not {_json_type(version)}"
    if version != STATE_VERSION:
        return (
            ("version",),
            f"unsupported version {_short(version)} (this clockbot reads version {STATE_VERSION})",
        )
    return None


_TYPE_WORDS = {
    "array": "an array",
    "boolean": "true or false",
    "integer": "a whole number",
    "null": "null",
    "number": "a number",
    "object": "an object",
    "string": "a string",
}


def _describe(error: ValidationError) -> list[_Problem]:
    """One schema error as problems at the paths of the offending fields."""
    path: _Path = tuple(error.absolute_path)
    if path[:1] == ("version",):
        return []  # `_version_problem` speaks for the version
    keyword, instance = error.validator, error.instance
    expected: Any = error.validator_value
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if "propertyNames" in error.absolute_schema_path:
        return [((*path, str(instance)), "an empty key is not allowed")]
    if keyword == "required" and isinstance(instance, Mapping):
        missing = [name for name in expected if name not in instance and name != "version"]
        return [((*path, name), "is required but missing") for name in missing]
    if keyword == "additionalProperties" and isinstance(instance, Mapping):
        allowed = list(schema.get("properties", {}))
        return [
            ((*path, key), _unknown_field(path, allowed)) for key in instance if key not in allowed
        ]
    return [(path, _keyword_message(str(keyword), instance, expected))]


def _keyword_message(keyword: str, instance: object, expected: Any) -> str:
    if keyword == "type":
        names = [expected] if isinstance(expected, str) else list(expected)
        wanted = " or ".join(_TYPE_WORDS.get(name, name) for name in names)
        return f"must be {wanted}, not {_json_type(instance)}"
    if keyword == "enum":
        choices = ", ".join(str(choice) for choice in expected)
        if isinstance(instance, str) and "|" in instance:
            return (
                f"{_short(instance)} is CLOCK's placeholder listing the alternatives; "
                f"write one of them: {choices}"
            )
        return f"{_short(instance)} is not allowed here; use one of: {choices}"
    if keyword in ("pattern", "format") and isinstance(instance, str):
        reason = _read_instant(instance)
        return f"{_short(instance)} {reason}" if isinstance(reason, str) else "is not valid"
    if keyword == "minLength":
        return "must not be empty"
    if keyword == "minimum":
        return f"must be at least {expected}, not {_short(instance)}"
    if keyword == "maximum":
        return f"must be at most {expected}, not {_short(instance)}"
    return f"does not satisfy the schema's {keyword!r} rule"


def _unknown_field(path: _Path, allowed: Sequence[str]) -> str:
    if not path:
        return (
            "unknown top-level field: a version 3 document has version, users and threads, "
            "and clockbot's own extensions go under x_clockbot"
        )
    return "unknown field; allowed here: " + ", ".join(allowed)


def _semantic(document: Mapping[str, Any]) -> list[_Problem]:
    """The rules the schema cannot express, checked wherever the shape allows."""
    problems: list[_Problem] = []
    for user_id, user in _entries(document.get("users")):
        if isinstance(user, Mapping):
            _check_user(user, ("users", user_id), problems)
    for thread_key, thread in _entries(document.get("threads")):
        if isinstance(thread, Mapping):
            for name in ("session_tz", "agent_tz"):
                _check_zone(thread.get(name), ("threads", thread_key, name), problems)
    extensions = document.get("x_clockbot")
    memory = extensions.get("memory") if isinstance(extensions, Mapping) else None
    if isinstance(memory, list):
        _check_unique_ids(memory, ("x_clockbot", "memory"), problems)
    return problems


def _check_user(user: Mapping[str, Any], path: _Path, problems: list[_Problem]) -> None:
    _check_zone(user.get("default_tz"), (*path, "default_tz"), problems)
    overrides = user.get("policy_overrides")
    if isinstance(overrides, Mapping):
        _check_policy(overrides, (*path, "policy_overrides"), problems)
    actions = user.get("latest_actions")
    if isinstance(actions, list):
        _check_unique_ids(actions, (*path, "latest_actions"), problems)
        for index, action in enumerate(actions):
            if isinstance(action, Mapping):
                _check_action(action, (*path, "latest_actions", index), problems)
    calibration = user.get("calibration")
    activities = calibration.get("activity_overrides") if isinstance(calibration, Mapping) else {}
    for key, activity in _entries(activities):
        if isinstance(activity, Mapping):
            here = (*path, "calibration", "activity_overrides", key)
            _check_at_least(activity, "max_minutes", "typical_minutes", here, problems)


def _check_zone(value: object, path: _Path, problems: list[_Problem]) -> None:
    if not isinstance(value, str) or not value:
        return
    try:
        require_zone(value)
    except UnknownTimezoneError as exc:
        message = f"unknown timezone {_short(value)}: use an IANA id such as Europe/Berlin"
        if exc.suggestions:
            message += "; did you mean " + ", ".join(exc.suggestions) + "?"
        problems.append((path, message))


def _check_policy(overrides: Mapping[str, object], path: _Path, problems: list[_Problem]) -> None:
    try:
        DEFAULT_POLICY.with_overrides(overrides)
    except PolicyError as exc:
        problems.append(_policy_problem(exc, path))
    except (ClockError, TypeError, ValueError):
        problems.append((path, "is not a valid CLOCK policy block"))


def _policy_problem(exc: PolicyError, base: _Path) -> _Problem:
    """A PolicyError (``clock.mode: ...``) as a problem under the user's overrides."""
    parts = exc.path.split(".")[1:] if exc.path.startswith("clock") else []
    path = (*base, *(int(part) if part.isdigit() else part for part in parts))
    reason = str(exc).removeprefix(f"{exc.path or '<policy>'}: ")
    notes = getattr(exc, "__notes__", ())
    if notes:
        reason += "; " + "; ".join(str(note) for note in notes)

    def relocated(match: re.Match[str]) -> str:
        tail = match.group(1).split(".")[1:]
        return _json_path((*base, *(int(p) if p.isdigit() else p for p in tail)))

    return path, _POLICY_PATH.sub(relocated, reason)


def _check_action(action: Mapping[str, Any], path: _Path, problems: list[_Problem]) -> None:
    recorded = _instant(action.get("recorded_iso"))
    expires = _instant(action.get("expires_iso"))
    if recorded is not None and expires is not None and expires < recorded:
        problems.append(
            (
                (*path, "expires_iso"),
                "is before recorded_iso: an action cannot expire before it starts",
            )
        )
    _check_at_least(action, "expected_max_minutes", "expected_typical_minutes", path, problems)


def _check_at_least(
    item: Mapping[str, Any], high: str, low: str, path: _Path, problems: list[_Problem]
) -> None:
    top, bottom = item.get(high), item.get(low)
    if _is_number(top) and _is_number(bottom) and top < bottom:
        problems.append(((*path, high), f"is less than {low} ({_short(top)} < {_short(bottom)})"))


def _check_unique_ids(items: list[Any], path: _Path, problems: list[_Problem]) -> None:
    first: dict[object, int] = {}
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        value = item.get("id")
        if not isinstance(value, str | int) or isinstance(value, bool):
            continue
        if value in first:
            where = _json_path((*path, first[value]))
            problems.append(((*path, index, "id"), f"repeats the id of {where}"))
        else:
            first[value] = index


def _outside(problems: list[_Problem], taken: Sequence[_Path]) -> list[_Problem]:
    """The problems not at or under a path already reported."""
    return [
        problem
        for problem in problems
        if not any(problem[0][: len(prefix)] == prefix for prefix in taken)
    ]


def _unique(problems: list[_Problem]) -> list[_Problem]:
    return list(dict.fromkeys(problems))


def _in_document_order(problems: list[_Problem], document: object) -> list[_Problem]:
    """Sort problems as their fields appear in the document; missing keys after present ones."""
    positions: dict[int, dict[str, int]] = {}

    def key(problem: _Problem) -> list[tuple[int, str]]:
        node: object = document
        result: list[tuple[int, str]] = []
        for part in problem[0]:
            if isinstance(node, dict) and isinstance(part, str):
                index = positions.get(id(node))
                if index is None:
                    index = positions[id(node)] = {name: i for i, name in enumerate(node)}
                result.append((index.get(part, len(index)), part))
                node = node.get(part)
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                result.append((part, ""))
                node = node[part]
            else:
                result.append((0, str(part)))
                node = None
        return result

    return sorted(problems, key=key)


def _rendered(problems: Iterable[_Problem]) -> list[tuple[str, str]]:
    return [(_json_path(path), message) for path, message in problems]


def _json_path(path: _Path) -> str:
    """``$.users.u1.latest_actions[0].status``; keys that are not identifiers go in ``['...']``."""
    parts = ["$"]
    for part in path:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif _IDENTIFIER.fullmatch(part):
            parts.append(f".{part}")
        else:
            escaped = part.replace("\\", "\\\\").replace("'", "\\'")
            parts.append(f"['{escaped}']")
    return "".join(parts)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    return f"a {type(value).__name__}"


def _short(value: object) -> str:
    """A scalar quoted for a message, cut short; anything else by its type."""
    if isinstance(value, str):
        return repr(value) if len(value) <= _SHORT else repr(value[: _SHORT - 3] + "...")
    if value is None or isinstance(value, bool | int | float):
        text = json.dumps(value)
        return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."
    return _json_type(value)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


# --------------------------------------------------------------------------- building


def _build(document: Mapping[str, Any]) -> ClockState:
    users = {key: _build_user(value) for key, value in document.get("users", {}).items()}
    threads = {key: _build_thread(value) for key, value in document.get("threads", {}).items()}
    memory = tuple(
        MemoryState(
            id=int(item["id"]),
            user_id=item["user_id"],
            content=item["content"],
            created_at=_required_instant(item["created_iso"]),
            due_at=_instant(item.get("due_iso")),
            reminded_at=_instant(item.get("reminded_iso")),
        )
        for item in (document.get("x_clockbot") or {}).get("memory", [])
    )
    return ClockState(users=users, threads=threads, memory=memory)


def _build_user(user: Mapping[str, Any]) -> UserState:
    calibration = (user.get("calibration") or {}).get("activity_overrides", {})
    return UserState(
        default_tz=_zone(user.get("default_tz")),
        policy_overrides=copy.deepcopy(user.get("policy_overrides") or {}),
        last_interaction_any_channel_at=_instant(user.get("last_interaction_any_channel_iso")),
        channels={
            key: ChannelStamps(
                last_user_message_at=_instant(stamps.get("last_user_message_iso")),
                last_agent_message_at=_instant(stamps.get("last_agent_message_iso")),
            )
            for key, stamps in user.get("channels", {}).items()
        },
        latest_actions=tuple(_build_action(action) for action in user.get("latest_actions", [])),
        calibration={
            key: CalibrationState(
                typical_minutes=int(entry["typical_minutes"]),
                max_minutes=int(entry["max_minutes"]),
                updated_at=_required_instant(entry["updated_iso"]),
            )
            for key, entry in calibration.items()
        },
    )


def _build_action(action: Mapping[str, Any]) -> ActionState:
    return ActionState(
        id=action["id"],
        label=action["label"],
        type=action["type"],
        status=cast(ActionStatus, action["status"]),
        recorded_at=_required_instant(action["recorded_iso"]),
        expires_at=_required_instant(action["expires_iso"]),
        thread_key=action["thread_key"],
        source=cast(ActionSource, action["source"]),
        expected_typical_minutes=_optional_int(action.get("expected_typical_minutes")),
        expected_max_minutes=_optional_int(action.get("expected_max_minutes")),
    )


def _build_thread(thread: Mapping[str, Any]) -> ThreadState:
    delta = thread.get("delta_hours")
    return ThreadState(
        thread_kind=cast(ThreadKind, thread["thread_kind"]),
        session_tz=_zone(thread.get("session_tz")),
        agent_tz=_zone(thread.get("agent_tz")),
        delta_hours=None if delta is None else float(delta),
        participants=tuple(thread.get("participants", [])),
        last_interaction_at=_instant(thread.get("last_interaction_iso")),
        last_user_message_at_by_user={
            user_id: _required_instant(stamp)
            for user_id, stamp in thread.get("last_user_message_iso_by_user", {}).items()
        },
    )


def _required_instant(value: object) -> datetime:
    instant = _instant(value)
    assert instant is not None  # the document validated
    return instant


def _zone(value: object) -> str | None:
    return require_zone(value) if isinstance(value, str) else None


def _optional_int(value: object) -> int | None:
    return None if value is None else int(cast(float, value))


# --------------------------------------------------------------------------- dumping


class _Writer:
    """Turns a `ClockState` into a document, noting values it cannot write."""

    def __init__(self, state: ClockState, zone_for: Callable[[str], str | None] | None) -> None:
        self.state = state
        self.zone_for = zone_for
        self.problems: list[_Problem] = []
        self._zones: dict[str, str] = {}

    def document(self) -> dict[str, object]:
        state = self.state
        document: dict[str, object] = {
            "version": STATE_VERSION,
            "users": {key: self.user(key, user) for key, user in state.users.items()},
            "threads": {key: self.thread(key, thread) for key, thread in state.threads.items()},
        }
        if state.memory:
            memory = [self.memory_item(index, item) for index, item in enumerate(state.memory)]
            document["x_clockbot"] = {"memory": memory}
        return document

    def zone_of(self, user_id: str) -> str:
        """The zone a user's instants are written in."""
        zone = self._zones.get(user_id)
        if zone is None:
            user = self.state.users.get(user_id)
            known = user.default_tz if user is not None else None
            zone = canonical_zone(known) if isinstance(known, str) else None
            if zone is None and self.zone_for is not None:
                asked = self.zone_for(user_id)
                zone = require_zone(asked) if asked else None
            zone = self._zones[user_id] = zone or "UTC"
        return zone

    def instant(self, value: object, zone: str, path: _Path) -> str | None:
        if not isinstance(value, datetime):
            self.problems.append((path, f"must be a datetime, not {_json_type(value)}"))
            return None
        try:
            instant = as_utc(value)
        except OverflowError:
            self.problems.append((path, _OUT_OF_RANGE))
            return None
        except NaiveDatetimeError:
            self.problems.append((path, "is a naive datetime; instants must be aware"))
            return None
        return _render_instant(instant, zone)

    def optional(
        self, target: dict[str, object], name: str, value: object, zone: str, path: _Path
    ) -> None:
        if value is not None:
            target[name] = self.instant(value, zone, (*path, name))

    def user(self, user_id: str, user: UserState) -> dict[str, object]:
        path: _Path = ("users", user_id)
        zone = self.zone_of(user_id)
        written: dict[str, object] = {}
        if user.default_tz is not None:
            written["default_tz"] = _canonical_or_same(user.default_tz)
        if user.policy_overrides:
            written["policy_overrides"] = copy.deepcopy(dict(user.policy_overrides))
        self.optional(
            written,
            "last_interaction_any_channel_iso",
            user.last_interaction_any_channel_at,
            zone,
            path,
        )
        channels: dict[str, object] = {}
        for key, stamps in user.channels.items():
            channel: dict[str, object] = {}
            here = (*path, "channels", key)
            self.optional(channel, "last_user_message_iso", stamps.last_user_message_at, zone, here)
            self.optional(
                channel, "last_agent_message_iso", stamps.last_agent_message_at, zone, here
            )
            channels[key] = channel
        written["channels"] = channels
        written["latest_actions"] = [
            self.action(action, zone, (*path, "latest_actions", index))
            for index, action in enumerate(user.latest_actions)
        ]
        activities = {
            key: {
                "typical_minutes": entry.typical_minutes,
                "max_minutes": entry.max_minutes,
                "updated_iso": self.instant(
                    entry.updated_at,
                    zone,
                    (*path, "calibration", "activity_overrides", key, "updated_iso"),
                ),
            }
            for key, entry in user.calibration.items()
        }
        written["calibration"] = {"activity_overrides": activities}
        return written

    def action(self, action: ActionState, zone: str, path: _Path) -> dict[str, object]:
        written: dict[str, object] = {
            "id": action.id,
            "label": action.label,
            "type": action.type,
            "status": action.status,
            "recorded_iso": self.instant(action.recorded_at, zone, (*path, "recorded_iso")),
        }
        if action.expected_typical_minutes is not None:
            written["expected_typical_minutes"] = action.expected_typical_minutes
        if action.expected_max_minutes is not None:
            written["expected_max_minutes"] = action.expected_max_minutes
        written["expires_iso"] = self.instant(action.expires_at, zone, (*path, "expires_iso"))
        written["thread_key"] = action.thread_key
        written["source"] = action.source
        return written

    def thread(self, thread_key: str, thread: ThreadState) -> dict[str, object]:
        path: _Path = ("threads", thread_key)
        written: dict[str, object] = {"thread_kind": thread.thread_kind}
        if thread.session_tz is not None:
            written["session_tz"] = _canonical_or_same(thread.session_tz)
        if thread.agent_tz is not None:
            written["agent_tz"] = _canonical_or_same(thread.agent_tz)
        if thread.delta_hours is not None:
            written["delta_hours"] = _number(thread.delta_hours)
        written["participants"] = list(thread.participants)
        session = canonical_zone(thread.session_tz) if isinstance(thread.session_tz, str) else None
        self.optional(
            written, "last_interaction_iso", thread.last_interaction_at, session or "UTC", path
        )
        by_user = {
            user_id: self.instant(
                stamp,
                self.zone_of(user_id),
                (*path, "last_user_message_iso_by_user", user_id),
            )
            for user_id, stamp in thread.last_user_message_at_by_user.items()
        }
        written["last_user_message_iso_by_user"] = by_user
        return written

    def memory_item(self, index: int, item: MemoryState) -> dict[str, object]:
        path: _Path = ("x_clockbot", "memory", index)
        zone = self.zone_of(item.user_id) if isinstance(item.user_id, str) else "UTC"
        written: dict[str, object] = {
            "id": item.id,
            "user_id": item.user_id,
            "content": item.content,
            "created_iso": self.instant(item.created_at, zone, (*path, "created_iso")),
        }
        self.optional(written, "due_iso", item.due_at, zone, path)
        self.optional(written, "reminded_iso", item.reminded_at, zone, path)
        return written


def _canonical_or_same(zone: str) -> str:
    """The canonical spelling of a zone; an unknown one as is, for validation to report."""
    return (canonical_zone(zone) if isinstance(zone, str) else None) or zone


def _number(value: float) -> float | int:
    """A whole float as an int (``8`` rather than ``8.0``), as CLOCK writes it."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value
