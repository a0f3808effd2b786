"""The CLOCK user policy (docs/clock-spec.md §0) and the per-prompt relevance decision (§5.1).

The policy is the mapping under the top-level ``clock:`` key of a YAML file
(other top-level keys belong to other config and are ignored). Every field has
the §0 default, so a missing file, a file without ``clock:`` or a partial block
all give a complete `Policy`.

Durations (``elapsed_gte``, ``elapsed_any_channel_gte``) are ISO-8601 strings
such as ``P1D``, ``PT2H`` or ``P2DT6H``, read by `isodate` into a `timedelta`
and written back as ISO strings by ``model_dump(mode="json")``. Calendar
components have no fixed length, so a year counts as 365 days and a month as
30 days (``P1Y`` reads as 365 days and is written back as ``P365D``). A
duration must be positive.

Errors are always `PolicyError` (or its `InvalidDurationError`) with the dotted
path of the bad field, such as ``clock.checkins.rules.0.when.elapsed_gte``.
Messages are built from the field path and the kind of problem, never from the
value found there, because a config file may hold secrets next to the policy.
The one exception is a bad duration, whose value `InvalidDurationError` quotes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal, Self

import isodate
import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from clockcore.errors import InvalidDurationError, PolicyError

__all__ = [
    "DEFAULT_POLICY",
    "DEFAULT_RULES",
    "CheckinsPolicy",
    "Decision",
    "DecisionReason",
    "InferencePolicy",
    "LatestActionsPolicy",
    "Mode",
    "Policy",
    "PolicyFacts",
    "Rule",
    "RuleThen",
    "RuleWhen",
    "StorePolicy",
    "ThreadKind",
    "evaluate",
    "format_duration",
    "load_policy",
    "parse_duration",
    "policy_from_mapping",
]

ThreadKind = Literal["project", "conversation", "scheduling", "operations"]
Mode = Literal["off", "light", "normal"]
DecisionReason = Literal[
    "disabled", "mode off", "rules", "time reference", "clock directive", "not relevant"
]

_ROOT = "clock"
_DAYS_PER_YEAR = 365
_DAYS_PER_MONTH = 30

# Error types raised inside validators and turned into richer PolicyErrors.
_BAD_DURATION = "iso_duration"
_DUPLICATE_RULE_ID = "duplicate_rule_id"


# --------------------------------------------------------------------------- durations


def parse_duration(value: object, *, path: str = "") -> timedelta:
    """Read a positive ISO-8601 duration (``P1D``, ``PT2H``, ``P2DT6H``).

    A `timedelta` is accepted as is. Years count as 365 days and months as
    30 days.

    Args:
        value: the duration text (or a `timedelta`).
        path: the dotted path of the field, for the error.

    Returns:
        The duration as a `timedelta`.

    Raises:
        InvalidDurationError: the value is not a string or timedelta, cannot be
            read as ISO-8601, or is zero or negative.
    """
    if isinstance(value, timedelta):
        result = value
    elif isinstance(value, str):
        try:
            parsed = isodate.parse_duration(value)
        except (isodate.ISO8601Error, ValueError, ArithmeticError) as exc:
            raise InvalidDurationError(value, path) from exc
        result = _as_timedelta(parsed)
    else:
        raise InvalidDurationError(value, path)
    if result <= timedelta(0):
        raise InvalidDurationError(value, path, reason="must be a positive duration")
    return result


def format_duration(value: timedelta) -> str:
    """Write a `timedelta` as an ISO-8601 duration (``P1D``, ``PT2H``).

    Args:
        value: the duration.

    Returns:
        The ISO-8601 text; days are never folded into months or years.

    Raises:
        TypeError: `value` is not a `timedelta`.
    """
    if not isinstance(value, timedelta):
        raise TypeError(f"expected a timedelta, got {type(value).__name__}")
    return str(isodate.duration_isoformat(value))


def _as_timedelta(parsed: object) -> timedelta:
    """Turn what `isodate.parse_duration` returns into a `timedelta`."""
    if isinstance(parsed, timedelta):
        return parsed
    # isodate.Duration: years and months (possibly Decimal) plus a timedelta.
    years = Decimal(str(getattr(parsed, "years", 0)))
    months = Decimal(str(getattr(parsed, "months", 0)))
    rest = getattr(parsed, "tdelta", timedelta(0))
    if not isinstance(rest, timedelta):  # pragma: no cover - isodate always sets it
        raise TypeError(f"unexpected isodate result {type(parsed).__name__}")
    days = years * _DAYS_PER_YEAR + months * _DAYS_PER_MONTH
    return timedelta(days=float(days)) + rest


def _validate_duration(value: object) -> timedelta:
    """Pydantic hook: report bad durations with a type `_to_policy_error` knows."""
    try:
        return parse_duration(value)
    except InvalidDurationError as exc:
        raise PydanticCustomError(
            _BAD_DURATION,
            "expected a positive ISO-8601 duration such as P1D or PT2H",
            {"value": exc.value},
        ) from None


PositiveDuration = Annotated[
    timedelta,
    BeforeValidator(_validate_duration),
    PlainSerializer(format_duration, return_type=str, when_used="json"),
]


def _yaml_off(value: object) -> object:
    """Read YAML 1.1's ``mode: off`` (which `yaml.safe_load` gives as False) as "off"."""
    return "off" if value is False else value


