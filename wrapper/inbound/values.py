"""What one message's rows mean: its policy, decision and envelope, as functions of one state.

The general chain (`wrapper.inbound.chain`) and the hot path (`wrapper.inbound.hot`) read the
same rows in different ways and hand them here, so both derive the same
values (`tests/wrapper/test_hot_path.py` holds them to it row for row). Each
function takes the `Intake` settings and the `Turn` being built; none touches
the store.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from clockcore import (
    ContactWindow,
    Policy,
    PolicyFacts,
    delta_hours,
    evaluate,
    runtime_time_context,
)
from clockcore.actions import ActionDraft, draft_action
from clockcore.envelope import ContextEnvelope
from clockcore.envelope_items import OpenAction
from clockcore.message import speaker_label
from wrapper.keys import is_private_thread, split_thread_key
from wrapper.store import queries
from wrapper.store.rows import PersonRow, ThreadView
from wrapper.turns.turn import Turn, other_zones

__all__ = [
    "Intake",
    "adopt_rows",
    "decide",
    "draft",
    "effective_policy",
    "elapsed",
    "envelope",
    "extend_actions",
    "stamp_delta",
]


@dataclass(frozen=True)
class Intake:
    """What every message's values are computed from, for one store and one agent.

    Attributes:
        agent_id: the agent's name in thread keys.
        policy: the CLOCK policy for everyone (per-user overrides apply on top).
        agent_tz: the host's IANA zone.
        window: the default contact window.
    """

    agent_id: str
    policy: Policy
    agent_tz: str
    window: ContactWindow


def adopt_rows(
    intake: Intake,
    turn: Turn,
    person: PersonRow,
    thread: ThreadView | None,
    spoke_before: datetime | None,
) -> None:
    """Take the person's and the thread's rows into `turn`, with the policy they make."""
    turn.person = person
    turn.thread = thread or ThreadView()
    turn.spoke_before = spoke_before
    turn.policy = effective_policy(intake.policy, person.policy_overrides)


def stamp_delta(intake: Intake, turn: Turn) -> float:
    """Hours between the thread's zone (or the person's) and the host's, at the message."""
    zone = turn.thread.session_tz or turn.user_tz or "UTC"
    return delta_hours(zone, intake.agent_tz, turn.received_at)


def draft(
    turn: Turn, phrase: str, source: str, calibration: Mapping[str, tuple[int, int]]
) -> ActionDraft:
    """The action `phrase` clocks, as the person's policy stores it."""
    return draft_action(
        phrase,
        source=source,  # type: ignore[arg-type]
        thread_kind=turn.thread_kind,  # type: ignore[arg-type]
        store_quotes=turn.policy.store.latest_actions.store_quotes,
        calibration=calibration,
    )


def extend_actions(turn: Turn, expires: datetime) -> None:
    """Raise the person's `actions_until` to `expires` (it never goes down)."""
    until = turn.person.actions_until
    turn.person = dataclasses.replace(
        turn.person, actions_until=max(until, expires) if until else expires
    )


def decide(turn: Turn, rows: list[Mapping[str, Any]]) -> None:
    """The policy's decision for `turn`, given the person's open action rows."""
    turn.open_actions = [
        queries.row_as(OpenAction, row)
        for row in rows
        if row["thread_key"] == turn.thread_key
        or (turn.private and is_private_thread(*split_thread_key(row["thread_key"])[1:]))
    ]
    # The message that clocked an action does not count as returning to it.
    prior = [a for a in turn.open_actions if a.recorded_at < turn.received_at]
    thread_last = turn.thread.last_interaction_at
    any_last = turn.person.last_interaction_any_channel_at
    facts = PolicyFacts(
        thread_kind=turn.thread_kind,  # type: ignore[arg-type]
        elapsed_since_last_interaction=elapsed(turn.received_at, thread_last),
        elapsed_since_last_interaction_any_channel=(
            elapsed(turn.received_at, any_last) if turn.policy.cross_channel_tracking else None
        ),
        has_open_action=bool(prior),
        mentions_time=turn.talks_about_time,
        has_clock_directive=turn.directives.any,
    )
    turn.decision = evaluate(turn.policy, facts)


def envelope(intake: Intake, turn: Turn) -> ContextEnvelope:
    """The context envelope of a decided `turn`."""
    assert turn.zone is not None
    assert turn.decision is not None
    zone = turn.zone.zone
    thread_last = turn.thread.last_interaction_at
    any_last = turn.person.last_interaction_any_channel_at
    decision = turn.decision
    return ContextEnvelope(
        thread_key=turn.thread_key,
        user_key=turn.user_key,
        channel=turn.channel,
        now=turn.received_at,
        session_tz=zone,
        session_tz_source=turn.zone.source,
        user_tz=turn.user_tz,
        agent_tz=intake.agent_tz,
        delta_hours=delta_hours(zone, intake.agent_tz, turn.received_at),
        thread_kind=turn.thread_kind,  # type: ignore[arg-type]
        elapsed_since_last_interaction=elapsed(turn.received_at, thread_last),
        elapsed_since_last_interaction_any_channel=(
            elapsed(turn.received_at, any_last) if turn.policy.cross_channel_tracking else None
        ),
        temporal_awareness=decision.temporal_awareness,
        triggered_rules=decision.triggered_rules,
        ask_for_updates=decision.ask_for_updates,
        offer_recap=decision.offer_recap,
        allow_hedged_reference=decision.allow_hedged_reference,
        open_actions=tuple(turn.open_actions),
        upcoming=tuple(turn.upcoming),
        contact=runtime_time_context(
            turn.received_at, turn.user_tz, turn.person.window(intake.window)
        ),
        notices=tuple(dict.fromkeys(turn.notices)),
        duplicate=turn.duplicate,
        session_started_at=turn.session_started_at,
        elapsed_since_last_user_message=elapsed(turn.received_at, turn.spoke_before),
        any_channel_last_channel=turn.person.last_interaction_any_channel,
        message=turn.ref,
        other_zones=other_zones(turn),
        speaker=None
        if turn.private
        else speaker_label(
            turn.ref.sender_name or turn.person.display_name, turn.channel, turn.user_id
        ),
    )


@lru_cache(maxsize=256)
def _cached_policy(base: Policy, overrides_key: str) -> Policy:
    return base.with_overrides(json.loads(overrides_key)) if overrides_key != "{}" else base


def effective_policy(base: Policy, overrides: Mapping[str, Any]) -> Policy:
    """`base` with a person's overrides on top (cached: few people override anything)."""
    return _cached_policy(base, json.dumps(overrides, sort_keys=True))


def elapsed(now: datetime, then: datetime | None) -> timedelta | None:
    """How long since `then`, never negative; None when there was no `then`."""
    if then is None:
        return None
    return max(now - then, timedelta(0))
