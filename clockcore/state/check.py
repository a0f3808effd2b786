"""Checking a CLOCK-STATE v3 document, building its values (`document.load_state`).

The schema check (jsonschema, with our own date-time format), the rules a schema
cannot express, and messages that name each problem's JSON path and quote at most
a short scalar.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from importlib import resources
from typing import Any, TypeGuard, cast

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from clockcore.actions import ActionSource, ActionStatus
from clockcore.clock import as_utc
from clockcore.errors import (
    ClockError,
    PolicyError,
    UnknownTimezoneError,
)
from clockcore.geo.zones import get_zone, require_zone
from clockcore.policy import DEFAULT_POLICY, ThreadKind
from clockcore.state.backup import BACKUP_VERSION, PARTS, Part
from clockcore.state.values import (
    STATE_VERSION,
    ActionState,
    CalibrationState,
    ChannelStamps,
    ClockState,
    MemoryState,
    ThreadState,
    UserState,
)

_SCHEMA_FILE = "schema.json"
_MAX_DEPTH = 64
_SHORT = 40
# One day inside datetime's range, so an instant can be shown in any zone.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
_LATEST = datetime(9999, 12, 30, 23, 59, 59, 999999, tzinfo=UTC)
_EXAMPLE_INSTANT = "2026-02-09T10:00:00+09:00"
OUT_OF_RANGE = "is outside the supported range, 0001-01-02 to 9999-12-30 in UTC"

_INSTANT = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
_NAIVE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?", re.ASCII)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_POLICY_PATH = re.compile(r"\bclock((?:\.[A-Za-z0-9_]+)+)")

JsonPath = tuple[str | int, ...]
Problem = tuple[JsonPath, str]


# --------------------------------------------------------------------------- schema


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    text = resources.files("clockcore.state").joinpath(_SCHEMA_FILE).read_text(encoding="utf-8")
    loaded = json.loads(text)
    assert isinstance(loaded, dict)
    return loaded


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    # jsonschema's own date-time check needs an optional package and is silently
    # skipped without it, so clockbot brings its own.
    checker = FormatChecker(formats=())
    checker.checks("date-time")(_is_instant_text)
    return Draft202012Validator(schema(), format_checker=checker)


@lru_cache(maxsize=1)
def known_fields() -> dict[str, frozenset[str]]:
    definitions = schema()["$defs"]
    kinds = ("user", "channel", "action", "calibration", "activity", "thread")
    return {kind: frozenset(definitions[kind]["properties"]) for kind in kinds}


def entries(value: object) -> Iterable[tuple[str, object]]:
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
        return OUT_OF_RANGE
    except ValueError:
        return "is not a real date and time, or its offset is 24 hours or more"
    if not _EARLIEST <= instant <= _LATEST:
        return OUT_OF_RANGE
    return instant


def _is_instant_text(instance: object) -> bool:
    return not isinstance(instance, str) or isinstance(_read_instant(instance), datetime)


def _instant(value: object) -> datetime | None:
    """The instant of a timestamp that validated; None for null or an invalid one."""
    if not isinstance(value, str):
        return None
    result = _read_instant(value)
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


# --------------------------------------------------------------------------- checking


def check(document: object) -> tuple[object, list[Problem]]:
    """The document as plain JSON values, and every problem found in it."""
    if not isinstance(document, Mapping):
        hint = " (parse the JSON text first)" if isinstance(document, str | bytes) else ""
        message = f"the document must be a JSON object, not {json_type(document)}{hint}"
        return document, [((), message)]
    problems: list[Problem] = []
    plain = _plain(document, (), problems, 0)
    if problems:
        return plain, problems
    assert isinstance(plain, dict)
    version = _version_problem(plain)
    if version is not None and "version" in plain:
        return plain, [version]
    newer = _backup_version_problem(plain)
    if newer is not None:
        return plain, [newer]
    problems = []
    for error in _validator().iter_errors(plain):
        problems.extend(_describe(error))
    problems += outside(_semantic(plain), [path for path, _ in problems])
    first = [] if version is None else [version]
    return plain, first + in_document_order(_unique(problems), plain)


def _plain(value: object, path: JsonPath, problems: list[Problem], depth: int) -> object:
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
                problems.append((path, f"has a key that is not a string ({json_type(key)})"))
        return copied
    if isinstance(value, list | tuple):
        return [_plain(item, (*path, i), problems, depth + 1) for i, item in enumerate(value)]
    problems.append((path, f"is not a JSON value ({json_type(value)})"))
    return None


def _version_problem(document: Mapping[str, object]) -> Problem | None:
    if "version" not in document:
        return ("version",), f"is missing: this clockbot reads version {STATE_VERSION}"
    version = document["version"]
    if isinstance(version, bool) or not isinstance(version, int | float):
        return ("version",), f"must be the number {STATE_VERSION}, not {json_type(version)}"
    if version != STATE_VERSION:
        return (
            ("version",),
            f"unsupported version {_short(version)} (this clockbot reads version {STATE_VERSION})",
        )
    return None


def _backup_version_problem(document: Mapping[str, object]) -> Problem | None:
    """A backup block newer than this clockbot reads: reported alone, as a version is."""
    block = document.get("x_clockbot")
    version = block.get("version") if isinstance(block, Mapping) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > BACKUP_VERSION:
        return (
            ("x_clockbot", "version"),
            f"{version} was written by a newer clockbot (this one reads backups up to version "
            f"{BACKUP_VERSION}); import it with that clockbot or a newer one",
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


def _describe(error: ValidationError) -> list[Problem]:
    """One schema error as problems at the paths of the offending fields."""
    path: JsonPath = tuple(error.absolute_path)
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
        return f"must be {wanted}, not {json_type(instance)}"
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


def _unknown_field(path: JsonPath, allowed: Sequence[str]) -> str:
    if not path:
        return (
            "unknown top-level field: a version 3 document has version, users and threads, "
            "and clockbot's own extensions go under x_clockbot"
        )
    return "unknown field; allowed here: " + ", ".join(allowed)


def _semantic(document: Mapping[str, Any]) -> list[Problem]:
    """The rules the schema cannot express, checked wherever the shape allows."""
    problems: list[Problem] = []
    for user_id, user in entries(document.get("users")):
        if isinstance(user, Mapping):
            _check_user(user, ("users", user_id), problems)
    for thread_key, thread in entries(document.get("threads")):
        if isinstance(thread, Mapping):
            for name in ("session_tz", "agent_tz"):
                _check_zone(thread.get(name), ("threads", thread_key, name), problems)
    extensions = document.get("x_clockbot")
    if not isinstance(extensions, Mapping):
        return problems
    memory = extensions.get("memory")
    if isinstance(memory, list):
        _check_unique_ids(memory, ("x_clockbot", "memory"), problems)
    for part in PARTS:
        rows = extensions.get(part.name)
        if isinstance(rows, list):
            _check_part(part, rows, problems)
    polls = extensions.get("meeting_polls")
    known = (
        {row.get("id") for row in polls if isinstance(row, Mapping)}
        if isinstance(polls, list)
        else set()
    )
    for name in ("meeting_votes", "meeting_attendees"):
        rows = extensions.get(name)
        for index, row in enumerate(rows if isinstance(rows, list) else []):
            if (
                isinstance(row, Mapping)
                and isinstance(row.get("poll_id"), int)
                and row["poll_id"] not in known
            ):
                problems.append(
                    (
                        ("x_clockbot", name, index, "poll_id"),
                        "names a poll not under x_clockbot.meeting_polls",
                    )
                )
    return problems


def _check_part(part: Part, rows: list[Any], problems: list[Problem]) -> None:
    """A part's zones are IANA ids and its keys unique, as the store's are."""
    zones = [field.name for field in part.fields if field.kind == "zone?"]
    for index, row in enumerate(rows):
        if isinstance(row, Mapping):
            for name in zones:
                _check_zone(row.get(name), ("x_clockbot", part.name, index, name), problems)
    for key in part.keys:
        first: dict[tuple[object, ...], int] = {}
        for index, row in enumerate(rows):
            if not isinstance(row, Mapping):
                continue
            value = tuple(json.dumps(row.get(name), sort_keys=True) for name in key)
            if value in first:
                where = json_path(("x_clockbot", part.name, first[value]))
                problems.append(
                    (
                        ("x_clockbot", part.name, index, key[-1]),
                        f"repeats the {' and '.join(key)} of {where}",
                    )
                )
            else:
                first[value] = index


def _check_user(user: Mapping[str, Any], path: JsonPath, problems: list[Problem]) -> None:
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
    for key, activity in entries(activities):
        if isinstance(activity, Mapping):
            here = (*path, "calibration", "activity_overrides", key)
            _check_at_least(activity, "max_minutes", "typical_minutes", here, problems)


def _check_zone(value: object, path: JsonPath, problems: list[Problem]) -> None:
    if not isinstance(value, str) or not value:
        return
    try:
        require_zone(value)
    except UnknownTimezoneError as exc:
        message = f"unknown timezone {_short(value)}: use an IANA id such as Europe/Berlin"
        if exc.suggestions:
            message += "; did you mean " + ", ".join(exc.suggestions) + "?"
        problems.append((path, message))


def _check_policy(overrides: Mapping[str, object], path: JsonPath, problems: list[Problem]) -> None:
    try:
        DEFAULT_POLICY.with_overrides(overrides)
    except PolicyError as exc:
        problems.append(_policy_problem(exc, path))
    except (ClockError, TypeError, ValueError):
        problems.append((path, "is not a valid CLOCK policy block"))


def _policy_problem(exc: PolicyError, base: JsonPath) -> Problem:
    """A PolicyError (``clock.mode: ...``) as a problem under the user's overrides."""
    parts = exc.path.split(".")[1:] if exc.path.startswith("clock") else []
    path = (*base, *(int(part) if part.isdigit() else part for part in parts))
    reason = str(exc).removeprefix(f"{exc.path or '<policy>'}: ")
    notes = getattr(exc, "__notes__", ())
    if notes:
        reason += "; " + "; ".join(str(note) for note in notes)

    def relocated(match: re.Match[str]) -> str:
        tail = match.group(1).split(".")[1:]
        return json_path((*base, *(int(p) if p.isdigit() else p for p in tail)))

    return path, _POLICY_PATH.sub(relocated, reason)


