"""The backup parts of CLOCK-STATE v3 (``x_clockbot``): what a person's data is beyond CLOCK.

CLOCK's document holds users, threads, actions and calibration; clockbot's own data
(reminders, repeating reminders, routes, calendar feeds, meeting polls, ...) travels under
``x_clockbot`` as *parts*: lists of rows, one part a table of the store, each row the
table's columns by name (docs/data.md, "A backup"). This module declares the parts;
`clockcore.state.check` reads them, `clockcore.state.writer` writes them, and their JSON
Schema (``$defs.backup_<part>`` in ``state/schema.json``) is generated from `PARTS`, so
the three cannot drift apart (a test compares the file with `backup_schema`).

``x_clockbot.version`` numbers this block: absent is version 1 (memory items only, as
clockbot wrote before backups held reminders), and a document of a newer version than
`BACKUP_VERSION` is refused as a whole, naming the version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

__all__ = ["BACKUP_VERSION", "PARTS", "Field", "Part", "backup_schema", "part_named"]

BACKUP_VERSION: Final = 2
"""The version of the ``x_clockbot`` block this clockbot writes and reads (and every lower)."""

Kind = Literal[
    "text", "text?", "int", "int?", "id", "id?", "bool", "instant", "instant?", "json", "zone?"
]
"""A column's kind: ``?`` may be null or left out; ``int`` is 32-bit (as the store's INTEGER
columns on PostgreSQL), ``id`` a 64-bit id from 1; instants are RFC 3339 with an offset;
``zone?`` is an IANA id; ``json`` any JSON value."""


@dataclass(frozen=True, slots=True)
class Field:
    """One column of a part's rows."""

    name: str
    kind: Kind
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Part:
    """A list of rows under ``x_clockbot.<name>``: one store table's rows (or some of its columns).

    Attributes:
        name: the key under ``x_clockbot``.
        fields: the columns each row holds.
        keys: column groups unique among the rows (each also a key in the store).
        description: what the rows are, for the schema.
    """

    name: str
    fields: tuple[Field, ...]
    keys: tuple[tuple[str, ...], ...]
    description: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields)


def _f(name: str, kind: Kind = "text", *choices: str) -> Field:
    return Field(name, kind, choices)