# --------------------------------------------------------------------------- models


class _Block(BaseModel):
    """Base of every policy block: unknown keys refused, instances immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class LatestActionsPolicy(_Block):
    """``clock.store.latest_actions``: the rolling list of clocked actions (§6)."""

    enabled: StrictBool = True
    max_items: Annotated[int, Field(ge=1, strict=True)] = 25
    auto_clock_temporal_actions: StrictBool = True
    require_explicit_clock_it_for_non_temporal: StrictBool = True
    store_quotes: StrictBool = False


class StorePolicy(_Block):
    """``clock.store``: what gets stored."""

    last_message_timestamps: StrictBool = True
    latest_actions: LatestActionsPolicy = LatestActionsPolicy()


class RuleWhen(_Block):
    """The conditions of a check-in rule; all given conditions must hold.

    Attributes:
        thread_kind: the thread's kind equals this.
        elapsed_gte: time since the last interaction in this thread is at least this.
        elapsed_any_channel_gte: time since the user's last interaction on any
            channel is at least this.
        has_open_action: whether an open clocked action exists equals this.
    """

    thread_kind: ThreadKind | None = None
    elapsed_gte: PositiveDuration | None = None
    elapsed_any_channel_gte: PositiveDuration | None = None
    has_open_action: StrictBool | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> Self:
        """Refuse a `when` without conditions.

        Raises:
            ValueError: no condition is given.
        """
        if (
            self.thread_kind is None
            and self.elapsed_gte is None
            and self.elapsed_any_channel_gte is None
            and self.has_open_action is None
        ):
            raise ValueError(
                "a rule needs at least one condition (an empty `when` would fire on every message)"
            )
        return self

    def matches(self, facts: PolicyFacts) -> bool:
        """Whether every given condition holds for these facts."""
        if self.thread_kind is not None and facts.thread_kind != self.thread_kind:
            return False
        if self.elapsed_gte is not None and (
            facts.elapsed_since_last_interaction is None
            or facts.elapsed_since_last_interaction < self.elapsed_gte
        ):
            return False
        if self.elapsed_any_channel_gte is not None and (
            facts.elapsed_since_last_interaction_any_channel is None
            or facts.elapsed_since_last_interaction_any_channel < self.elapsed_any_channel_gte
        ):
            return False
        return self.has_open_action is None or facts.has_open_action == self.has_open_action


class RuleThen(_Block):
    """What a fired check-in rule allows (§9)."""

    ask_for_updates: StrictBool = False
    offer_recap: StrictBool = False
    allow_hedged_reference: StrictBool = False


class Rule(_Block):
    """One check-in rule: an id, its conditions and its effects."""

    id: Annotated[str, Field(min_length=1, strict=True)]
    when: RuleWhen
    then: RuleThen = RuleThen()

    def matches(self, facts: PolicyFacts) -> bool:
        """Whether this rule fires for these facts."""
        return self.when.matches(facts)


DEFAULT_RULES: tuple[Rule, ...] = (
    Rule(
        id="project_gap_1d",
        when=RuleWhen(thread_kind="project", elapsed_gte=timedelta(days=1)),
        then=RuleThen(ask_for_updates=True),
    ),
    Rule(
        id="action_gap_2h",
        when=RuleWhen(has_open_action=True, elapsed_gte=timedelta(hours=2)),
        then=RuleThen(allow_hedged_reference=True),
    ),
    Rule(
        id="long_gap_30d",
        when=RuleWhen(elapsed_gte=timedelta(days=30)),
        then=RuleThen(offer_recap=True),
    ),
)


class CheckinsPolicy(_Block):
    """``clock.checkins``: the rules evaluated in order on each prompt."""

    enabled: StrictBool = True
    rules: tuple[Rule, ...] = DEFAULT_RULES

    @field_validator("rules")
    @classmethod
    def _unique_ids(cls, rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        """Refuse two rules with one id.

        Raises:
            PydanticCustomError: a rule id is used twice.
        """
        first_index: dict[str, int] = {}
        for index, rule in enumerate(rules):
            if rule.id in first_index:
                raise PydanticCustomError(
                    _DUPLICATE_RULE_ID,
                    "duplicate rule id '{rule_id}' (already used by rule {first})",
                    {"rule_id": rule.id, "index": index, "first": first_index[rule.id]},
                )
            first_index[rule.id] = index
        return rules


class InferencePolicy(_Block):
    """``clock.inference``: inference for tone and continuity, never as fact (§8)."""

    enabled: StrictBool = True
    allow_for_tone_only: StrictBool = True
    require_confirmation_for_impactful_actions: StrictBool = True


class Policy(_Block):
    """The CLOCK policy: the contents of the ``clock:`` block, defaults as in §0.

    `mode` also accepts False, which is what `yaml.safe_load` makes of an
    unquoted ``mode: off``.
    """

    enabled: StrictBool = True
    mode: Annotated[Mode, BeforeValidator(_yaml_off)] = "light"
    cross_channel_tracking: StrictBool = True
    store: StorePolicy = StorePolicy()
    checkins: CheckinsPolicy = CheckinsPolicy()
    inference: InferencePolicy = InferencePolicy()
    ambiguity_threshold_hours: Annotated[float, Field(gt=0, strict=True, allow_inf_nan=False)] = 4.0

    def with_overrides(
        self, overrides: Mapping[str, object], *, source: str | None = None
    ) -> Policy:
        """This policy with per-user overrides (CLOCK-STATE ``policy_overrides``) applied.

        Mappings are merged key by key, at any depth; any other value, lists
        such as ``checkins.rules`` included, replaces the current one whole.
        The result is validated again.

        Args:
            overrides: keys of the ``clock:`` block, e.g. ``{"mode": "off"}`` or
                ``{"checkins": {"enabled": False}}``.
            source: where the overrides came from, for the error.

        Returns:
            A new policy (this one is unchanged).

        Raises:
            PolicyError: the merged policy does not validate; `.path` names the
                bad field (``clock.mode``).
            InvalidDurationError: an override holds a bad duration.
        """
        if not isinstance(overrides, Mapping):
            raise PolicyError(
                _ROOT,
                f"overrides must be a mapping, not {type(overrides).__name__}",
                source=source,
            )
        if not overrides:
            return self
        merged = _deep_merge(self.model_dump(mode="python"), overrides)
        return _validate_block(merged, source)


DEFAULT_POLICY: Policy = Policy()


def _deep_merge(base: Mapping[str, Any], overrides: Mapping[Any, object]) -> dict[Any, object]:
    """Merge `overrides` into a copy of `base`: mappings recursively, anything else replaced."""
    merged: dict[Any, object] = dict(base)
    for key, value in overrides.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = _deep_merge(current, value)
        else:
            merged[key] = value
    return merged


# --------------------------------------------------------------------------- loading


def policy_from_mapping(data: Mapping[str, object], *, source: str | None = None) -> Policy:
    """Build the policy from a whole config document held in memory.

    `data` is the top level of the config, as `load_policy` reads it from a
    file: the policy is under its ``clock`` key and other keys are ignored.
    Without a ``clock`` key, or with ``clock: null``, the §0 defaults apply.

    Args:
        data: the config document, e.g. ``{"clock": {"mode": "normal"}}``.
        source: where it came from, for the error.

    Returns:
        The validated policy.

    Raises:
        PolicyError: `data` or its ``clock`` value is not a mapping, or a field
            does not validate; `.path` is the dotted path (``clock.mode``).
        InvalidDurationError: a duration field cannot be read.
    """
    if not isinstance(data, Mapping):
        raise PolicyError(
            "", f"the config must be a mapping, not {type(data).__name__}", source=source
        )
    block = data.get(_ROOT)
    if block is None:
        return DEFAULT_POLICY
    if not isinstance(block, Mapping):
        raise PolicyError(_ROOT, f"must be a mapping, not {type(block).__name__}", source=source)
    return _validate_block(block, source)


def load_policy(path: str | os.PathLike[str] | None) -> Policy:
    """Read the policy from the ``clock:`` block of a YAML file.

    Args:
        path: the YAML file; None for the §0 defaults.

    Returns:
        The validated policy; the defaults when the file has no ``clock`` key
        (an empty file included).

    Raises:
        PolicyError: the file is missing or unreadable, is not valid YAML, its
            top level is not a mapping, or a field does not validate. `.source`
            is the file and `.path` the dotted path of the bad field (empty
            when the problem is the file itself).
        InvalidDurationError: a duration field cannot be read.
    """
    if path is None:
        return DEFAULT_POLICY
    source = os.fspath(path)
    try:
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        raise PolicyError("", "policy file not found", source=source) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise PolicyError("", f"cannot read policy file: {reason}", source=source) from None
    except UnicodeDecodeError:
        raise PolicyError("", "policy file is not valid UTF-8", source=source) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise PolicyError("", _describe_yaml_error(exc), source=source) from None
    if data is None:
        return DEFAULT_POLICY
    if not isinstance(data, Mapping):
        raise PolicyError(
            "", f"the top level must be a mapping, not {type(data).__name__}", source=source
        )
    return policy_from_mapping(data, source=source)


def _describe_yaml_error(exc: yaml.YAMLError) -> str:
    """Say where the YAML is broken without quoting the file (it may hold secrets)."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "cannot be parsed"
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        return f"invalid YAML{where}: {problem}"
    return f"invalid YAML ({type(exc).__name__})"


