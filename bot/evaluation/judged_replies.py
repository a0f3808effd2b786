"""A scenario's replies judged as the gateway judges its own: no false claim, words for a person.

`false_claims` reads each reply with the gateway's `bot.agent.claims` against
what its turn left in the store; `wordless` with `bot.agent.reply_checks`
(docs/eval.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.agent.claims import Claim, unbacked
from bot.agent.prompt import BASELINE_PROMPT, SYSTEM_PROMPT
from bot.agent.reply_checks import TurnFacts, fault_in
from bot.agent.tools.toolbox import TOOLS
from bot.evaluation.runner import Outcome, Turn
from wrapper.outbound.reminders import PAUSED
from wrapper.outbound.schedules import WAITING
from wrapper.turns.history import EARLIER

__all__ = ["false_claims", "wordless"]


def _rows_by_id(rows: Iterable[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    return {row["id"]: row for row in rows}


def _made(turn: Turn) -> frozenset[str]:
    """The changes the store shows `turn` made, named as `bot.agent.claims.Claim.done` names them.

    The same effects back a claim as in the agent (`bot.agent.claims`): a new reminder (one-shot
    or repeating) backs "set", "stored" and "moved" (a snooze of a sent one is a new job); a
    moved due time "moved"; a one-shot skipped or paused, a rule no longer active and a
    forgotten item "cancelled"; a new item "stored"; any new message to go out "sent".
    """
    made: set[str] = set()
    jobs, schedules = _rows_by_id(turn.before.jobs), _rows_by_id(turn.before.schedules)
    for job in turn.after.jobs:
        old = jobs.get(job["id"])
        if old is None:
            made |= {"set", "stored", "moved", "sent"} if job["kind"] == "reminder" else set()
            made |= {"sent"} if job["kind"] != "reply" else set()
            continue
        if job["due_at"] != old["due_at"] and job["defer_reason"] != PAUSED:
            made.add("moved")
        stopped = job["status"] == "skipped" or job["defer_reason"] == PAUSED
        if old["status"] in WAITING and stopped and job["status"] != old["status"]:
            made.add("cancelled")
    for schedule in turn.after.schedules:
        old = schedules.get(schedule["id"])
        if old is None:
            made |= {"set", "stored", "moved"}
        elif old["state"] != schedule["state"] and schedule["state"] != "active":
            made.add("cancelled")
    kept = _rows_by_id(turn.after.memory)
    if any(row["id"] not in kept for row in turn.before.memory):
        made.add("cancelled")
    if set(kept) - {row["id"] for row in turn.before.memory}:
        made.add("stored")
    return frozenset(made)


def _asked(outcome: Outcome, turn: Turn) -> str:
    return outcome.scenario.steps[turn.step].say or ""


def _answers(outcome: Outcome, turn: Turn) -> list[str]:
    return [s.text for s in outcome.transcript if s.who == "reply" and s.step == turn.step]


def false_claims(outcome: Outcome) -> list[str]:
    """Each reply that claims a change its turn did not leave in the store, with the change."""
    found = []
    for turn in outcome.turns:
        made, asked = _made(turn), _asked(outcome, turn)

        def held(claim: Claim, made: frozenset[str] = made) -> bool:
            return claim.done in made

        for reply in _answers(outcome, turn):
            false = [c.done for c in unbacked(asked, reply, held)]
            if false:
                found.append(f"step {turn.step}, {'/'.join(false)} claimed: {reply[:160]!r}")
    return found


_TOOL_NAMES = frozenset(t.name for t in TOOLS)


def _facts(outcome: Outcome, turn: Turn) -> TurnFacts:
    """What the turn gave the model, read back from the history rows it added."""
    seen = {(h["thread_key"], h["seq"], h["content"]) for h in turn.before.history}
    added = [h for h in turn.after.history if (h["thread_key"], h["seq"], h["content"]) not in seen]
    asked = [
        h["content"] for h in added if h["role"] == "user" and not h["content"].startswith(EARLIER)
    ]
    return TurnFacts(
        tools=_TOOL_NAMES,
        block=asked[-1] if asked and not outcome.baseline else "",
        prompt=BASELINE_PROMPT if outcome.baseline else SYSTEM_PROMPT,
        results=[h["content"] for h in added if h["role"] == "tool"],
        theirs=_asked(outcome, turn),
    )


def wordless(outcome: Outcome) -> list[str]:
    """Each reply that is not words for a person (`bot.agent.reply_checks.fault_in`), with why."""
    found = []
    for turn in outcome.turns:
        facts = _facts(outcome, turn)
        for reply in _answers(outcome, turn):
            fault = fault_in(reply, facts)
            if fault is not None:
                found.append(f"step {turn.step}, {fault.what}: {reply[:160]!r}")
    return found
