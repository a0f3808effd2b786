"""The per-prompt relevance decision (docs/clock-spec.md §5.1): is CLOCK on, and what it allows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from clockcore.policy.model import Policy, PolicyFacts

__all__ = ["Decision", "DecisionReason", "evaluate"]

DecisionReason = Literal[
    "disabled", "mode off", "rules", "time reference", "clock directive", "not relevant"
]


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