PARTS: Final[tuple[Part, ...]] = (
    Part(
        "people",
        (
            _f("id"),
            _f("platform_tz", "zone?"),
            _f("known_locations", "json"),
            _f("contact_window", "text?"),
            _f("last_interaction_any_channel", "text?"),
        ),
        (("id",),),
        "What clockbot keeps about a user beyond CLOCK's: the zone their platform reports, "
        "the places they named, their contact hours (HH:MM-HH:MM), their last channel.",
    ),
    Part(
        "identity_names",
        (_f("user_key"), _f("display_name")),
        (("user_key",),),
        "The name each platform last gave for an identity.",
    ),
    Part(
        "thread_stamps",
        (
            _f("thread_key"),
            _f("session_started_at", "instant?"),
            _f("last_user_message_at", "instant?"),
            _f("last_agent_message_at", "instant?"),
        ),
        (("thread_key",),),
        "A thread's stamps beyond CLOCK's last_interaction_iso.",
    ),
    Part(
        "action_details",
        (_f("id"), _f("activity", "text?"), _f("quote", "text?")),
        (("id",),),
        "A clocked action's activity class and quote, by the action's id.",
    ),
    Part(
        "routes",
        (_f("thread_key"), _f("channel"), _f("route", "json"), _f("updated_at", "instant")),
        (("thread_key",),),
        "Where a thread's messages go (a chat id, mail addresses): a reminder needs it to be sent.",
    ),
    Part(
        "schedules",
        (
            _f("id", "id"),
            _f("user_id"),
            _f("user_key"),
            _f("thread_key"),
            _f("channel"),
            _f("thread_id"),
            _f("channel_user_id", "text?"),
            _f("text"),
            _f("rrule"),
            _f("dtstart"),
            _f("zone", "zone?"),
            _f("origin_tz"),
            _f("elapsed", "bool"),
            _f("missed", "text", "one", "skip", "all"),
            _f("state", "text", "active", "paused", "ended"),
            _f("created_at", "instant"),
            _f("updated_at", "instant"),
            _f("named", "text?"),
        ),
        (("id",),),
        "Repeating reminders (s<id>): the RFC 5545 rule, DTSTART as naive wall time, "
        "the zone (null: it follows the person), the state; named: the r<id> of the "
        "one-shot reminder it was made from, which it keeps.",
    ),
    Part(
        "reminders",
        (
            _f("id", "int"),
            _f("kind", "text", "reminder", "proactive"),
            _f("channel"),
            _f("thread_id"),
            _f("thread_key"),
            _f("user_key", "text?"),
            _f("user_id", "text?"),
            _f("text"),
            _f("status", "text", "pending", "deferred"),
            _f("due_at", "instant"),
            _f("occurs_at", "instant?"),
            _f("attempts", "int"),
            _f("last_error", "text?"),
            _f("defer_reason", "text?"),
            _f("deferred_from", "instant?"),
            _f("memory_id", "id?"),
            _f("schedule_id", "id?"),
            _f("key"),
            _f("created_at", "instant"),
        ),
        (("id",), ("key",)),
        "Reminders waiting to go out (r<id>, and the next occurrence of each repeating one): "
        "pending, or deferred (paused, snoozed) with the time they were held from.",
    ),
    Part(
        "calendar_feeds",
        (_f("token_hash"), _f("user_id"), _f("created_at", "instant")),
        (("token_hash",),),
        "A person's calendar feed: the SHA-256 of the token in its URL. It restores the URL "
        "the person already has, so a backup file is as secret as that URL.",
    ),
    Part(
        "meeting_polls",
        (
            _f("id", "id"),
            _f("thread_key"),
            _f("channel"),
            _f("thread_id"),
            _f("organiser"),
            _f("minutes", "int"),
            _f("options", "json"),
            _f("voters", "json"),
            _f("status", "text", "open", "decided"),
            _f("chosen", "int?"),
            _f("closes_at", "instant"),
            _f("created_at", "instant"),
        ),
        (("id",),),
        "Meeting polls in groups: the proposed slots, who is asked, the decision.",
    ),
    Part(
        "meeting_votes",
        (_f("poll_id", "id"), _f("user_key"), _f("choices", "json"), _f("at", "instant")),
        (("poll_id", "user_key"),),
        "Each member's answer to a poll (the 1-based options they can make).",
    ),
    Part(
        "meeting_attendees",
        (_f("poll_id", "id"), _f("user_key")),
        (("poll_id", "user_key"),),
        "Who is in the meeting a poll decided.",
    ),
)
"""Every part, in the order an import writes them (a vote after its poll)."""


def part_named(name: str) -> Part:
    """The part under ``x_clockbot.<name>``."""
    for part in PARTS:
        if part.name == name:
            return part
    raise KeyError(name)


_KIND_SCHEMAS: dict[str, dict[str, Any]] = {
    "text": {"type": "string"},
    "text?": {"type": ["string", "null"]},
    "int": {"type": "integer", "minimum": 0, "maximum": 2147483647},
    "int?": {"type": ["integer", "null"], "minimum": 0, "maximum": 2147483647},
    "id": {"type": "integer", "minimum": 1, "maximum": 9223372036854775807},
    "id?": {"type": ["integer", "null"], "minimum": 1, "maximum": 9223372036854775807},
    "bool": {"type": "boolean"},
    "instant": {"$ref": "#/$defs/instant"},
    "instant?": {"$ref": "#/$defs/optional_instant"},
    "json": {},
    "zone?": {"$ref": "#/$defs/zone"},
}


def _field_schema(field: Field) -> dict[str, Any]:
    if field.choices:
        return {"enum": list(field.choices)}
    if field.name == "id" and field.kind == "int":
        return {**_KIND_SCHEMAS["int"], "minimum": 1}
    return dict(_KIND_SCHEMAS[field.kind])


def backup_schema() -> dict[str, Any]:
    """The ``x_clockbot`` properties and the ``$defs`` of each part's rows, from `PARTS`."""
    properties: dict[str, Any] = {
        "version": {
            "description": (
                "The version of this block: 1 when left out (memory only); "
                f"this clockbot writes {BACKUP_VERSION}."
            ),
            "type": "integer",
            "minimum": 1,
        },
    }
    definitions: dict[str, Any] = {}
    for part in PARTS:
        properties[part.name] = {
            "description": part.description,
            "type": "array",
            "items": {"$ref": f"#/$defs/backup_{part.name}"},
        }
        definitions[f"backup_{part.name}"] = {
            "type": "object",
            "required": [f.name for f in part.fields if not f.kind.endswith("?")],
            "additionalProperties": False,
            "properties": {f.name: _field_schema(f) for f in part.fields},
        }
    return {"properties": properties, "$defs": definitions}
