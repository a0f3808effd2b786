"""Tests for clockcore.policy: the docs/clock-spec.md §0 policy block and the §5.1 decision."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from clockcore.errors import InvalidDurationError, PolicyError
from clockcore.policy import (
    DEFAULT_POLICY,
    Decision,
    Policy,
    PolicyFacts,
    Rule,
    evaluate,
    format_duration,
    load_policy,
    parse_duration,
    policy_from_mapping,
)

# The §0 block of CLOCK, copied verbatim (comments dropped).
SECTION_0 = """
clock:
  enabled: true
  mode: light
  cross_channel_tracking: true
  store:
    last_message_timestamps: true
    latest_actions:
      enabled: true
      max_items: 25
      auto_clock_temporal_actions: true
      require_explicit_clock_it_for_non_temporal: true
      store_quotes: false
  checkins:
    enabled: true
    rules:
      - id: project_gap_1d
        when:
          thread_kind: project
          elapsed_gte: P1D
        then:
          ask_for_updates: true
      - id: action_gap_2h
        when:
          has_open_action: true
          elapsed_gte: PT2H
        then:
          allow_hedged_reference: true
      - id: long_gap_30d
        when:
          elapsed_gte: P30D
        then:
          offer_recap: true
  inference:
    enabled: true
    allow_for_tone_only: true
    require_confirmation_for_impactful_actions: true
  ambiguity_threshold_hours: 4
