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

The package's rooms: `model` (the blocks, defaults and validation), `durations`,
`loading` (from a document or a file) and `decision` (`evaluate`).
"""

from __future__ import annotations

from clockcore.policy.decision import Decision, DecisionReason, evaluate
from clockcore.policy.durations import format_duration, parse_duration
from clockcore.policy.loading import load_policy, policy_from_mapping
from clockcore.policy.model import (
    DEFAULT_POLICY,
    DEFAULT_RULES,
    CheckinsPolicy,
    InferencePolicy,
    LatestActionsPolicy,
    Mode,
    Policy,
    PolicyFacts,
    Rule,
    RuleThen,
    RuleWhen,
    StorePolicy,
    ThreadKind,
)

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
