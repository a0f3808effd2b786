"""How each effect lands in the caller's transaction: one match, one write per effect.

The effects are values (`wrapper.turns.effects`); an effect that meets a store
changed since it was staged changes nothing rather than failing the turn.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.engine import Connection

from clockcore import Policy, delta_hours
from clockcore.actions import MAX_TTL, classify_activity, draft_action
from wrapper import keys
from wrapper.calendar_feeds import NewCalendarFeed, new_feed_in
from wrapper.inbound.sender_checks import NewSenderCheck, TakeSenderCheck, check_in, take_check_in
from wrapper.meeting_answers import vote_in
from wrapper.meeting_polls import MeetingVote, NewMeetingPoll, store_poll_in
from wrapper.outbound.outbox import cancel_reminders, enqueue_in
from wrapper.outbound.reminders import ReminderChange, RuleChange, change_in, rule_in
from wrapper.outbound.schedule_changes import rezone_in
from wrapper.outbound.schedules import NewSchedule, create_in
from wrapper.store import queries
from wrapper.store.rows import PersonRow
from wrapper.turns.effects import (
    ActionsDisabledError,
    ActionStatusChange,
    Effect,
    Enqueue,
    ForgetMemory,
    MarkReminded,
    NewAction,
    NewMemory,
    WindowChange,
    ZoneChange,
    outbox_values,
)
from wrapper.web import NewSignInLink, link_in

__all__ = ["actions_enabled", "apply_effect"]


def apply_effect(
    conn: Connection, effect: Effect, *, policy: Policy, agent_tz: str, now: datetime
) -> None:
    """Write one effect in the caller's transaction."""
    match effect:
        case NewMemory():
            store_memory(conn, effect, now=now)
        case MarkReminded():
            queries.mark_reminded(conn, effect.id, effect.at)
        case ForgetMemory():
            drop_memory(conn, user_key=effect.user_key, item_id=effect.id)
        case NewAction():
            record_action(conn, effect, policy=policy)
        case ActionStatusChange():
            change_action(conn, user_key=effect.user_key, action_id=effect.id, status=effect.status)
        case ZoneChange():
            set_zone(conn, effect, agent_tz=agent_tz, now=now)
        case Enqueue():
            enqueue_in(conn, outbox_values(effect, now))
        case NewSchedule():
            create_in(conn, effect, now=now)
        case ReminderChange():
            change_in(conn, effect, now=now)
        case RuleChange():
            rule_in(conn, effect, now=now)
        case WindowChange():
            person = _person(conn, effect.user_key, now)
            queries.update_person(conn, person.user_id, contact_window=effect.window)
        case NewSignInLink():
            link_in(conn, effect, now=now)
        case NewCalendarFeed():
            new_feed_in(conn, effect, now=now)
        case NewMeetingPoll():
            store_poll_in(conn, effect, now=now)
        case MeetingVote():
            vote_in(conn, effect, now=now)
        case NewSenderCheck():
            check_in(conn, effect, now=now)
        case TakeSenderCheck():
            take_check_in(conn, effect)


def _person(conn: Connection, user_key: str, now: datetime) -> PersonRow:
    channel, channel_user_id = keys.split_user_key(user_key)
    return queries.person_for(
        conn, user_key=user_key, channel=channel, channel_user_id=channel_user_id, now=now
    )


def store_memory(conn: Connection, item: NewMemory, *, now: datetime) -> int:
    """Insert the item (creating the person when new); its id."""
    person = _person(conn, item.user_key, now)
    return queries.insert_memory(
        conn,
        item_id=item.id,
        user_id=person.user_id,
        content=item.content,
        now=item.created_at or now,
        due_at=item.due_at,
        group=item.group,
    )


def drop_memory(conn: Connection, *, user_key: str, item_id: int) -> int | None:
    """Delete the person's item and fail its waiting reminders; how many, None for no such item."""
    person = queries.load_person(conn, user_key)
    if person is None:
        return None
    if not queries.delete_memory(conn, user_id=person.user_id, item_id=item_id):
        return None
    return cancel_reminders(conn, item_id)


def actions_enabled(conn: Connection, *, policy: Policy, user_key: str) -> bool:
    """Whether the person's policy lets actions be recorded."""
    person = queries.load_person(conn, user_key)
    overrides = person.policy_overrides if person else {}
    return bool(policy.with_overrides(overrides).store.latest_actions.enabled)


def record_action(conn: Connection, action: NewAction, *, policy: Policy) -> str:
    """Record a clocked action as ``clock it:`` does, applying the person's cap; its id.

    `expected_minutes` replaces the typical duration, raises the maximum to it
    when needed, and stretches the expiry to cover it (at most `MAX_TTL`).

    Raises:
        ActionsDisabledError: the person's policy turns action tracking off.
    """
    person = _person(conn, action.user_key, action.at)
    person_id = person.user_id
    settings = policy.with_overrides(person.policy_overrides).store.latest_actions
    if not settings.enabled:
        raise ActionsDisabledError()
    thread, _ = queries.load_thread(conn, action.thread_key, action.user_key)
    known = classify_activity(action.label) is not None
    draft = draft_action(
        action.label,
        source="clock_it",
        thread_kind=thread.thread_kind if thread else "conversation",  # type: ignore[arg-type]
        store_quotes=False,
        calibration=queries.calibration_for(conn, person_id) if known else {},
    )
    typical, most, ttl = None, None, None
    if action.expected_minutes is not None:
        most = max(draft.expected_max_minutes or 0, action.expected_minutes)
        typical = action.expected_minutes
        ttl = min(max(draft.ttl, timedelta(minutes=most)), MAX_TTL)
    action_id, _ = queries.record_action(
        conn,
        action_id=action.id,
        person_id=person_id,
        thread_key=action.thread_key,
        draft=draft,
        at=action.at,
        max_items=settings.max_items,
        typical_minutes=typical,
        max_minutes=most,
        ttl=ttl,
    )
    return action_id


def change_action(conn: Connection, *, user_key: str, action_id: str, status: str) -> bool:
    """Set the status of the person's action; False when they have no such action."""
    person = queries.load_person(conn, user_key)
    if person is None:
        return False
    return queries.set_action_status(
        conn, user_id=person.user_id, action_id=action_id, status=status
    )


def set_zone(conn: Connection, change: ZoneChange, *, agent_tz: str, now: datetime) -> None:
    """Set the thread's session zone (a bare thread row when new) or the person's home zone."""
    if change.scope == "thread":
        assert change.thread_key is not None  # checked when the change was made
        agent_id, channel, thread_id = keys.split_thread_key(change.thread_key)
        queries.set_thread_zone(
            conn,
            thread_key=change.thread_key,
            agent_id=agent_id,
            channel=channel,
            thread_id=thread_id,
            zone=change.zone,
            delta_hours=delta_hours(change.zone, agent_tz, now),
            now=now,
        )
    else:
        person = _person(conn, change.user_key, now)
        queries.update_person(conn, person.user_id, default_tz=change.zone)
        if person.own_zone != change.zone:
            rezone_in(conn, person.user_id, old=person.own_zone, now=now)
