"""Judge a played scenario from what clockbot stored and sent; no model is asked.

Each expectation (`bot.evaluation.scenario.Expectation`) becomes one `Check`.
Four checks run on every scenario: no tool error was left unanswered (the
model tried the tool again successfully, or asked the person), no effect was
made twice, no reply claims a change the store does not hold, and every reply is
words for a person (the last two `bot.evaluation.judged_replies`). The kinds and
their fields are listed in docs/eval.md.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot import catalog, replies
from bot.evaluation.judged_replies import false_claims, wordless
from bot.evaluation.runner import Outcome, Said, StoreState, plain
from bot.evaluation.scenario import Expectation
from clockcore import to_iso
from wrapper.turns.history import EARLIER

__all__ = [
    "FALSE_CLAIM_CHECK",
    "NO_WORDS_CHECK",
    "Check",
    "judge",
    "spoken_times",
    "tool_errors",
]

FALSE_CLAIM_CHECK = "no reply claims a change the store does not hold"
NO_WORDS_CHECK = "every reply is words for a person"

SLACK = timedelta(minutes=1)
"""How far an instant may be from the expected one (docs/eval.md)."""


@dataclass(frozen=True, slots=True)
class Check:
    """One judged expectation: what was asked, whether it held, and what was found."""

    what: str
    ok: bool
    found: str = ""


_CLOCK = re.compile(
    r"(?<![\d:+\-])(\d{1,2})(?:\s*[:.h]\s*(\d{2})(?::\d{2})?)?"
    r"(?:\s*(a\.?\s?m\.?|p\.?\s?m\.?|uhr|h)(?![^\W\d_]))?(?![\d:])",
    re.IGNORECASE,
)


def spoken_times(text: str) -> set[str]:
    """Every clock time in `text`, as 24-hour ``HH:MM``: "3:05 pm", "15:05", "15h05", "3pm",
    "17:00:00".

    A bare number counts only with minutes or a marker (am/pm, h, Uhr); a UTC
    offset ("+09:00") is not a time.
    """
    found: set[str] = set()
    for match in _CLOCK.finditer(text):
        hour_text, minute_text, marker = match.groups()
        if minute_text is None and marker is None:
            continue
        hour, minute = int(hour_text), int(minute_text or 0)
        mark = (marker or "").lower().replace(".", "").replace(" ", "")
        if mark in ("am", "pm"):
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if mark == "pm" else 0)
        if hour > 24 or minute > 59:
            continue
        found.add(f"{hour % 24:02d}:{minute:02d}")
    return found


def _near(at: datetime | None, expected: datetime) -> bool:
    return at is not None and abs(at - expected) <= SLACK


def _has(text: str | None, needle: str | None) -> bool:
    return needle is None or (text is not None and needle.casefold() in text.casefold())


def _iso(at: datetime | None) -> str:
    return to_iso(at, "UTC") if at is not None else "-"


def _one_shots(state: StoreState) -> list[dict[str, Any]]:
    return [
        j for j in state.jobs if j["kind"] in ("reminder", "proactive") and j["schedule_id"] is None
    ]


def _first_due(job: dict[str, Any]) -> datetime:
    return job["deferred_from"] or job["due_at"]  # type: ignore[no-any-return]


def _shown(rows: Iterable[dict[str, Any]], *keys: str) -> str:
    parts = [", ".join(f"{k}={plain(row.get(k))}" for k in keys) for row in rows]
    return "; ".join(parts) or "none"


def _reminder(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    jobs = _one_shots(state)
    hits = [
        j for j in jobs if _has(j["text"], e.text) and (e.at is None or _near(_first_due(j), e.at))
    ]
    return Check(
        f"a reminder {e.text!r} at {_iso(e.at)}", bool(hits), _shown(jobs, "text", "due_at")
    )


def _repeating(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    hits = [
        s
        for s in state.schedules
        if _has(s["text"], e.text) and all(part in s["rrule"] for part in e.rule)
    ]
    if hits and e.at is not None:
        firsts = [
            min((j["due_at"] for j in state.jobs if j["schedule_id"] == s["id"]), default=None)
            for s in hits
        ]
        hits = [s for s, first in zip(hits, firsts, strict=True) if _near(first, e.at)]
    what = f"a repeating reminder {e.text!r} with {'; '.join(e.rule)}"
    return Check(what, bool(hits), _shown(state.schedules, "text", "rrule"))


def _no_reminder(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    made = _one_shots(state) + state.schedules
    return Check("no reminder set (the person must be asked first)", not made, _shown(made, "text"))


def _sent(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    sent = [j for j in state.jobs if j["kind"] != "reply" and j["status"] == "sent"]
    hits = [
        j
        for j in sent
        if _has(j["final_text"] or j["text"], e.text)
        and (e.at is None or _near(j["sent_at"], e.at))
    ]
    what = f"a message {e.text!r} sent" + (f" at {_iso(e.at)}" if e.at else "")
    return Check(what, bool(hits), _shown(sent, "text", "sent_at"))


def _deferred(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    moved = [j for j in state.jobs if j["deferred_from"] is not None]
    hits = [
        j
        for j in moved
        if (j["defer_reason"] or "").strip()
        and _has(j["text"], e.text)
        and (e.after is None or j["due_at"] >= e.after)
        and (e.before is None or j["due_at"] <= e.before)
    ]
    what = f"{e.text or 'the message'!r} deferred with a reason"
    if e.after or e.before:
        what += f" to between {_iso(e.after)} and {_iso(e.before)}"
    return Check(what, bool(hits), _shown(moved, "text", "due_at", "defer_reason"))


def _replies(said: list[Said], step: int | None) -> list[str]:
    """What was answered at `step` (every step: None), clockbot's own fallbacks left out.

    "I couldn't find the words for that one; could you ask me again?" is what
    clockbot says when the model gave no words: its "?" is no question the
    model asked (docs/eval.md, M17).
    """
    return [
        s.text
        for s in said
        if s.who != "person"
        and (step is None or s.step == step)
        and s.text.strip() not in _FALLBACKS
    ]


_FALLBACKS = frozenset(
    text
    for reply in (replies.NO_WORDS, replies.STUCK, replies.NOT_A_TOOL, replies.UNAVAILABLE)
    for text in catalog.texts(reply.msgid)
)
"""The replies clockbot gives in place of the model's words, in every language."""