"""

# The durations §0 uses, converted by hand (not by the code under test).
SECTION_0_DURATIONS = {
    "P1D": timedelta(days=1),
    "PT2H": timedelta(hours=2),
    "P30D": timedelta(days=30),
}

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
SECOND = timedelta(seconds=1)


def _leaves(value: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every leaf path of a parsed YAML tree."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _leaves(child, (*path, key))
    elif isinstance(value, list | tuple):
        for index, child in enumerate(value):
            yield from _leaves(child, (*path, index))
    else:
        yield path


def _get(root: object, path: tuple[str | int, ...]) -> object:
    for part in path:
        root = root[part] if isinstance(part, int) else getattr(root, part)  # type: ignore[index]
    return root


def _section_0() -> dict[str, object]:
    block = yaml.safe_load(SECTION_0)["clock"]
    assert isinstance(block, dict)
    return block


SECTION_0_LEAVES = sorted(_leaves(_section_0()), key=str)


# --------------------------------------------------------------------------- defaults


@pytest.mark.parametrize("path", SECTION_0_LEAVES, ids=lambda p: ".".join(map(str, p)))
def test_default_policy_matches_section_0_field_by_field(path: tuple[str | int, ...]) -> None:
    expected: Any = _section_0()
    for part in path:
        expected = expected[part]
    if isinstance(expected, str) and expected in SECTION_0_DURATIONS:
        expected = SECTION_0_DURATIONS[expected]
    actual = _get(DEFAULT_POLICY, path)
    assert actual == expected
    assert type(actual) is type(expected) or {type(actual), type(expected)} == {int, float}


def test_default_policy_sets_nothing_section_0_leaves_out() -> None:
    """Fields §0 does not write are unset (None) or off (False)."""
    given = {tuple(path) for path in SECTION_0_LEAVES}
    dumped = DEFAULT_POLICY.model_dump(mode="python")
    for path in _leaves(dumped):
        if path not in given:
            assert _get(DEFAULT_POLICY, path) in (None, False), path


def test_default_policy_rule_order_and_whole_equality() -> None:
    assert [rule.id for rule in DEFAULT_POLICY.checkins.rules] == [
        "project_gap_1d",
        "action_gap_2h",
        "long_gap_30d",
    ]
    assert Policy.model_validate(_section_0()) == DEFAULT_POLICY
    assert Policy() == DEFAULT_POLICY


def test_default_policy_is_frozen_and_hashable() -> None:
    with pytest.raises(ValueError, match="frozen"):
        DEFAULT_POLICY.mode = "off"
    assert hash(DEFAULT_POLICY) == hash(Policy())


def test_durations_dump_as_iso_strings() -> None:
    dumped = DEFAULT_POLICY.model_dump(mode="json")
    whens = [rule["when"]["elapsed_gte"] for rule in dumped["checkins"]["rules"]]
    assert whens == ["P1D", "PT2H", "P30D"]
    assert Policy.model_validate(dumped) == DEFAULT_POLICY


# --------------------------------------------------------------------------- durations


@pytest.mark.parametrize(
    ("text", "expected", "back"),
    [
        ("P1D", DAY, "P1D"),
        ("PT2H", 2 * HOUR, "PT2H"),
        ("P30D", 30 * DAY, "P30D"),
        ("P2DT6H", 2 * DAY + 6 * HOUR, "P2DT6H"),
        ("PT90M", 90 * timedelta(minutes=1), "PT1H30M"),
        ("P1W", 7 * DAY, "P7D"),
        ("P1Y", 365 * DAY, "P365D"),
        ("P1M", 30 * DAY, "P30D"),
        ("P1Y2M3DT4H", (365 + 60 + 3) * DAY + 4 * HOUR, "P428DT4H"),
    ],
)
def test_parse_duration(text: str, expected: timedelta, back: str) -> None:
    assert parse_duration(text) == expected
    assert format_duration(parse_duration(text)) == back


@pytest.mark.parametrize("value", ["P1X", "1 day", "", "p1d", "-P1D", "PT0S", "P0D", 86400, None])
def test_parse_duration_rejects(value: object) -> None:
    with pytest.raises(InvalidDurationError) as info:
        parse_duration(value, path="clock.x")
    assert info.value.path == "clock.x"
    assert info.value.value == value


# --------------------------------------------------------------------------- loading


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "clockbot.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_load_none_gives_defaults() -> None:
    assert load_policy(None) is DEFAULT_POLICY


def test_load_full_file(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """
clock:
  enabled: true
  mode: normal
  cross_channel_tracking: false
  store:
    last_message_timestamps: true
    latest_actions:
      enabled: false
      max_items: 5
      auto_clock_temporal_actions: false
      require_explicit_clock_it_for_non_temporal: false
      store_quotes: true
  checkins:
    enabled: true
    rules:
      - id: ops_6h
        when:
          thread_kind: operations
          elapsed_gte: PT6H
        then:
          ask_for_updates: true
          offer_recap: true
      - id: away_2d
        when:
          elapsed_any_channel_gte: P2DT6H
          has_open_action: false
        then:
          allow_hedged_reference: true
  inference:
    enabled: false
    allow_for_tone_only: false
    require_confirmation_for_impactful_actions: true
  ambiguity_threshold_hours: 2.5
