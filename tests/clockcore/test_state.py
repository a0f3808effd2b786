"""Tests for clockcore.state.document: the CLOCK-STATE.json v3 schema, validation and round trips."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from clockcore.errors import ClockError, StateError, UnknownTimezoneError
from clockcore.state.document import (
    ACTION_SOURCES,
    ACTION_STATUSES,
    THREAD_KINDS,
    ActionState,
    CalibrationState,
    ChannelStamps,
    ClockState,
    MemoryState,
    ThreadState,
    UserState,
    dump_state,
    ignored_fields,
    load_state,
    state_schema,
)

# docs/clock-spec.md §10.2, verbatim.
SECTION_10_2 = """
{
  "version": 3,
  "users": {
    "<user_id>": {
      "default_tz": "Asia/Tokyo",
      "policy_overrides": {
        "mode": "light"
      },
      "last_interaction_any_channel_iso": "2026-02-09T10:00:00+09:00",
      "channels": {
        "<channel_key>": {
          "last_user_message_iso": "2026-02-09T10:00:00+09:00",
          "last_agent_message_iso": "2026-02-09T10:00:05+09:00"
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
          "thread_key": "agent:main:chat:dm:<user_id>",
          "source": "auto|clock_it|user_confirmed"
        }
      ],
      "calibration": {
        "activity_overrides": {
          "meal:dinner": {
            "typical_minutes": 90,
            "max_minutes": 240,
            "updated_iso": "2026-02-01T12:00:00+09:00"
          }
        }
      }
    }
  },
  "threads": {
    "<thread_key>": {
      "thread_kind": "project|conversation|scheduling|operations",
      "session_tz": "Asia/Tokyo",
      "agent_tz": "Europe/Berlin",
      "delta_hours": 8,
      "participants": ["<user_id>", "<user_id_2>"],
      "last_interaction_iso": "2026-02-09T10:00:05+09:00",
      "last_user_message_iso_by_user": {
        "<user_id>": "2026-02-09T10:00:00+09:00"
      }
    }
  }
}
"""

USER = "telegram:42"
THREAD = "agent:main:telegram:dm:42"
FILLED_10_2 = (
    SECTION_10_2.replace("<user_id_2>", "telegram:43")
    .replace("<user_id>", USER)
    .replace("<channel_key>", "telegram")
    .replace("<thread_key>", THREAD)
    .replace('"auto|clock_it|user_confirmed"', '"clock_it"')
    .replace('"project|conversation|scheduling|operations"', '"project"')
)
U = f"$.users['{USER}']"
T = f"$.threads['{THREAD}']"


def example() -> dict[str, Any]:
    """A fresh copy of the filled §10.2 example."""
    document = json.loads(FILLED_10_2)
    assert isinstance(document, dict)
    return document


def problems_of(document: object) -> dict[str, str]:
    with pytest.raises(StateError) as caught:
        load_state(document)
    return dict(caught.value.problems)


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def at(document: object, *path: str | int) -> Any:
    """The value at `path` inside a dumped document."""
    node: Any = document
    for part in path:
        node = node[part]
    return node


# --------------------------------------------------------------------------- the §10.2 example


def test_the_filled_clock_example_loads_into_values() -> None:
    state = load_state(example())
    user = state.users[USER]
    assert user.default_tz == "Asia/Tokyo"
    assert user.policy_overrides == {"mode": "light"}
    assert user.last_interaction_any_channel_at == utc(2026, 2, 9, 1, 0)
    assert user.channels == {
        "telegram": ChannelStamps(utc(2026, 2, 9, 1, 0), utc(2026, 2, 9, 1, 0, 5))
    }
    assert user.latest_actions == (
        ActionState(
            id="act_9f3c",
            label="Eat dinner",
            type="temporal_action",
            status="planned",
            recorded_at=utc(2026, 2, 9, 9, 10),
            expires_at=utc(2026, 2, 10, 9, 10),
            thread_key=f"agent:main:chat:dm:{USER}",
            source="clock_it",
            expected_typical_minutes=75,
            expected_max_minutes=180,
        ),
    )
    assert user.calibration == {"meal:dinner": CalibrationState(90, 240, utc(2026, 2, 1, 3, 0))}
    assert state.threads == {
        THREAD: ThreadState(
            thread_kind="project",
            session_tz="Asia/Tokyo",
            agent_tz="Europe/Berlin",
            delta_hours=8.0,
            participants=(USER, "telegram:43"),
            last_interaction_at=utc(2026, 2, 9, 1, 0, 5),
            last_user_message_at_by_user={USER: utc(2026, 2, 9, 1, 0)},
        )
    }
    assert state.memory == ()


def test_loaded_instants_are_aware_utc() -> None:
    action = load_state(example()).users[USER].latest_actions[0]
    assert action.recorded_at.tzinfo is UTC
    assert action.recorded_at.utcoffset() == timedelta(0)


def test_the_filled_example_dumps_back_to_itself_and_round_trips() -> None:
    state = load_state(example())
    document = dump_state(state)
    assert document == example()
    assert load_state(document) == state
    assert json.loads(json.dumps(document)) == document


def test_the_unfilled_example_names_both_placeholder_literals() -> None:
    problems = problems_of(json.loads(SECTION_10_2))
    assert set(problems) == {
        "$.users['<user_id>'].latest_actions[0].source",
        "$.threads['<thread_key>'].thread_kind",
    }
    source = problems["$.users['<user_id>'].latest_actions[0].source"]
    assert "placeholder" in source
    assert "auto, clock_it, user_confirmed" in source
    assert (
        "project, conversation, scheduling, operations"
        in (problems["$.threads['<thread_key>'].thread_kind"])
    )


# --------------------------------------------------------------------------- dumping


def built_state() -> ClockState:
    """A state written by hand: several zones, a user without a zone, memory."""
    return ClockState(
        users={
            "slack:T1:U1": UserState(
                default_tz="Asia/Kathmandu",
                policy_overrides={"checkins": {"enabled": False}},
                last_interaction_any_channel_at=utc(2026, 3, 1, 6, 15),
                channels={"slack": ChannelStamps(utc(2026, 3, 1, 6, 15), None)},
                latest_actions=(
                    ActionState(
                        id="act_1",
                        label="Go to the gym",
                        type="temporal_action",
                        status="in_progress",
                        recorded_at=utc(2026, 3, 1, 6, 0),
                        expires_at=utc(2026, 3, 2, 6, 0),
                        thread_key="agent:main:slack:T1:C1:1.2",
                        source="auto",
                    ),
                ),
            ),
            "email:ann@example.org": UserState(),
        },
        threads={
            "agent:main:slack:T1:C1:1.2": ThreadState(
                thread_kind="operations",
                session_tz="America/New_York",
                agent_tz="UTC",
                delta_hours=-5.0,
                participants=("slack:T1:U1", "slack:T1:U9"),
                last_interaction_at=utc(2026, 3, 1, 6, 15),
                last_user_message_at_by_user={
                    "slack:T1:U1": utc(2026, 3, 1, 6, 15),
                    "slack:T1:U9": utc(2026, 3, 1, 5, 0),
                },
            )
        },
        memory=(
            MemoryState(
                id=7,
                user_id="email:ann@example.org",
                content="call the bank",
                created_at=utc(2026, 3, 1, 9, 0, 0),
                due_at=datetime(2026, 3, 2, 9, 30, 0, 250000, tzinfo=UTC),
            ),
        ),
    )


BUILT_DOCUMENT = {
    "version": 3,
    "users": {
        "slack:T1:U1": {
            "default_tz": "Asia/Kathmandu",
            "policy_overrides": {"checkins": {"enabled": False}},
            "last_interaction_any_channel_iso": "2026-03-01T12:00:00+05:45",
            "channels": {"slack": {"last_user_message_iso": "2026-03-01T12:00:00+05:45"}},
            "latest_actions": [
                {
                    "id": "act_1",
                    "label": "Go to the gym",
                    "type": "temporal_action",
                    "status": "in_progress",
                    "recorded_iso": "2026-03-01T11:45:00+05:45",
                    "expires_iso": "2026-03-02T11:45:00+05:45",
                    "thread_key": "agent:main:slack:T1:C1:1.2",
                    "source": "auto",
                }
            ],
            "calibration": {"activity_overrides": {}},
        },
        "email:ann@example.org": {
            "channels": {},
            "latest_actions": [],
            "calibration": {"activity_overrides": {}},
        },
    },
    "threads": {
        "agent:main:slack:T1:C1:1.2": {
            "thread_kind": "operations",
            "session_tz": "America/New_York",
            "agent_tz": "UTC",
            "delta_hours": -5,
            "participants": ["slack:T1:U1", "slack:T1:U9"],
            # The thread's own stamp in its session zone; per-user stamps in the user's zone.
            "last_interaction_iso": "2026-03-01T01:15:00-05:00",
            "last_user_message_iso_by_user": {
                "slack:T1:U1": "2026-03-01T12:00:00+05:45",
                "slack:T1:U9": "2026-03-01T05:00:00+00:00",
            },
        }
    },
    "x_clockbot": {
        "version": 2,
        "memory": [
            {
                "id": 7,
                "user_id": "email:ann@example.org",
                "content": "call the bank",
                "created_iso": "2026-03-01T09:00:00+00:00",
                "due_iso": "2026-03-02T09:30:00.250000+00:00",
            }
        ],
    },
}


def test_dump_writes_every_field_as_the_schema_spells_it() -> None:
    assert dump_state(built_state()) == BUILT_DOCUMENT


def test_a_built_state_round_trips() -> None:
    state = built_state()
    assert load_state(dump_state(state)) == state


def test_zone_for_answers_for_users_the_state_has_no_zone_for() -> None:
    asked: list[str] = []

    def zone_for(user_id: str) -> str | None:
        asked.append(user_id)
        return "Australia/Lord_Howe" if user_id == "email:ann@example.org" else None

    document = dump_state(built_state(), zone_for=zone_for)
    memory = at(document, "x_clockbot", "memory", 0)
    # Lord Howe is +11:00 in March (its DST shift is half an hour).
    assert memory["created_iso"] == "2026-03-01T20:00:00+11:00"
    by_user = at(document, "threads", "agent:main:slack:T1:C1:1.2")
    assert by_user["last_user_message_iso_by_user"]["slack:T1:U9"] == "2026-03-01T05:00:00+00:00"
    assert "slack:T1:U1" not in asked  # the state's own default_tz wins
    assert load_state(document) == built_state()


def test_zone_for_giving_a_non_zone_is_a_programming_error() -> None:
    with pytest.raises(UnknownTimezoneError):
        dump_state(built_state(), zone_for=lambda _user: "Mars/Olympus")


def test_dump_refuses_a_naive_datetime_naming_its_path() -> None:
    state = ClockState(
        users={"u1": UserState(last_interaction_any_channel_at=datetime(2026, 1, 1))}  # noqa: DTZ001
    )
    with pytest.raises(StateError) as caught:
        dump_state(state)
    assert caught.value.problems == (
        (
            "$.users.u1.last_interaction_any_channel_iso",
            "is a naive datetime; instants must be aware",
        ),
    )


def test_dump_refuses_a_state_that_would_not_load() -> None:
    action = built_state().users["slack:T1:U1"].latest_actions[0]
    backwards = dataclasses.replace(action, expires_at=action.recorded_at - timedelta(minutes=1))
    state = ClockState(users={"u1": UserState(default_tz="EST", latest_actions=(backwards,))})
    with pytest.raises(StateError) as caught:
        dump_state(state)
    paths = [path for path, _ in caught.value.problems]
    assert paths == ["$.users.u1.default_tz", "$.users.u1.latest_actions[0].expires_iso"]


def test_an_instant_in_local_mean_time_is_written_in_utc() -> None:
    # Tokyo was +09:18:59 before 1888: not a whole-minute offset, so UTC is written.
    old = utc(1880, 5, 1, 12, 0)
    state = ClockState(
        users={"u1": UserState(default_tz="Asia/Tokyo", last_interaction_any_channel_at=old)}
    )
    document = dump_state(state)
    assert at(document, "users", "u1", "last_interaction_any_channel_iso") == (
        "1880-05-01T12:00:00+00:00"
    )
    assert load_state(document) == state


def test_zones_are_written_in_their_canonical_spelling() -> None:
    state = ClockState(users={"u1": UserState(default_tz="asia/tokyo")})
    assert at(dump_state(state), "users", "u1", "default_tz") == "Asia/Tokyo"


# --------------------------------------------------------------------------- leniency


def test_containers_may_be_left_out_and_scalars_may_be_null() -> None:
    document = {
        "version": 3,
        "users": {
            "u1": {
                "default_tz": None,
                "policy_overrides": None,
                "last_interaction_any_channel_iso": None,
            }
        },
        "threads": {"t1": {"thread_kind": "conversation", "delta_hours": None}},
    }
    assert load_state(document) == ClockState(
        users={"u1": UserState()}, threads={"t1": ThreadState()}
    )
    assert load_state({"version": 3}) == ClockState()


def test_unknown_keys_in_spec_objects_are_ignored_and_listed() -> None:
    document = example()
    document["users"][USER]["nickname"] = "R"
    document["users"][USER]["latest_actions"][0]["quote"] = "I'm going to eat dinner"
    document["threads"][THREAD]["topic"] = "launch"
    assert load_state(document) == load_state(example())
    assert ignored_fields(document) == (
        f"{U}.nickname",
        f"{U}.latest_actions[0].quote",
        f"{T}.topic",
    )
    assert ignored_fields(example()) == ()


def test_zones_are_read_to_their_canonical_spelling() -> None:
    document = example()
    document["users"][USER]["default_tz"] = "asia/tokyo"
    document["threads"][THREAD]["agent_tz"] = "europe/berlin"
    state = load_state(document)
    assert state.users[USER].default_tz == "Asia/Tokyo"
    assert state.threads[THREAD].agent_tz == "Europe/Berlin"


def test_lower_case_t_and_z_and_fractions_are_read() -> None:
    document = example()
    document["users"][USER]["last_interaction_any_channel_iso"] = "2026-02-09t01:00:00.5z"
    state = load_state(document)
    assert state.users[USER].last_interaction_any_channel_at == datetime(
        2026, 2, 9, 1, 0, 0, 500000, tzinfo=UTC
    )


def test_participants_need_not_be_known_users_and_delta_may_be_fractional() -> None:
    document = example()
    document["threads"][THREAD]["participants"] = ["whatsapp:1", "telegram:99"]
    document["threads"][THREAD]["delta_hours"] = 5.75
    thread = load_state(document).threads[THREAD]
    assert thread.participants == ("whatsapp:1", "telegram:99")
    assert thread.delta_hours == 5.75


def test_memory_round_trips_under_x_clockbot() -> None:
    document = example()
    document["x_clockbot"] = {
        "memory": [
            {
                "id": 1,
                "user_id": USER,
                "content": "dentist",
                "created_iso": "2026-02-09T10:00:00+09:00",
                "due_iso": "2026-02-12T15:00:00+09:00",
                "reminded_iso": "2026-02-12T14:00:00+09:00",
            }
        ]
    }
    state = load_state(document)
    assert state.memory == (
        MemoryState(
            1, USER, "dentist", utc(2026, 2, 9, 1), utc(2026, 2, 12, 6), utc(2026, 2, 12, 5)
        ),
    )
    # A version 1 block (memory only, no version) is read, and written again as version 2.
    assert dump_state(state) == {**document, "x_clockbot": {"version": 2, **document["x_clockbot"]}}


# --------------------------------------------------------------------------- bad input

Mutation = Callable[[dict[str, Any]], object]


def _set(*path: str | int, value: object) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        node: Any = document
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return mutate


def _delete(*path: str | int) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        node: Any = document
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]

    return mutate


ACTION = ("users", USER, "latest_actions", 0)
A = f"{U}.latest_actions[0]"
CAL = ("users", USER, "calibration", "activity_overrides", "meal:dinner")

BAD_INPUT = [
    # (name, mutation, JSON path, a fragment of the message)
    ("naive", _set(*ACTION, "recorded_iso", value="2026-02-09T18:10:00"), f"{A}.recorded_iso",
     "has no UTC offset"),
    ("date only", _set("users", USER, "last_interaction_any_channel_iso", value="2026-02-09"),
     f"{U}.last_interaction_any_channel_iso", "has no UTC offset"),
    ("no seconds", _set(*ACTION, "expires_iso", value="2026-02-10T18:10+09:00"),
     f"{A}.expires_iso", "not an RFC 3339 timestamp"),
    ("month 13", _set(*CAL, "updated_iso", value="2026-13-01T12:00:00+09:00"),
     f"{U}.calibration.activity_overrides['meal:dinner'].updated_iso", "not a real date"),
    ("offset 24h", _set("threads", THREAD, "last_interaction_iso",
     value="2026-02-09T10:00:05+24:00"), f"{T}.last_interaction_iso", "24 hours"),
    ("year 1", _set("threads", THREAD, "last_user_message_iso_by_user", USER,
     value="0001-01-01T00:00:00+01:00"), f"{T}.last_user_message_iso_by_user['{USER}']",
     "outside the supported range"),
    ("timestamp number", _set("users", USER, "channels", "telegram", "last_user_message_iso",
     value=1770598800), f"{U}.channels.telegram.last_user_message_iso",
     "must be a string or null, not a number"),
    ("bad status", _set(*ACTION, "status", value="finished"), f"{A}.status",
     "use one of: planned, in_progress, likely_done, done, canceled, expired"),
    ("bad source", _set(*ACTION, "source", value="manual"), f"{A}.source",
     "auto, clock_it, user_confirmed"),
    ("bad kind", _set("threads", THREAD, "thread_kind", value="chat"), f"{T}.thread_kind",
     "project, conversation, scheduling, operations"),
    ("abbreviation", _set("users", USER, "default_tz", value="EST"), f"{U}.default_tz",
     "did you mean America/New_York"),
    ("typo zone", _set("threads", THREAD, "session_tz", value="Asia/Tokio"), f"{T}.session_tz",
     "did you mean Asia/Tokyo"),
    ("unknown agent zone", _set("threads", THREAD, "agent_tz", value="Mars/Olympus"),
     f"{T}.agent_tz", "unknown timezone 'Mars/Olympus'"),
    ("empty zone", _set("users", USER, "default_tz", value=""), f"{U}.default_tz",
     "must not be empty"),
    ("policy mode", _set("users", USER, "policy_overrides", value={"mode": "sometimes"}),
     f"{U}.policy_overrides.mode", "'off', 'light' or 'normal'"),
    ("policy duration", _set("users", USER, "policy_overrides",
     value={"checkins": {"rules": [{"id": "r", "when": {"elapsed_gte": "P1X"}}]}}),
     f"{U}.policy_overrides.checkins.rules[0].when.elapsed_gte", "'P1X'"),
    ("policy unknown key", _set("users", USER, "policy_overrides", value={"clock": {}}),
     f"{U}.policy_overrides.clock", "Extra inputs are not permitted"),
    ("policy not object", _set("users", USER, "policy_overrides", value=["mode"]),
     f"{U}.policy_overrides", "must be an object or null, not an array"),
    ("expires first", _set(*ACTION, "expires_iso", value="2026-02-09T18:09:59+09:00"),
     f"{A}.expires_iso", "is before recorded_iso"),
    ("max under typical", _set(*ACTION, "expected_max_minutes", value=60),
     f"{A}.expected_max_minutes", "less than expected_typical_minutes (60 < 75)"),
    ("calibration max", _set(*CAL, "max_minutes", value=30),
     f"{U}.calibration.activity_overrides['meal:dinner'].max_minutes", "less than typical"),
    ("negative minutes", _set(*ACTION, "expected_typical_minutes", value=-5),
     f"{A}.expected_typical_minutes", "at least 0"),
    ("fractional minutes", _set(*CAL, "typical_minutes", value=7.5),
     f"{U}.calibration.activity_overrides['meal:dinner'].typical_minutes", "a whole number"),
    ("missing expiry", _delete(*ACTION, "expires_iso"), f"{A}.expires_iso", "required"),
    ("missing kind", _delete("threads", THREAD, "thread_kind"), f"{T}.thread_kind", "required"),
    ("delta range", _set("threads", THREAD, "delta_hours", value=27), f"{T}.delta_hours",
     "at most 26"),
    ("delta boolean", _set("threads", THREAD, "delta_hours", value=True), f"{T}.delta_hours",
     "not a boolean"),
    ("empty label", _set(*ACTION, "label", value=""), f"{A}.label", "must not be empty"),
    ("participant number", _set("threads", THREAD, "participants", value=[42]),
     f"{T}.participants[0]", "must be a string"),
    ("empty user id", lambda d: d["users"].update({"": {}}), "$.users['']", "empty key"),
    ("user null", _set("users", USER, value=None), U, "must be an object, not null"),
    ("unknown top-level", _set("updated_iso", value="2026-02-09T10:00:00Z"), "$.updated_iso",
     "unknown top-level field"),
    ("unknown extension", _set("x_clockbot", value={"notes": []}), "$.x_clockbot.notes",
     "allowed here: version, memory"),
    ("nan", _set("threads", THREAD, "delta_hours", value=float("nan")), f"{T}.delta_hours",
     "not a finite number"),
    ("set", _set("threads", THREAD, "participants", value={"a"}), f"{T}.participants",
     "not a JSON value"),
    ("int key", lambda d: d["users"][USER]["channels"].update({1: {}}), f"{U}.channels",
     "key that is not a string"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "path", "fragment"),
    [case[1:] for case in BAD_INPUT],
    ids=[case[0] for case in BAD_INPUT],
)
def test_bad_input_is_reported_at_its_json_path(mutate: Mutation, path: str, fragment: str) -> None:
    document = example()
    mutate(document)
    problems = problems_of(document)
    assert list(problems) == [path]
    assert fragment in problems[path]


def test_a_duplicate_action_id_names_the_first() -> None:
    document = example()
    actions = document["users"][USER]["latest_actions"]
    actions.append({**actions[0], "label": "Eat dessert"})
    assert problems_of(document) == {
        f"{U}.latest_actions[1].id": f"repeats the id of {U}.latest_actions[0]"
    }


def test_a_duplicate_memory_id_is_refused() -> None:
    item = {"id": 3, "user_id": "u", "content": "x", "created_iso": "2026-01-01T00:00:00Z"}
    document = {"version": 3, "x_clockbot": {"memory": [item, dict(item)]}}
    assert list(problems_of(document)) == ["$.x_clockbot.memory[1].id"]


def test_an_unknown_memory_field_is_refused() -> None:
    item = {"id": 3, "user_id": "u", "content": "x", "created_iso": "2026-01-01T00:00:00Z"}
    document = {"version": 3, "x_clockbot": {"memory": [{**item, "due": "tomorrow"}]}}
    assert list(problems_of(document)) == ["$.x_clockbot.memory[0].due"]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "the document must be a JSON object, not an array"),
        (None, "the document must be a JSON object, not null"),
        (3, "the document must be a JSON object, not a number"),
        (
            '{"version": 3}',
            "the document must be a JSON object, not a string (parse the JSON text first)",
        ),
    ],
)
def test_a_non_object_document_is_refused_plainly(document: object, message: str) -> None:
    assert problems_of(document) == {"$": message}


@pytest.mark.parametrize("version", [1, 2, 4, 2.5])
def test_another_version_is_reported_alone(version: object) -> None:
    # The rest of a version 2 document follows another schema: no noise about it.
    document = {"version": version, "users": [], "sessions": {}}
    assert problems_of(document) == {
        "$.version": f"unsupported version {version} (this clockbot reads version 3)"
    }


@pytest.mark.parametrize("version", ["3", True, None, [3]])
def test_a_version_that_is_not_a_number_is_refused(version: object) -> None:
    problems = problems_of({"version": version})
    assert list(problems) == ["$.version"]
    assert problems["$.version"].startswith("must be the number 3, not ")


def test_a_missing_version_is_reported_with_the_rest() -> None:
    document = example()
    del document["version"]
    document["threads"][THREAD]["thread_kind"] = "chat"
    assert list(problems_of(document)) == ["$.version", f"{T}.thread_kind"]
    assert "is missing" in problems_of(document)["$.version"]


def test_every_problem_is_reported_in_document_order() -> None:
    document = example()
    document["users"][USER]["default_tz"] = "Asia/Tokio"
    document["users"][USER]["latest_actions"][0]["status"] = "finished"
    document["users"][USER]["latest_actions"][0]["recorded_iso"] = "2026-02-09T18:10:00"
    document["users"][USER]["latest_actions"][0]["expected_max_minutes"] = 10
    document["threads"][THREAD]["thread_kind"] = "chat"
    document["threads"][THREAD]["agent_tz"] = "PST"
    document["extra"] = True
    with pytest.raises(StateError) as caught:
        load_state(document)
    assert [path for path, _ in caught.value.problems] == [
        f"{U}.default_tz",
        f"{A}.status",
        f"{A}.recorded_iso",
        f"{A}.expected_max_minutes",
        f"{T}.thread_kind",
        f"{T}.agent_tz",
        "$.extra",
    ]
    assert str(caught.value).startswith("invalid CLOCK state: 7 problems\n  ")


def test_the_message_lists_ten_problems_then_counts_the_rest() -> None:
    document = {
        "version": 3,
        "threads": {f"t{i:02d}": {"thread_kind": "chat"} for i in range(13)},
    }
    with pytest.raises(StateError) as caught:
        load_state(document)
    assert len(caught.value.problems) == 13
    lines = str(caught.value).splitlines()
    assert lines[0] == "invalid CLOCK state: 13 problems"
    assert lines[1].startswith("  $.threads.t00.thread_kind: ")
    assert lines[10].startswith("  $.threads.t09.thread_kind: ")
    assert lines[11:] == ["  and 3 more"]


def test_messages_never_quote_long_values_or_objects() -> None:
    secret = "sk-" + "x" * 200
    document = example()
    document["users"][USER]["latest_actions"][0]["status"] = secret
    document["users"][USER]["latest_actions"][0]["label"] = {"token": secret}
    document["threads"][THREAD]["participants"] = {"token": secret}
    with pytest.raises(StateError) as caught:
        load_state(document)
    assert len(caught.value.problems) == 3
    assert "x" * 50 not in str(caught.value)
    assert "token" not in str(caught.value)


def test_state_error_is_a_value_error_that_pickles() -> None:
    error = StateError([("$.version", "is missing"), ("$.users", "must be an object")])
    assert isinstance(error, ClockError)
    assert isinstance(error, ValueError)
    again = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes
    assert again.problems == error.problems
    assert str(again) == str(error)


# --------------------------------------------------------------------------- the schema


def test_the_schema_is_valid_draft_2020_12_and_accepts_the_example() -> None:
    schema = state_schema()
    Draft202012Validator.check_schema(schema)
    assert list(Draft202012Validator(schema).iter_errors(example())) == []
    assert at(schema, "properties", "version") == {
        "description": "The schema version; this document describes version 3.",
        "const": 3,
    }


def test_the_schema_enums_match_the_python_constants() -> None:
    definitions: Any = state_schema()["$defs"]
    assert tuple(definitions["action"]["properties"]["status"]["enum"]) == ACTION_STATUSES
    assert tuple(definitions["action"]["properties"]["source"]["enum"]) == ACTION_SOURCES
    assert tuple(definitions["thread"]["properties"]["thread_kind"]["enum"]) == THREAD_KINDS


def test_state_schema_hands_out_copies() -> None:
    schema: Any = state_schema()
    schema["properties"].clear()
    assert state_schema()["properties"]
    assert load_state(example()).users


# --------------------------------------------------------------------------- properties

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
near_documents = st.fixed_dictionaries(
    {"version": st.sampled_from([3, 3, 3, 2])},
    optional={
        "users": st.dictionaries(st.sampled_from(["u1", "u2", ""]), json_values, max_size=2),
        "threads": st.dictionaries(st.sampled_from(["t1", "t2"]), json_values, max_size=2),
        "x_clockbot": st.fixed_dictionaries({}, optional={"memory": json_values}),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, near_documents))
def test_load_state_raises_only_state_error(document: object) -> None:
    outcome = _load_or_error(document)
    if isinstance(outcome, StateError):
        assert outcome.problems
        assert all(path.startswith("$") for path, _ in outcome.problems)
    else:
        assert load_state(dump_state(outcome)) == outcome


def _load_or_error(document: object) -> ClockState | StateError:
    try:
        return load_state(document)
    except StateError as error:
        return error


ZONES = [
    "UTC",
    "Asia/Tokyo",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "America/New_York",
    "Europe/Berlin",
    "America/St_Johns",
]
ids = st.text(min_size=1, max_size=12)
instants = st.datetimes(
    min_value=datetime(1850, 1, 1),  # noqa: DTZ001 - hypothesis bounds are naive
    max_value=datetime(2200, 1, 1),  # noqa: DTZ001
    timezones=st.just(UTC),
)
zones = st.none() | st.sampled_from(ZONES)
minutes = st.integers(min_value=0, max_value=100_000)
overrides: st.SearchStrategy[dict[str, object]] = st.sampled_from(
    [{}, {"mode": "off"}, {"checkins": {"enabled": False}}, {"ambiguity_threshold_hours": 2.5}]
)


@st.composite
def actions(draw: st.DrawFn) -> ActionState:
    recorded = draw(instants)
    typical = draw(st.none() | minutes)
    return ActionState(
        id=draw(ids),
        label=draw(st.text(min_size=1, max_size=20)),
        type=draw(st.sampled_from(["temporal_action", "sleep", "project"])),
        status=draw(st.sampled_from(ACTION_STATUSES)),
        recorded_at=recorded,
        expires_at=recorded + draw(st.timedeltas(timedelta(0), timedelta(days=30))),
        thread_key=draw(ids),
        source=draw(st.sampled_from(ACTION_SOURCES)),
        expected_typical_minutes=typical,
        expected_max_minutes=draw(st.none() | minutes.map(lambda m: m + (typical or 0))),
    )


@st.composite
def users(draw: st.DrawFn) -> UserState:
    latest = draw(st.lists(actions(), max_size=3, unique_by=lambda action: action.id))
    return UserState(
        default_tz=draw(zones),
        policy_overrides=draw(overrides),
        last_interaction_any_channel_at=draw(st.none() | instants),
        channels=draw(
            st.dictionaries(
                ids, st.builds(ChannelStamps, st.none() | instants, st.none() | instants)
            )
        ),
        latest_actions=tuple(latest),
        calibration=draw(
            st.dictionaries(
                ids,
                minutes.flatmap(
                    lambda low: st.builds(
                        CalibrationState, st.just(low), minutes.map(lambda m: m + low), instants
                    )
                ),
                max_size=2,
            )
        ),
    )


threads = st.builds(
    ThreadState,
    thread_kind=st.sampled_from(THREAD_KINDS),
    session_tz=zones,
    agent_tz=zones,
    delta_hours=st.none() | st.sampled_from([0.0, 8.0, -5.0, 5.75, 9.5, -3.5]),
    participants=st.lists(ids, max_size=3).map(tuple),
    last_interaction_at=st.none() | instants,
    last_user_message_at_by_user=st.dictionaries(ids, instants, max_size=3),
)


@st.composite
def states(draw: st.DrawFn) -> ClockState:
    memory = draw(
        st.lists(
            st.builds(
                MemoryState,
                id=st.integers(min_value=1, max_value=2**63 - 1),
                user_id=ids,
                content=st.text(max_size=20),
                created_at=instants,
                due_at=st.none() | instants,
                reminded_at=st.none() | instants,
            ),
            max_size=3,
            unique_by=lambda item: item.id,
        )
    )
    return ClockState(
        users=draw(st.dictionaries(ids, users(), max_size=3)),
        threads=draw(st.dictionaries(ids, threads, max_size=2)),
        memory=tuple(memory),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states())
def test_valid_states_round_trip_through_json(state: ClockState) -> None:
    document = dump_state(state)
    text = json.dumps(document, allow_nan=False)
    assert load_state(json.loads(text)) == state
    assert dump_state(load_state(document)) == document


@settings(max_examples=40, deadline=None)
@given(states())
def test_dump_hands_out_its_own_copies(state: ClockState) -> None:
    document = dump_state(state)
    before = copy.deepcopy(state)
    for user in at(document, "users").values():
        user.get("policy_overrides", {}).clear()
    assert state == before