def _validate_block(block: Mapping[Any, object], source: str | None) -> Policy:
    """Validate the contents of a ``clock:`` block, turning errors into PolicyError."""
    try:
        return Policy.model_validate(dict(block))
    except ValidationError as exc:
        raise _to_policy_error(exc, source) from None


def _dotted(loc: tuple[int | str, ...]) -> str:
    """``("checkins", "rules", 0)`` → ``clock.checkins.rules.0``."""
    return ".".join([_ROOT, *(str(part) for part in loc)])


def _error_path(error: ErrorDetails) -> str:
    """The dotted path of one pydantic error, pointing at the offending rule id if any."""
    loc = tuple(error["loc"])
    if error["type"] == _DUPLICATE_RULE_ID:
        loc = (*loc, error.get("ctx", {})["index"], "id")
    return _dotted(loc)


def _error_message(error: ErrorDetails) -> str:
    """The message of one pydantic error, without pydantic's "Value error, " prefix."""
    return error["msg"].removeprefix("Value error, ")


def _to_policy_error(exc: ValidationError, source: str | None) -> PolicyError:
    """The first error as a PolicyError (others listed after it), without input values."""
    errors = exc.errors(include_url=False, include_input=False, include_context=True)
    first, others = errors[0], errors[1:]
    path = _error_path(first)
    also = "; ".join(f"{_error_path(error)}: {_error_message(error)}" for error in others)
    result: PolicyError
    if first["type"] == _BAD_DURATION:
        result = InvalidDurationError(first.get("ctx", {}).get("value"), path, source=source)
        if also:
            result.add_note(f"also: {also}")
    else:
        reason = _error_message(first)
        if also:
            reason += f" (also: {also})"
        result = PolicyError(path, reason, source=source)
    return result