""",
    )
    policy = load_policy(path)
    assert policy.mode == "normal"
    assert policy.cross_channel_tracking is False
    assert policy.store.latest_actions.max_items == 5
    assert policy.store.latest_actions.store_quotes is True
    assert policy.store.latest_actions.enabled is False
    assert [rule.id for rule in policy.checkins.rules] == ["ops_6h", "away_2d"]
    ops, away = policy.checkins.rules
    assert ops.when.thread_kind == "operations"
    assert ops.when.elapsed_gte == 6 * HOUR
    assert ops.then.ask_for_updates
    assert ops.then.offer_recap
    assert not ops.then.allow_hedged_reference
    assert away.when.elapsed_any_channel_gte == 2 * DAY + 6 * HOUR
    assert away.when.elapsed_gte is None
    assert away.when.has_open_action is False
    assert policy.inference.enabled is False
    assert policy.ambiguity_threshold_hours == 2.5
    assert load_policy(str(path)) == policy


def test_load_partial_block_keeps_other_defaults(tmp_path: Path) -> None:
    path = _write(tmp_path, "clock:\n  store:\n    latest_actions:\n      max_items: 3\n")
    policy = load_policy(path)
    assert policy.store.latest_actions.max_items == 3
    assert policy.store.latest_actions.enabled is True
    assert policy.checkins == DEFAULT_POLICY.checkins
    assert policy.mode == "light"


def test_load_ignores_other_top_level_keys(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "telegram:\n  token: sk-secret123\n  weird: [1, 2]\nclock:\n  mode: normal\n",
    )
    policy = load_policy(path)
    assert policy.mode == "normal"
    assert policy.checkins == DEFAULT_POLICY.checkins


@pytest.mark.parametrize(
    "text",
    ["", "# nothing here\n", "telegram:\n  token: abc\n", "clock:\n", "clock: null\n"],
    ids=["empty", "comment", "other-keys", "empty-clock", "null-clock"],
)
def test_load_without_clock_block_gives_defaults(tmp_path: Path, text: str) -> None:
    assert load_policy(_write(tmp_path, text)) == DEFAULT_POLICY


def test_unquoted_mode_off_is_read_as_off(tmp_path: Path) -> None:
    """YAML 1.1 turns a bare ``off`` into False; the policy still means mode off."""
    assert yaml.safe_load("mode: off") == {"mode": False}
    policy = load_policy(_write(tmp_path, "clock:\n  mode: off\n"))
    assert policy.mode == "off"
    assert load_policy(_write(tmp_path, "clock:\n  mode: 'off'\n")).mode == "off"


def test_load_missing_file_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(PolicyError) as info:
        load_policy(missing)
    assert info.value.source == str(missing)
    assert str(missing) in str(info.value)
    assert "not found" in str(info.value)


BAD_FILES = [
    pytest.param("clock:\n  mode: [light\n", "", PolicyError, id="syntax-error"),
    pytest.param("- clock\n- mode\n", "", PolicyError, id="top-level-list"),
    pytest.param("clock: 5\n", "clock", PolicyError, id="clock-not-mapping"),
    pytest.param("clock:\n  mode: sometimes\n", "clock.mode", PolicyError, id="bad-mode"),
    pytest.param(
        "clock:\n  store:\n    latest_actions:\n      max_items: 0\n",
        "clock.store.latest_actions.max_items",
        PolicyError,
        id="max-items-zero",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n      - id: a\n        when:\n"
        "          elapsed_gte: P1X\n",
        "clock.checkins.rules.0.when.elapsed_gte",
        InvalidDurationError,
        id="duration-P1X",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n"
        "      - id: a\n        when:\n          elapsed_gte: P1D\n"
        "      - id: b\n        when:\n          elapsed_gte: 1 day\n",
        "clock.checkins.rules.1.when.elapsed_gte",
        InvalidDurationError,
        id="duration-1-day",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n"
        "      - id: a\n        when:\n          elapsed_any_channel_gte: -P1D\n",
        "clock.checkins.rules.0.when.elapsed_any_channel_gte",
        InvalidDurationError,
        id="duration-negative",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n      - id: a\n        when:\n"
        "          elapsed_gte: PT0S\n",
        "clock.checkins.rules.0.when.elapsed_gte",
        InvalidDurationError,
        id="duration-zero",
    ),
    pytest.param(
        "clock:\n  inference:\n    enabled: true\n    api_key: sk-secret123\n",
        "clock.inference.api_key",
        PolicyError,
        id="unknown-key",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n"
        "      - id: same\n        when:\n          elapsed_gte: P1D\n"
        "      - id: other\n        when:\n          elapsed_gte: P2D\n"
        "      - id: same\n        when:\n          elapsed_gte: P3D\n",
        "clock.checkins.rules.2.id",
        PolicyError,
        id="duplicate-rule-id",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n      - id: always\n        when: {}\n"
        "        then:\n          ask_for_updates: true\n",
        "clock.checkins.rules.0.when",
        PolicyError,
        id="empty-when",
    ),
    pytest.param(
        "clock:\n  enabled: sk-secret123\n", "clock.enabled", PolicyError, id="wrong-type-bool"
    ),
    pytest.param(
        "clock:\n  store:\n    latest_actions:\n      max_items: '25'\n",
        "clock.store.latest_actions.max_items",
        PolicyError,
        id="wrong-type-int",
    ),
    pytest.param(
        "clock:\n  ambiguity_threshold_hours: 0\n",
        "clock.ambiguity_threshold_hours",
        PolicyError,
        id="threshold-zero",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n      - id: k\n        when:\n"
        "          thread_kind: chat\n",
        "clock.checkins.rules.0.when.thread_kind",
        PolicyError,
        id="bad-thread-kind",
    ),
    pytest.param(
        "clock:\n  checkins:\n    rules:\n      - when:\n          elapsed_gte: P1D\n",
        "clock.checkins.rules.0.id",
        PolicyError,
        id="rule-without-id",
    ),
]


@pytest.mark.parametrize(("text", "path", "error"), BAD_FILES)
def test_bad_files(tmp_path: Path, text: str, path: str, error: type[PolicyError]) -> None:
    file = _write(tmp_path, text)
    with pytest.raises(error) as info:
        load_policy(file)
    assert info.value.path == path
    assert info.value.source == str(file)
    assert str(file) in str(info.value)
    assert "sk-secret123" not in str(info.value)


def test_bad_file_messages_say_why(tmp_path: Path) -> None:
    cases = {
        "clock:\n  mode: [light\n": "line 3",
        "clock:\n  checkins:\n    rules:\n      - id: x\n        when: {}\n": "every message",
        "clock:\n  checkins:\n    rules:\n"
        "      - id: d\n        when:\n          elapsed_gte: P1D\n"
        "      - id: d\n        when:\n          elapsed_gte: P2D\n": "duplicate rule id 'd'",
        "clock:\n  mode: sometimes\n": "'off', 'light' or 'normal'",
    }
    for text, needle in cases.items():
        with pytest.raises(PolicyError, match=needle):
            load_policy(_write(tmp_path, text))


def test_secret_in_yaml_syntax_error_line_is_not_quoted(tmp_path: Path) -> None:
    file = _write(tmp_path, "clock:\n  mode: light\n api_key: sk-secret123\n")
    with pytest.raises(PolicyError) as info:
        load_policy(file)
    assert info.value.path == ""
    assert "line 3" in str(info.value)
    assert "sk-secret123" not in str(info.value)


def test_secret_as_unknown_key_value_is_not_quoted(tmp_path: Path) -> None:
    file = _write(tmp_path, "clock:\n  mode: light\n  api_key: sk-secret123\n")
    with pytest.raises(PolicyError) as info:
        load_policy(file)
    assert info.value.path == "clock.api_key"
    assert info.value.field == "api_key"
    assert "sk-secret123" not in str(info.value)
    assert "sk-secret123" not in repr(info.value.args)


def test_several_errors_are_all_named(tmp_path: Path) -> None:
    file = _write(tmp_path, "clock:\n  mode: sometimes\n  store:\n    token: sk-secret123\n")
    with pytest.raises(PolicyError) as info:
        load_policy(file)
    assert info.value.path == "clock.mode"
    assert "clock.store.token" in str(info.value)
    assert "sk-secret123" not in str(info.value)


# --------------------------------------------------------------------------- mappings


def test_policy_from_mapping_takes_the_whole_document() -> None:
    policy = policy_from_mapping({"clock": {"mode": "normal"}, "slack": {"x": 1}})
    assert policy.mode == "normal"
    assert policy_from_mapping({}) is DEFAULT_POLICY
    assert policy_from_mapping({"slack": {}}) is DEFAULT_POLICY


def test_policy_from_mapping_errors_carry_source() -> None:
    with pytest.raises(PolicyError) as info:
        policy_from_mapping({"clock": {"mode": "x"}}, source="env:CLOCK")
    assert info.value.source == "env:CLOCK"
    assert info.value.path == "clock.mode"
    with pytest.raises(PolicyError) as info:
        policy_from_mapping({"clock": ["mode"]})
    assert info.value.path == "clock"


# --------------------------------------------------------------------------- overrides


def test_override_mode_off_disables() -> None:
    policy = DEFAULT_POLICY.with_overrides({"mode": "off"})
    assert policy.mode == "off"
    assert DEFAULT_POLICY.mode == "light"
    facts = PolicyFacts(thread_kind="project", elapsed_since_last_interaction=40 * DAY)
    assert evaluate(DEFAULT_POLICY, facts).temporal_awareness is True
    decision = evaluate(policy, facts)
    assert decision.temporal_awareness is False
    assert decision.reason == "mode off"


def test_override_merges_nested_mappings() -> None:
    policy = DEFAULT_POLICY.with_overrides(
        {"checkins": {"enabled": False}, "store": {"latest_actions": {"max_items": 7}}}
    )
    assert policy.checkins.enabled is False
    assert policy.checkins.rules == DEFAULT_POLICY.checkins.rules
    assert policy.store.latest_actions.max_items == 7
    assert policy.store.latest_actions.enabled is True
    assert policy.store.last_message_timestamps is True


def test_override_merges_into_a_non_default_policy() -> None:
    base = policy_from_mapping(
        {
            "clock": {
                "mode": "normal",
                "store": {"latest_actions": {"max_items": 3, "store_quotes": True}},
                "checkins": {"rules": [{"id": "ops", "when": {"thread_kind": "operations"}}]},
            }
        }
    )
    policy = base.with_overrides(
        {"checkins": {"enabled": False}, "store": {"latest_actions": {"max_items": 9}}}
    )
    assert policy.mode == "normal"
    assert [rule.id for rule in policy.checkins.rules] == ["ops"]
    assert policy.checkins.enabled is False
    assert policy.store.latest_actions.max_items == 9
    assert policy.store.latest_actions.store_quotes is True
    assert base.store.latest_actions.max_items == 3


def test_override_replaces_rules_whole() -> None:
    policy = DEFAULT_POLICY.with_overrides(
        {"checkins": {"rules": [{"id": "mine", "when": {"elapsed_gte": "PT6H"}}]}}
    )
    assert [rule.id for rule in policy.checkins.rules] == ["mine"]
    assert policy.checkins.rules[0].when.elapsed_gte == 6 * HOUR
    assert policy.checkins.enabled is True


def test_empty_override_is_identity() -> None:
    assert DEFAULT_POLICY.with_overrides({}) is DEFAULT_POLICY


@pytest.mark.parametrize(
    ("overrides", "path", "error"),
    [
        ({"mode": "sometimes"}, "clock.mode", PolicyError),
        ({"checkins": {"enabled": "nope"}}, "clock.checkins.enabled", PolicyError),
        (
            {"store": {"latest_actions": {"max_items": 0}}},
            "clock.store.latest_actions.max_items",
            PolicyError,
        ),
        ({"nope": True}, "clock.nope", PolicyError),
        ({"store": 3}, "clock.store", PolicyError),
        (
            {"checkins": {"rules": [{"id": "r", "when": {"elapsed_gte": "soon"}}]}},
            "clock.checkins.rules.0.when.elapsed_gte",
            InvalidDurationError,
        ),
    ],
)
def test_bad_override_path(
    overrides: dict[str, object], path: str, error: type[PolicyError]
) -> None:
    with pytest.raises(error) as info:
        DEFAULT_POLICY.with_overrides(overrides, source="state:u1")
    assert info.value.path == path
    assert info.value.source == "state:u1"


# --------------------------------------------------------------------------- evaluate

NO_FLAGS = (False, False, False)


def _facts(
    kind: str = "conversation",
    elapsed: timedelta | None = None,
    any_channel: timedelta | None = None,
    *,
    open_action: bool = False,
    time: bool = False,
    directive: bool = False,
) -> PolicyFacts:
    return PolicyFacts(
        thread_kind=kind,  # type: ignore[arg-type]
        elapsed_since_last_interaction=elapsed,
        elapsed_since_last_interaction_any_channel=any_channel,
        has_open_action=open_action,
        mentions_time=time,
        has_clock_directive=directive,
    )


# (facts, triggered rules, (ask_for_updates, offer_recap, allow_hedged_reference), reason)
DEFAULT_CASES = [
    pytest.param(_facts("project", DAY - SECOND), (), NO_FLAGS, "not relevant", id="project-below"),
    pytest.param(
        _facts("project", DAY),
        ("project_gap_1d",),
        (True, False, False),
        "rules",
        id="project-exact",
    ),
    pytest.param(
        _facts("project", 3 * DAY),
        ("project_gap_1d",),
        (True, False, False),
        "rules",
        id="project-above",
    ),
    pytest.param(
        _facts("conversation", 3 * DAY), (), NO_FLAGS, "not relevant", id="project-rule-kind"
    ),
    pytest.param(
        _facts(elapsed=2 * HOUR - SECOND, open_action=True),
        (),
        NO_FLAGS,
        "not relevant",
        id="action-below",
    ),
    pytest.param(
        _facts(elapsed=2 * HOUR, open_action=True),
        ("action_gap_2h",),
        (False, False, True),
        "rules",
        id="action-exact",
    ),
    pytest.param(
        _facts(elapsed=5 * HOUR, open_action=True),
        ("action_gap_2h",),
        (False, False, True),
        "rules",
        id="action-above",
    ),
    pytest.param(
        _facts(elapsed=5 * HOUR), (), NO_FLAGS, "not relevant", id="action-rule-needs-action"
    ),
    pytest.param(_facts(elapsed=30 * DAY - SECOND), (), NO_FLAGS, "not relevant", id="long-below"),
    pytest.param(
        _facts(elapsed=30 * DAY), ("long_gap_30d",), (False, True, False), "rules", id="long-exact"
    ),
    pytest.param(
        _facts("scheduling", 400 * DAY),
        ("long_gap_30d",),
        (False, True, False),
        "rules",
        id="long-above",
    ),
    pytest.param(
        _facts("project", 31 * DAY, open_action=True),
        ("project_gap_1d", "action_gap_2h", "long_gap_30d"),
        (True, True, True),
        "rules",
        id="all-three-in-order",
    ),
    pytest.param(
        _facts("project", 2 * DAY, open_action=True, time=True, directive=True),
        ("project_gap_1d", "action_gap_2h"),
        (True, False, True),
        "rules",
        id="two-rules-win-over-time",
    ),
    pytest.param(
        _facts("project", None, 400 * DAY, open_action=True),
        (),
        NO_FLAGS,
        "not relevant",
        id="first-message",
    ),
    pytest.param(
        _facts("project", None, time=True, directive=True),
        (),
        NO_FLAGS,
        "time reference",
        id="first-message-time",
    ),
    pytest.param(
        _facts(elapsed=HOUR, time=True), (), NO_FLAGS, "time reference", id="time-reference"
    ),
    pytest.param(
        _facts(elapsed=HOUR, time=True, directive=True),
        (),
        NO_FLAGS,
        "time reference",
        id="time-first",
    ),
    pytest.param(
        _facts(elapsed=HOUR, directive=True), (), NO_FLAGS, "clock directive", id="directive"
    ),
    pytest.param(_facts(), (), NO_FLAGS, "not relevant", id="nothing"),
]


@pytest.mark.parametrize(("facts", "rules", "flags", "reason"), DEFAULT_CASES)
def test_evaluate_default_policy(
    facts: PolicyFacts, rules: tuple[str, ...], flags: tuple[bool, bool, bool], reason: str
) -> None:
    decision = evaluate(DEFAULT_POLICY, facts)
    assert decision.triggered_rules == rules
    assert (
        decision.ask_for_updates,
        decision.offer_recap,
        decision.allow_hedged_reference,
    ) == flags
    assert decision.reason == reason
    assert decision.temporal_awareness is (reason != "not relevant")


ANY_CHANNEL_POLICY = DEFAULT_POLICY.with_overrides(
    {
        "checkins": {
            "rules": [
                {
                    "id": "away_3d",
                    "when": {"elapsed_any_channel_gte": "P3D"},
                    "then": {"offer_recap": True},
                },
                {
                    "id": "project_back_6h",
                    "when": {
                        "thread_kind": "project",
                        "elapsed_gte": "PT6H",
                        "elapsed_any_channel_gte": "PT6H",
                        "has_open_action": False,
                    },
                    "then": {"ask_for_updates": True},
                },
            ]
        }
    }
)


@pytest.mark.parametrize(
    ("facts", "rules"),
    [
        pytest.param(_facts(any_channel=3 * DAY - SECOND), (), id="any-below"),
        pytest.param(_facts(any_channel=3 * DAY), ("away_3d",), id="any-exact"),
        pytest.param(_facts(elapsed=10 * DAY), (), id="any-unknown"),
        pytest.param(
            _facts("project", 6 * HOUR, 6 * HOUR), ("project_back_6h",), id="all-conditions"
        ),
        pytest.param(
            _facts("project", 6 * HOUR, 3 * DAY), ("away_3d", "project_back_6h"), id="both-in-order"
        ),
        pytest.param(_facts("project", 6 * HOUR, HOUR), (), id="any-channel-too-recent"),
        pytest.param(_facts("project", HOUR, 6 * HOUR), (), id="thread-too-recent"),
        pytest.param(
            _facts("project", 6 * HOUR, 6 * HOUR, open_action=True),
            (),
            id="open-action-false-needed",
        ),
    ],
)
def test_evaluate_any_channel_rules(facts: PolicyFacts, rules: tuple[str, ...]) -> None:
    decision = evaluate(ANY_CHANNEL_POLICY, facts)
    assert decision.triggered_rules == rules
    assert decision.temporal_awareness is bool(rules)
    assert decision.offer_recap is ("away_3d" in rules)
    assert decision.ask_for_updates is ("project_back_6h" in rules)


LOUD = _facts("project", 40 * DAY, 40 * DAY, open_action=True, time=True, directive=True)


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"enabled": False}, "disabled"),
        ({"enabled": False, "mode": "off"}, "disabled"),
        ({"mode": "off"}, "mode off"),
    ],
)
def test_evaluate_off(overrides: dict[str, object], reason: str) -> None:
    decision = evaluate(DEFAULT_POLICY.with_overrides(overrides), LOUD)
    assert decision == Decision(False, (), False, False, False, reason)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("facts", "reason", "awareness"),
    [
        (LOUD, "time reference", True),
        (_facts("project", 40 * DAY, directive=True), "clock directive", True),
        (_facts("project", 40 * DAY), "not relevant", False),
    ],
)
def test_evaluate_checkins_disabled_skips_rules(
    facts: PolicyFacts, reason: str, awareness: bool
) -> None:
    policy = DEFAULT_POLICY.with_overrides({"checkins": {"enabled": False}})
    decision = evaluate(policy, facts)
    assert decision.triggered_rules == ()
    assert decision.reason == reason
    assert decision.temporal_awareness is awareness
    flags = (decision.ask_for_updates, decision.offer_recap, decision.allow_hedged_reference)
    assert flags == NO_FLAGS


def test_normal_mode_decides_like_light() -> None:
    normal = DEFAULT_POLICY.with_overrides({"mode": "normal"})
    for case in DEFAULT_CASES:
        facts = case.values[0]
        assert isinstance(facts, PolicyFacts)
        assert evaluate(normal, facts) == evaluate(DEFAULT_POLICY, facts)


def test_rule_without_then_fires_without_flags() -> None:
    rule = Rule.model_validate({"id": "bare", "when": {"thread_kind": "operations"}})
    policy = DEFAULT_POLICY.with_overrides({"checkins": {"rules": [rule.model_dump()]}})
    decision = evaluate(policy, _facts("operations"))
    assert decision.triggered_rules == ("bare",)
    assert decision.temporal_awareness is True
    assert (decision.ask_for_updates, decision.offer_recap, decision.allow_hedged_reference) == (
        NO_FLAGS
    )