def _reply(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    texts = _replies(said, e.step)
    joined = "\n".join(texts)
    times = spoken_times(joined)
    ok = bool(texts) and all(t in times for t in e.times)
    if e.any:
        ok = ok and any(_has(joined, word) for word in e.any)
    if e.none:
        ok = ok and not any(_has(joined, word) for word in e.none)
    parts = [f"times {list(e.times)}"] if e.times else []
    parts += [f"one of {list(e.any)}"] if e.any else []
    parts += [f"none of {list(e.none)}"] if e.none else []
    what = f"the answer to step {e.step} says " + " and ".join(parts or ["something"])
    return Check(what, ok, joined[:300] or "no answer")


def _memory(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    hits = [
        m
        for m in state.memory
        if _has(m["content"], e.text)
        and (e.at is None or _near(m["due_at"], e.at))
        and (e.reminded is None or (m["reminded_at"] is not None) == e.reminded)
    ]
    what = f"a stored item {e.text!r}" + (f" due {_iso(e.at)}" if e.at else "")
    if e.reminded is not None:
        what += ", marked reminded" if e.reminded else ", not marked reminded"
    return Check(what, bool(hits), _shown(state.memory, "content", "due_at", "reminded_at"))


def _mentions(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    since = e.step or 0
    texts = [s.text for s in said if s.who != "person" and s.step >= since]
    count = sum(1 for text in texts if _has(text, e.text))
    wanted = 1 if e.count is None else e.count
    what = f"{e.text!r} mentioned {wanted} time(s) from step {since} on"
    return Check(what, count == wanted, f"{count} time(s)")


def _zone(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    ok = True
    found = f"home={state.person.get('default_tz')}"
    if "home" in e.model_fields_set:  # home: null means the home zone stays unknown
        ok = state.person.get("default_tz") == e.home
    if e.thread is not None:
        zones = [t["session_tz"] for t in state.threads]
        found += f", threads={zones}"
        ok = ok and e.thread in zones
    return Check(f"zone home={e.home} thread={e.thread}", ok, found)


def _window(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    found = state.person.get("contact_window")
    return Check(f"contact window {e.window}", found == e.window, str(found))


def _action(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    hits = [
        a
        for a in state.actions
        if _has(a["label"], e.text) and (e.status is None or a["status"] == e.status)
    ]
    what = f"an action {e.text!r}" + (f" {e.status}" if e.status else "")
    return Check(what, bool(hits), _shown(state.actions, "label", "status"))


def _canceled(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    jobs = [j for j in _one_shots(state) if _has(j["text"], e.text)]
    schedules = [s for s in state.schedules if _has(s["text"], e.text)]
    live = [j for j in jobs if j["status"] in ("pending", "deferred", "sent")] + [
        s for s in schedules if s["state"] != "ended"
    ]
    ok = bool(jobs or schedules) and not live
    return Check(f"{e.text!r} canceled", ok, _shown([*jobs, *schedules], "text", "status", "state"))


def _compacted(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    heads = [h for h in state.history if h["role"] == "user" and h["content"].startswith(EARLIER)]
    return Check("the conversation was compacted", bool(heads), f"{len(heads)} summary message(s)")


def _answered(e: Expectation, state: StoreState, said: list[Said]) -> Check:
    asked = sorted({s.step for s in said if s.who == "person"})
    answered = {s.step for s in said if s.who == "reply"}
    missing = [step for step in asked if step not in answered]
    return Check("every line answered", not missing, f"unanswered steps: {missing}")


_KINDS: dict[str, Callable[[Expectation, StoreState, list[Said]], Check]] = {
    "reminder": _reminder,
    "repeating": _repeating,
    "no_reminder": _no_reminder,
    "sent": _sent,
    "deferred": _deferred,
    "reply": _reply,
    "memory": _memory,
    "mentions": _mentions,
    "zone": _zone,
    "window": _window,
    "action": _action,
    "canceled": _canceled,
    "compacted": _compacted,
    "answered": _answered,
}


def tool_errors(state: StoreState) -> tuple[int, list[str]]:
    """How many tool results were errors, and those the turn left unanswered.

    An error is answered when the same tool later succeeds in the turn, or the
    turn's last message asks the person something.
    """
    total, unanswered = 0, []
    history = sorted(state.history, key=lambda h: (h["thread_key"], h["seq"]))
    for index, row in enumerate(history):
        if row["role"] != "tool" or not _is_error(row["content"]):
            continue
        total += 1
        turn = []
        for later in history[index + 1 :]:
            if later["role"] == "user" or later["thread_key"] != row["thread_key"]:
                break
            turn.append(later)
        retried = any(
            r["role"] == "tool" and r["name"] == row["name"] and not _is_error(r["content"])
            for r in turn
        )
        last = next((r for r in reversed(turn) if r["role"] == "assistant"), None)
        asked = last is not None and "?" in (last["content"] or "")
        if not retried and not asked:
            unanswered.append(f"{row['name']}: {row['content'][:160]}")
    return total, unanswered


def _is_error(content: str) -> bool:
    try:
        data = json.loads(content)
    except (json.JSONDecodeError, TypeError):
        return False
    return isinstance(data, dict) and "error" in data


def _duplicates(state: StoreState) -> list[str]:
    """Effects made twice: one-shots with one text and first due time, repeating rules with one
    text and rule, and messages with one text sent at one instant, whatever made them (a
    reminder and a `send_message` deferred to its time went out together in the seventh run)."""
    once = Counter((j["text"], _first_due(j)) for j in _one_shots(state))
    repeats = Counter((s["text"], s["rrule"]) for s in state.schedules)
    went = Counter((j["text"], j["sent_at"]) for j in state.jobs if j["kind"] != "reply")
    doubled = [f"{t!r} at {_iso(at)}" for (t, at), n in once.items() if n > 1]
    doubled += [f"{t!r} {rule}" for (t, rule), n in repeats.items() if n > 1]
    sent = [f"{t!r} sent twice at {_iso(at)}" for (t, at), n in went.items() if at and n > 1]
    return doubled + sent


def judge(outcome: Outcome) -> list[Check]:
    """Every expectation of the scenario, then the four checks every scenario gets."""
    if outcome.state is None:
        return [Check("the scenario ran", False, outcome.error or "no store state")]
    state, said = outcome.state, outcome.transcript
    checks = [_KINDS[e.kind](e, state, said) for e in outcome.scenario.expect]
    _, unanswered = tool_errors(state)
    checks.append(Check("no tool error left unanswered", not unanswered, "; ".join(unanswered)))
    doubled = _duplicates(state)
    checks.append(Check("no effect made twice", not doubled, "; ".join(doubled)))
    claimed = false_claims(outcome)
    checks.append(Check(FALSE_CLAIM_CHECK, not claimed, "; ".join(claimed)))
    empty = wordless(outcome)
    checks.append(Check(NO_WORDS_CHECK, not empty, "; ".join(empty)))
    if outcome.error:
        checks.append(Check("the scenario ran without an error", False, outcome.error))
    return checks