# --------------------------------------------------------------------------- decision


@dataclass(frozen=True, slots=True)
class PolicyFacts:
    """What is known about the current prompt, for the relevance decision (§5.1).

    Attributes:
        thread_kind: the thread's kind; ``conversation`` when unknown (§5.2).
        elapsed_since_last_interaction: since the last interaction in this
            thread; None when there was none.
        elapsed_since_last_interaction_any_channel: since the user's last
            interaction on any channel; None when unknown or not tracked.
        has_open_action: an open clocked action exists.
        mentions_time: the message has time references or scheduling intent.
        has_clock_directive: the user wrote "clock it" or "clock:".
    """

    thread_kind: ThreadKind = "conversation"
    elapsed_since_last_interaction: timedelta | None = None
    elapsed_since_last_interaction_any_channel: timedelta | None = None
    has_open_action: bool = False
    mentions_time: bool = False
    has_clock_directive: bool = False


@dataclass(frozen=True, slots=True)
class Decision:
    """Whether temporal awareness is on for a prompt, and what it allows.

    Attributes:
        temporal_awareness: CLOCK is relevant for this prompt.
        triggered_rules: ids of the fired check-in rules, in policy order.
        ask_for_updates: some fired rule asks for updates.
        offer_recap: some fired rule offers a recap.
        allow_hedged_reference: some fired rule allows a hedged reference to an
            open action.
        reason: why: ``disabled``, ``mode off``, ``rules``, ``time reference``,
            ``clock directive`` or ``not relevant``.
    """

    temporal_awareness: bool
    triggered_rules: tuple[str, ...]
    ask_for_updates: bool
    offer_recap: bool
    allow_hedged_reference: bool
    reason: DecisionReason


