"""The latest-action tools: `clock_it` records one, `update_action` changes its status.

Their definitions are built with the others in `bot.agent.tools.toolbox` (the tool list is
byte-stable); the handlers live here. Like every writing tool they only stage
effects (`NewAction`, `ActionStatusChange`), committed with the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.agent.tools.tool_session import (
    BadArguments,
    Handler,
    NotAvailable,
    ToolSession,
    integer_arg,
    required_text,
    text_arg,
)
from clockcore.envelope import ContextEnvelope
from clockcore.envelope_items import OpenAction
from wrapper.outbound.schedules import NewSchedule
from wrapper.turns.effects import (
    SETTABLE_ACTION_STATUSES,
    ActionsDisabledError,
    ActionStatusChange,
    NewAction,
    NewMemory,
    check_action,
    new_action_id,
)

__all__ = ["ACTION_HANDLERS"]

_AGAIN = "recorded earlier in this turn: now answer the person"
_SAID = "recorded from the person's own message already: now answer the person"


async def _clock_it(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    label = required_text(arguments, "label")
    minutes = integer_arg(arguments, "expected_minutes", required=False)
    minutes = minutes or None  # 0 is no expectation (docs/eval.md, M44)
    try:
        label = check_action(label, minutes)
    except ValueError as exc:
        raise BadArguments(str(exc)) from exc
    staged = [e for e in context.staged if isinstance(e, NewAction) and e.label == label]
    if staged:  # the same call again in one turn (five in a row, docs/eval.md)
        return {"id": staged[0].id, "recorded": True, "label": label, "already_recorded": _AGAIN}
    envelope = context.envelope
    if (clocked := _clocked_from_message(envelope, label)) is not None:
        said = {"id": clocked.id, "recorded": True, "label": clocked.label}
        return {**said, "already_recorded": _SAID}
    if not await context.wrapper.actions_enabled(envelope.user_key):
        raise NotAvailable(str(ActionsDisabledError()))
    action = NewAction(
        id=new_action_id(), user_key=envelope.user_key, thread_key=envelope.thread_key,
        label=label, expected_minutes=minutes, at=context.clock.now(),
    )  # fmt: skip
    context.stage(action)
    result: dict[str, Any] = {"id": action.id, "recorded": True, "label": label}
    if minutes is not None:
        result["expected_minutes"] = minutes
    return result


def _clocked_from_message(envelope: ContextEnvelope, label: str) -> OpenAction | None:
    """The action the wrapper clocked from this very message, when `label` names it too.

    "clock it: writing the quarterly report, two hours" is recorded by the wrapper
    before the model reads it (docs/talking.md); a model that calls clock_it for it
    as well ("writing the quarterly report") made a second action (docs/eval.md).
    The same thing is a label one of the two holds whole.
    """
    message = envelope.message
    if message is None:
        return None
    wanted = label.casefold()
    for action in envelope.open_actions:
        theirs = action.label.casefold()
        if action.recorded_at == message.received_at and (wanted in theirs or theirs in wanted):
            return action
    return None


async def _update_action(arguments: Mapping[str, Any], context: ToolSession) -> dict[str, Any]:
    action, status = text_arg(arguments, "id"), text_arg(arguments, "status")
    assert action is not None
    assert status is not None
    if status not in SETTABLE_ACTION_STATUSES:
        raise BadArguments(
            f"status must be one of {sorted(SETTABLE_ACTION_STATUSES)}, not {status!r}"
        )
    user_key = context.envelope.user_key
    if action in _made_this_turn(context):
        # made this turn: nothing to change, said so (docs/eval.md, M45)
        return {
            "id": action,
            "changed": False,
            "not_an_action": "this id is the reminder or note set in this turn, not an "
            "action: it is set and needs nothing more. Now answer the person.",
        }
    staged = any(isinstance(e, NewAction) and e.id == action for e in context.staged)
    if not staged and not await context.wrapper.has_action(
        user_key=user_key, action_id=action, group=context.group
    ):
        raise BadArguments(f"no action with id {action!r}")
    context.stage(ActionStatusChange(user_key=user_key, id=action, status=status))
    return {"id": action, "status": status}


def _made_this_turn(context: ToolSession) -> set[str]:
    """The ids of the reminders and notes this turn's tools have set, as the model sees them."""
    made: set[str] = set()
    for effect in context.staged:
        if isinstance(effect, NewSchedule):
            made |= {f"s{effect.id}", str(effect.id)}
        elif isinstance(effect, NewMemory):
            made.add(str(effect.id))  # a one-shot reminder's result gives its note's id
    return made


ACTION_HANDLERS: dict[str, Handler] = {
    "clock_it": _clock_it,
    "update_action": _update_action,
}
