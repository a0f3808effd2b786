"""The CLOCK policy's blocks and defaults (docs/clock-spec.md §0), validated with field paths.

Errors are always `PolicyError` (or its `InvalidDurationError`) with the dotted
path of the bad field; messages never quote the value found there (the package's
docstring says why).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from clockcore.errors import InvalidDurationError, PolicyError
from clockcore.policy.durations import BAD_DURATION, PositiveDuration

__all__ = [
    "DEFAULT_POLICY",
    "DEFAULT_RULES",
    "ROOT",
    "CheckinsPolicy",
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
    "validate_block",
]

ThreadKind = Literal["project", "conversation", "scheduling", "operations"]
Mode = Literal["off", "light", "normal"]

ROOT = "clock"
"""The top-level key of the policy block, first in every error path."""
# An error type raised inside a validator and turned into a richer PolicyError.
_DUPLICATE_RULE_ID = "duplicate_rule_id"


def _yaml_off(value: object) -> object:
    """Read YAML 1.1's ``mode: off`` (which `yaml.safe_load` gives as False) as "off"."""
    return "off" if value is False else value


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
                ROOT,
                f"overrides must be a mapping, not {type(overrides).__name__}",
                source=source,
            )
        if not overrides:
            return self
        merged = _deep_merge(self.model_dump(mode="python"), overrides)
        return validate_block(merged, source)


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


def validate_block(block: Mapping[Any, object], source: str | None) -> Policy:
    """Validate the contents of a ``clock:`` block, turning errors into PolicyError."""
    try:
        return Policy.model_validate(dict(block))
    except ValidationError as exc:
        raise _to_policy_error(exc, source) from None


def _dotted(loc: tuple[int | str, ...]) -> str:
    """``("checkins", "rules", 0)`` → ``clock.checkins.rules.0``."""
    return ".".join([ROOT, *(str(part) for part in loc)])


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
    if first["type"] == BAD_DURATION:
        result = InvalidDurationError(first.get("ctx", {}).get("value"), path, source=source)
        if also:
            result.add_note(f"also: {also}")
    else:
        reason = _error_message(first)
        if also:
            reason += f" (also: {also})"
        result = PolicyError(path, reason, source=source)
    return result


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
