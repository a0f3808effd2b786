"""Checking a CLOCK-STATE v3 document: the schema, and the rules a schema cannot express.

The schema check runs jsonschema with our own date-time format
(`clockcore.state.instants`); each problem names its JSON path and quotes at
most a short scalar (`clockcore.state.problems`). A document that passes is
built into values by `clockcore.state.build` (`document.load_state`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any, TypeGuard

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from clockcore.errors import (
    ClockError,
    PolicyError,
    UnknownTimezoneError,
)
from clockcore.geo.zones import require_zone
from clockcore.policy import DEFAULT_POLICY
from clockcore.state.backup import BACKUP_VERSION, PARTS, Part
from clockcore.state.instants import instant_or_none, read_instant
from clockcore.state.problems import (
    JsonPath,
    Problem,
    in_document_order,
    json_path,
    json_type,
    outside,
    short,
)
from clockcore.state.values import (
    STATE_VERSION,
)

_SCHEMA_FILE = "schema.json"
_MAX_DEPTH = 64

_POLICY_PATH = re.compile(r"\bclock((?:\.[A-Za-z0-9_]+)+)")


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


def _is_instant_text(instance: object) -> bool:
    return not isinstance(instance, str) or isinstance(read_instant(instance), datetime)


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
            f"unsupported version {short(version)} (this clockbot reads version {STATE_VERSION})",
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
                f"{short(instance)} is CLOCK's placeholder listing the alternatives; "
                f"write one of them: {choices}"
            )
        return f"{short(instance)} is not allowed here; use one of: {choices}"
    if keyword in ("pattern", "format") and isinstance(instance, str):
        reason = read_instant(instance)
        return f"{short(instance)} {reason}" if isinstance(reason, str) else "is not valid"
    if keyword == "minLength":
        return "must not be empty"
    if keyword == "minimum":
        return f"must be at least {expected}, not {short(instance)}"
    if keyword == "maximum":
        return f"must be at most {expected}, not {short(instance)}"
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
        message = f"unknown timezone {short(value)}: use an IANA id such as Europe/Berlin"
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
    recorded = instant_or_none(action.get("recorded_iso"))
    expires = instant_or_none(action.get("expires_iso"))
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
        problems.append(((*path, high), f"is less than {low} ({short(top)} < {short(bottom)})"))


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


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)