def _off(reason: DecisionReason) -> Decision:
    return Decision(False, (), False, False, False, reason)


def evaluate(policy: Policy, facts: PolicyFacts) -> Decision:
    """Decide whether CLOCK matters for this prompt (§5.1).

    ``enabled: false`` or ``mode: off`` turn temporal awareness off. Otherwise
    the check-in rules (when ``checkins.enabled``) are evaluated in order and
    the flags of the fired ones are combined; any fired rule turns awareness
    on, else a time reference does, else a clock directive does. `light` and
    `normal` decide alike; they differ in how the agent acts on the decision.

    Args:
        policy: the user's effective policy.
        facts: what is known about the prompt.

    Returns:
        The decision.
    """
    if not policy.enabled:
        return _off("disabled")
    if policy.mode == "off":
        return _off("mode off")
    fired = (
        tuple(rule for rule in policy.checkins.rules if rule.matches(facts))
        if policy.checkins.enabled
        else ()
    )
    reason: DecisionReason
    if fired:
        reason = "rules"
    elif facts.mentions_time:
        reason = "time reference"
    elif facts.has_clock_directive:
        reason = "clock directive"
    else:
        reason = "not relevant"
    return Decision(
        temporal_awareness=reason != "not relevant",
        triggered_rules=tuple(rule.id for rule in fired),
        ask_for_updates=any(rule.then.ask_for_updates for rule in fired),
        offer_recap=any(rule.then.offer_recap for rule in fired),
        allow_hedged_reference=any(rule.then.allow_hedged_reference for rule in fired),
        reason=reason,
    )
