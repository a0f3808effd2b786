"""CLOCK-STATE.json version 3 (docs/clock-spec.md §10.2): its schema, validation and typed values.

The wrapper keeps state in its database; this module is the pure part of
export and import. `load_state` checks a parsed JSON document against the
packaged schema (``state/schema.json``) and against the rules a schema cannot
express, then builds a `ClockState`; `dump_state` writes a `ClockState` back
as a document that `load_state` reads to an equal value. The values are in
`clockcore.state.values`, the checks and the building in `clockcore.state.check`,
the writer in `clockcore.state.writer`; this module is their public face.

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
from collections.abc import Callable, Mapping, Sequence

from clockcore.errors import StateError
from clockcore.state.build import build
from clockcore.state.check import check, entries, known_fields, schema
from clockcore.state.problems import JsonPath, in_document_order, json_path, outside, rendered
from clockcore.state.values import (
    ACTION_SOURCES,
    ACTION_STATUSES,
    STATE_VERSION,
    THREAD_KINDS,
    ActionState,
    CalibrationState,
    ChannelStamps,
    ClockState,
    MemoryState,
    ThreadState,
    UserState,
)
from clockcore.state.writer import Writer

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


# --------------------------------------------------------------------------- public API


def state_schema() -> Mapping[str, object]:
    """The JSON Schema (draft 2020-12) of a version 3 document, as a fresh copy."""
    return copy.deepcopy(schema())


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
    plain, problems = check(document)
    if problems:
        raise StateError(rendered(problems))
    assert isinstance(plain, dict)
    return build(plain)


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
    writer = Writer(state, zone_for)
    document = writer.document()
    plain, problems = check(document)
    taken = [path for path, _ in writer.problems]
    problems = in_document_order(writer.problems + outside(problems, taken), plain)
    if problems:
        raise StateError(rendered(problems))
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
    known = known_fields()
    found: list[str] = []

    def extras(value: object, kind: str, path: JsonPath) -> Mapping[str, object]:
        if not isinstance(value, Mapping):
            return {}
        found.extend(
            json_path((*path, key))
            for key in value
            if isinstance(key, str) and key not in known[kind]
        )
        return value

    top = document if isinstance(document, Mapping) else {}
    for user_id, user_value in entries(top.get("users")):
        user_path: JsonPath = ("users", user_id)
        user = extras(user_value, "user", user_path)
        for key, channel in entries(user.get("channels")):
            extras(channel, "channel", (*user_path, "channels", key))
        actions = user.get("latest_actions")
        if isinstance(actions, Sequence) and not isinstance(actions, str):
            for index, action in enumerate(actions):
                extras(action, "action", (*user_path, "latest_actions", index))
        calibration = extras(user.get("calibration"), "calibration", (*user_path, "calibration"))
        for key, activity in entries(calibration.get("activity_overrides")):
            path = (*user_path, "calibration", "activity_overrides", key)
            extras(activity, "activity", path)
    for thread_key, thread in entries(top.get("threads")):
        extras(thread, "thread", ("threads", thread_key))
    return tuple(found)
