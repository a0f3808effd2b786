"""Nothing written for the model reaches a person: every tool refusal, said on the console.

Issue 61, item 3 (docs/talking.md, "Words for the person"). A tool's refusal carries a
note for the model (``message``) and, apart, what the person is told (``ask``); the rules
agent and the agent's fallbacks say only the second. Each line below makes a tool refuse
or ask; no reply may carry the words tools write for a model, ISO stamps or offsets.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import console_output

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Berlin

MODEL_WORDS = re.compile(
    r"\bpass\b|the person|their words|\bgive (?:an id|until|when|the whole id)\b|list_reminders"
    r"|pause_reminders|set_timezone|\btool\b|\bcall (?:remind|it|this)\b|\bISO\b|argument"
    r"|\d{4}-\d{2}-\d{2}T\d|[+-]\d{2}:\d{2}\b|\bask (?:them|the)\b",
    re.IGNORECASE,
)

REFUSED = [
    # (what the person writes, a piece of what they must be told)
    ("remind me March 28, 2027 at 2:30 to call mum", "Did you mean 01:30 or 03:30?"),
    ("remind me October 25 at 2:30 to call mum", "Did you mean the first 02:30 or the second"),
    ("remind me tomorrow at 25:00 to call mum", "Say it like 'tomorrow at 9am'"),
    ("remind me today to call mum", "has already begun. At what time?"),
    ("remind me yesterday at 9 to call mum", "has already passed. When should it be instead?"),
    # at 10 UTC: where day and month come in no known order (docs/time-rules.md)
    ("remind me 9/5 at 10 UTC to pay rent", "Does 9/5 mean 9 May or 5 September?"),
    ("remind me tomorrow at 9 EST to pay rent", "Which timezone do you mean by EST?"),
    ("cancel r99", "I can't find a reminder r99 still to come"),
    ("pause r99 until Friday", "I can't find a reminder r99 still to come"),
    ("resume s4444", "I can't find a reminder s4444 still to come"),
    ("snooze s1234 1 hour", "A repeating reminder comes again by itself"),
    ("snooze 10 min", "Which reminder?"),
    ("stop this one", "Which reminder?"),
    ("recuérdame mañana a las 25 llamar a mamá", ""),
]


async def _say(settings: Settings, clock: SettableClock, *lines: str) -> list[str]:
    """What clockbot said, one entry per answer (an answer may have several lines)."""
    said = await console_output(settings, clock, *lines, linger=0.1)
    return said.split("clockbot> ")[1:]


@pytest.mark.parametrize(("line", "told"), REFUSED, ids=[line for line, _ in REFUSED])
async def test_a_refusal_says_the_persons_words_only(tmp_path: Path, line: str, told: str) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    _, said = await _say(settings, clock, "clock: home tz Europe/Berlin", line)
    assert told in said
    assert MODEL_WORDS.search(said) is None, said
    assert said.count(said.strip().splitlines()[0]) == 1, "said once"
