"""A checked state document as its values: `ClockState` with instants aware UTC, zones canonical."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import datetime
from typing import Any, cast

from clockcore.actions import ActionSource, ActionStatus
from clockcore.geo.zones import require_zone
from clockcore.policy import ThreadKind
from clockcore.state.backup import PARTS, Part
from clockcore.state.instants import instant_or_none
from clockcore.state.values import (
    ActionState,
    CalibrationState,
    ChannelStamps,
    ClockState,
    MemoryState,
    ThreadState,
    UserState,
)

__all__ = ["build"]


def build(document: Mapping[str, Any]) -> ClockState:
    """The values of `document`, which passed `clockcore.state.check.check`."""
    users = {key: _build_user(value) for key, value in document.get("users", {}).items()}
    threads = {key: _build_thread(value) for key, value in document.get("threads", {}).items()}
    memory = tuple(
        MemoryState(
            id=int(item["id"]),
            user_id=item["user_id"],
            content=item["content"],
            created_at=_required_instant(item["created_iso"]),
            due_at=instant_or_none(item.get("due_iso")),
            reminded_at=instant_or_none(item.get("reminded_iso")),
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
            built[field.name] = instant_or_none(value)
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
        last_interaction_any_channel_at=instant_or_none(
            user.get("last_interaction_any_channel_iso")
        ),
        channels={
            key: ChannelStamps(
                last_user_message_at=instant_or_none(stamps.get("last_user_message_iso")),
                last_agent_message_at=instant_or_none(stamps.get("last_agent_message_iso")),
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
        last_interaction_at=instant_or_none(thread.get("last_interaction_iso")),
        last_user_message_at_by_user={
            user_id: _required_instant(stamp)
            for user_id, stamp in thread.get("last_user_message_iso_by_user", {}).items()
        },
    )


def _required_instant(value: object) -> datetime:
    instant = instant_or_none(value)
    assert instant is not None  # the document validated
    return instant


def _zone(value: object) -> str | None:
    return require_zone(value) if isinstance(value, str) else None


def _optional_int(value: object) -> int | None:
    return None if value is None else int(cast(float, value))
