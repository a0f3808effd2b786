"""Writing CLOCK-STATE v3 values back as a document (`clockcore.state.document.dump_state`)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from datetime import datetime

from clockcore.clock import as_utc
from clockcore.errors import (
    NaiveDatetimeError,
)
from clockcore.geo.zones import canonical_zone, require_zone
from clockcore.state.backup import BACKUP_VERSION, PARTS, Part
from clockcore.state.instants import OUT_OF_RANGE, render_instant
from clockcore.state.problems import JsonPath, Problem, json_type
from clockcore.state.values import (
    STATE_VERSION,
    ActionState,
    ClockState,
    MemoryState,
    ThreadState,
    UserState,
)

# --------------------------------------------------------------------------- dumping


class Writer:
    """Turns a `ClockState` into a document, noting values it cannot write."""

    def __init__(self, state: ClockState, zone_for: Callable[[str], str | None] | None) -> None:
        self.state = state
        self.zone_for = zone_for
        self.problems: list[Problem] = []
        self._zones: dict[str, str] = {}

    def document(self) -> dict[str, object]:
        state = self.state
        document: dict[str, object] = {
            "version": STATE_VERSION,
            "users": {key: self.user(key, user) for key, user in state.users.items()},
            "threads": {key: self.thread(key, thread) for key, thread in state.threads.items()},
        }
        if state.memory or any(state.backup.values()):
            # Only the lists that hold something: a store without meetings says nothing of them.
            extensions: dict[str, object] = {"version": BACKUP_VERSION}
            if state.memory:
                extensions["memory"] = [
                    self.memory_item(index, item) for index, item in enumerate(state.memory)
                ]
            for part in PARTS:
                rows = state.backup.get(part.name, ())
                if rows:
                    extensions[part.name] = [self.row(part, i, row) for i, row in enumerate(rows)]
            document["x_clockbot"] = extensions
        return document

    def row(self, part: Part, index: int, row: object) -> dict[str, object]:
        """A backup part's row: instants in UTC, zones canonical, nulls left out."""
        path: JsonPath = ("x_clockbot", part.name, index)
        if not isinstance(row, Mapping):
            self.problems.append((path, f"must be a mapping of columns, not {json_type(row)}"))
            return {}
        written: dict[str, object] = {}
        for field in part.fields:
            value = row.get(field.name)
            if value is None:
                if field.kind == "json":
                    written[field.name] = None
                elif not field.kind.endswith("?"):
                    self.problems.append(((*path, field.name), "is required but missing"))
                continue
            if field.kind.startswith("instant"):
                written[field.name] = self.instant(value, "UTC", (*path, field.name))
            elif field.kind == "zone?":
                written[field.name] = _canonical_or_same(str(value))
            else:
                written[field.name] = copy.deepcopy(value)
        return written

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

    def instant(self, value: object, zone: str, path: JsonPath) -> str | None:
        if not isinstance(value, datetime):
            self.problems.append((path, f"must be a datetime, not {json_type(value)}"))
            return None
        try:
            instant = as_utc(value)
        except OverflowError:
            self.problems.append((path, OUT_OF_RANGE))
            return None
        except NaiveDatetimeError:
            self.problems.append((path, "is a naive datetime; instants must be aware"))
            return None
        return render_instant(instant, zone)

    def optional(
        self, target: dict[str, object], name: str, value: object, zone: str, path: JsonPath
    ) -> None:
        if value is not None:
            target[name] = self.instant(value, zone, (*path, name))

    def user(self, user_id: str, user: UserState) -> dict[str, object]:
        path: JsonPath = ("users", user_id)
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

    def action(self, action: ActionState, zone: str, path: JsonPath) -> dict[str, object]:
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
        path: JsonPath = ("threads", thread_key)
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
        path: JsonPath = ("x_clockbot", "memory", index)
        zone = self.zone_of(item.user_id) if isinstance(item.user_id, str) else "UTC"
        written: dict[str, object] = {
            "id": item.id,
            "user_id": item.user_id,
            "content": item.content,
            "created_iso": self.instant(item.created_at, zone, (*path, "created_iso")),
        }
        self.optional(written, "due_iso", item.due_at, zone, path)
        self.optional(written, "reminded_iso", item.reminded_at, zone, path)
        if item.thread_key is not None:
            written["thread_key"] = item.thread_key
        return written


def _canonical_or_same(zone: str) -> str:
    """The canonical spelling of a zone; an unknown one as is, for validation to report."""
    return (canonical_zone(zone) if isinstance(zone, str) else None) or zone


def _number(value: float) -> float | int:
    """A whole float as an int (``8`` rather than ``8.0``), as CLOCK writes it."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value
