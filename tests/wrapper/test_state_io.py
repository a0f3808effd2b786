"""CLOCK-STATE.json v3 export and import, through the wrapper, on SQLite and PostgreSQL."""

from __future__ import annotations

import copy
from datetime import timedelta
from pathlib import Path

import pytest

from clockcore import SettableClock, load_state
from tests.support import staged
from wrapper import InteractionWrapper, StateImportError

TG = {"channel": "telegram", "thread_id": "dm:42", "user_id": "42"}

# docs/clock-spec.md §10.2's example, with its placeholders filled in as a user of the
# CLOCK skill would have them.
SKILL_FILE = {
    "version": 3,
    "users": {
        "ryan": {
            "default_tz": "Asia/Tokyo",
            "policy_overrides": {"mode": "light"},
            "last_interaction_any_channel_iso": "2026-02-09T10:00:00+09:00",
            "channels": {
                "telegram": {
                    "last_user_message_iso": "2026-02-09T10:00:00+09:00",
                    "last_agent_message_iso": "2026-02-09T10:00:05+09:00",
                }
            },
            "latest_actions": [
                {
                    "id": "act_9f3c",
                    "label": "Eat dinner",
                    "type": "temporal_action",
                    "status": "planned",
                    "recorded_iso": "2026-02-09T18:10:00+09:00",
                    "expected_typical_minutes": 75,
                    "expected_max_minutes": 180,
                    "expires_iso": "2026-02-10T18:10:00+09:00",
                    "thread_key": "agent:main:telegram:dm:ryan",
                    "source": "clock_it",
                }
            ],
            "calibration": {
                "activity_overrides": {
                    "meal:dinner": {
                        "typical_minutes": 90,
                        "max_minutes": 240,
                        "updated_iso": "2026-02-01T12:00:00+09:00",
                    }
                }
            },
        }
    },
    "threads": {
        "agent:main:telegram:dm:ryan": {
            "thread_kind": "conversation",
            "session_tz": "Asia/Tokyo",
            "agent_tz": "Europe/Berlin",
            "delta_hours": 8,
            "participants": ["ryan"],
            "last_interaction_iso": "2026-02-09T10:00:05+09:00",
            "last_user_message_iso_by_user": {"ryan": "2026-02-09T10:00:00+09:00"},
        }
    },
}


async def _busy_store(wrapper: InteractionWrapper, clock: SettableClock) -> None:
    await wrapper.on_user_message(text="clock: home tz America/Los_Angeles", message_id="1", **TG)
    await wrapper.on_user_message(text="clock it: going to the gym", message_id="2", **TG)
    await wrapper.on_user_message(
        channel="telegram", thread_id="group:-5", user_id="7", text="clock: kind project",
        message_id="3",
    )  # fmt: skip
    await staged.remember(
        wrapper,
        user_key="telegram:42",
        content="dentist",
        due_at=clock.now() + timedelta(days=1),
    )
    await staged.remember(wrapper, user_key="telegram:7", content="no date")
    clock.advance(minutes=3)
    await staged.delivered(
        wrapper, channel="telegram", thread_id="dm:42", user_id="42", text="have fun"
    )


async def test_export_import_export_is_the_same_document(
    wrapper: InteractionWrapper, clock: SettableClock, tmp_path: Path, database_url: str
) -> None:
    await _busy_store(wrapper, clock)
    exported = await wrapper.export_state()
    load_state(exported)
    assert exported["version"] == 3
    assert len(exported["users"]) == 2  # type: ignore[arg-type]

    empty_url = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    fresh = await InteractionWrapper.open(empty_url, agent_tz="UTC", clock=clock)
    try:
        assert (await fresh.export_state())["users"] == {}
        await fresh.import_state(exported)
        assert await fresh.export_state() == exported
        # the store works on after an import: ids continue, nothing collides
        new_id = await staged.remember(fresh, user_key="telegram:42", content="after import")
        assert new_id > 2
    finally:
        await fresh.close()


async def test_import_into_the_same_backend_round_trips(
    wrapper: InteractionWrapper, clock: SettableClock
) -> None:
    await _busy_store(wrapper, clock)
    exported = await wrapper.export_state()
    await wrapper.import_state(exported)  # replacing rows with themselves
    assert await wrapper.export_state() == exported
    new_id = await staged.remember(wrapper, user_key="telegram:42", content="later")
    assert new_id >= 2**32  # a chosen id (`new_memory_id`), clear of imported ones
    [found] = await wrapper.recall(user_key="telegram:42", query="later")
    assert found.id == new_id


async def test_a_clock_md_skill_file_imports(wrapper: InteractionWrapper) -> None:
    await wrapper.import_state(copy.deepcopy(SKILL_FILE))
    exported = await wrapper.export_state()
    ryan = exported["users"]["ryan"]  # type: ignore[index]
    assert ryan["default_tz"] == "Asia/Tokyo"
    assert list(ryan["channels"]) == ["telegram:ryan"]
    assert ryan["latest_actions"][0]["label"] == "Eat dinner"
    assert ryan["calibration"]["activity_overrides"]["meal:dinner"]["typical_minutes"] == 90
    thread = exported["threads"]["agent:main:telegram:dm:ryan"]  # type: ignore[index]
    assert thread["participants"] == ["ryan"]
    assert thread["last_user_message_iso_by_user"] == {"ryan": "2026-02-09T10:00:00+09:00"}


@pytest.mark.parametrize(
    ("mutate", "path_part"),
    [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d["users"]["ryan"]["latest_actions"][0].update(status="sleeping"), "status"),
        (lambda d: d["users"]["ryan"].update(default_tz="EST"), "default_tz"),
        (
            lambda d: d["users"]["ryan"]["latest_actions"][0].update(
                source="auto|clock_it|user_confirmed"
            ),
            "source",
        ),
        (
            lambda d: d["threads"]["agent:main:telegram:dm:ryan"].update(
                last_interaction_iso="2026-02-09T10:00:05"
            ),
            "last_interaction_iso",
        ),
    ],
)
async def test_a_bad_file_is_refused_and_changes_nothing(
    wrapper: InteractionWrapper, clock: SettableClock, mutate: object, path_part: str
) -> None:
    await _busy_store(wrapper, clock)
    before = await wrapper.export_state()
    document = copy.deepcopy(SKILL_FILE)
    mutate(document)  # type: ignore[operator]
    with pytest.raises(StateImportError) as refused:
        await wrapper.import_state(document)
    assert any(path_part in path for path, _ in refused.value.problems)
    assert "nothing changed" in str(refused.value)
    assert await wrapper.export_state() == before


async def test_not_a_document_is_refused(wrapper: InteractionWrapper) -> None:
    with pytest.raises(StateImportError, match="version"):
        await wrapper.import_state({"users": {}})