def _check_action(action: Mapping[str, Any], path: JsonPath, problems: list[Problem]) -> None:
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
    item: Mapping[str, Any], high: str, low: str, path: JsonPath, problems: list[Problem]
) -> None:
    top, bottom = item.get(high), item.get(low)
    if _is_number(top) and _is_number(bottom) and top < bottom:
        problems.append(((*path, high), f"is less than {low} ({_short(top)} < {_short(bottom)})"))


def _check_unique_ids(items: list[Any], path: JsonPath, problems: list[Problem]) -> None:
    first: dict[object, int] = {}
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        value = item.get("id")
        if not isinstance(value, str | int) or isinstance(value, bool):
            continue
        if value in first:
            where = json_path((*path, first[value]))
            problems.append(((*path, index, "id"), f"repeats the id of {where}"))
        else:
            first[value] = index


def outside(problems: list[Problem], taken: Sequence[JsonPath]) -> list[Problem]:
    """The problems not at or under a path already reported."""
    return [
        problem
        for problem in problems
        if not any(problem[0][: len(prefix)] == prefix for prefix in taken)
    ]


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def in_document_order(problems: list[Problem], document: object) -> list[Problem]:
    """Sort problems as their fields appear in the document; missing keys after present ones."""
    positions: dict[int, dict[str, int]] = {}

    def key(problem: Problem) -> list[tuple[int, str]]:
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


def rendered(problems: Iterable[Problem]) -> list[tuple[str, str]]:
    return [(json_path(path), message) for path, message in problems]


def json_path(path: JsonPath) -> str:
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


def json_type(value: object) -> str:
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
    return json_type(value)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


# --------------------------------------------------------------------------- building


def build(document: Mapping[str, Any]) -> ClockState:
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
            thread_key=item.get("thread_key"),
        )
        for item in (document.get("x_clockbot") or {}).get("memory", [])
    )
    extensions = document.get("x_clockbot") or {}
    backup = {
        part.name: tuple(_build_row(part, row) for row in extensions[part.name])
        for part in PARTS
        if extensions.get(part.name)
    }
    return ClockState(users=users, threads=threads, memory=memory, backup=backup)


def _build_row(part: Part, row: Mapping[str, Any]) -> dict[str, object]:
    """A part's row as the store takes it: instants aware UTC, zones canonical, nulls kept."""
    built: dict[str, object] = {}
    for field in part.fields:
        value = row.get(field.name)
        if field.kind.startswith("instant"):
            built[field.name] = _instant(value)
        elif field.kind == "zone?":
            built[field.name] = _zone(value)
        else:
            built[field.name] = copy.deepcopy(value)
    return built


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
