"""Read whole or ask, as a property: generated sentences with a known intended time.

A small grammar writes sentences the way people chat ("ping me on Tue at quarter to 4pm
about the report", "tomorrow 3:15 in the afternoon call mom") together with the wall time
they mean, computed here from docs/time-rules.md's rules (a weekday is its next occurrence after
today; "today"/"tomorrow" in the zone). `parse_anchored_time` must either read exactly that
instant or ask: a confident different time is a silent misread, and none is allowed.
A second test checks that asking stays the exception, so the first cannot pass by asking.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Protocol, TypeVar
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clockcore import parse_anchored_time

ZONES = [
    "America/New_York",
    "Europe/Berlin",
    "Europe/London",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "Pacific/Chatham",
    "America/Sao_Paulo",
    "UTC",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SHORT = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
PREFIXES = ["", "remind me", "let's meet", "ping me", "call me", "can we talk"]
T = TypeVar("T")
SUFFIXES = ["", "to call mom", "about the report", "for the standup", "please"]


@dataclass(frozen=True)
class Sentence:
    text: str
    zone: str
    reference: datetime
    day: date
    wall: time


def _clock_phrases(hour: int, minute: int) -> list[str]:
    """Ways to write hour:minute (hour 7-22) that mean it without doubt."""
    twelve = hour % 12 or 12
    half = "am" if hour < 12 else "pm"
    phrases = [f"at {hour:02d}:{minute:02d}", f"at {twelve}:{minute:02d}{half}"]
    if minute == 0:
        phrases += [f"at {twelve}{half}", f"at {twelve} {half.upper()}"]
    if minute == 30:
        phrases.append(f"at half past {twelve}{half}")
    if minute == 15:
        phrases.append(f"at quarter past {twelve}{half}")
    if minute == 45 and hour < 23:
        after = (hour + 1) % 12 or 12
        phrases.append(f"at quarter to {after}{'am' if hour + 1 < 12 else 'pm'}")
    if 13 <= hour <= 17 and minute:
        phrases.append(f"{twelve}:{minute:02d} in the afternoon")
    return phrases


class Chooser(Protocol):
    """Where the grammar's choices come from: hypothesis, or a seeded random generator."""

    def pick(self, options: Sequence[T]) -> T: ...
    def number(self, low: int, high: int) -> int: ...


class Drawn:
    def __init__(self, data: st.DataObject) -> None:
        self._data = data

    def pick(self, options: Sequence[T]) -> T:
        return self._data.draw(st.sampled_from(options))

    def number(self, low: int, high: int) -> int:
        return self._data.draw(st.integers(low, high))


class Seeded:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def pick(self, options: Sequence[T]) -> T:
        return self._rng.choice(options)

    def number(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)


def sentence(choose: Chooser) -> Sentence:
    zone = choose.pick(ZONES)
    today = date(2026, 1, 1) + timedelta(days=choose.number(0, 729))
    # "Now" is 06:00 local, so every time below is still ahead today.
    reference = datetime.combine(today, time(6), ZoneInfo(zone)).astimezone(UTC)
    hour = choose.number(7, 22)
    minute = choose.pick([0, 15, 30, 45, 5, 50])
    clock = choose.pick(_clock_phrases(hour, minute))
    kind = choose.pick(["today", "tomorrow", "weekday", "short"])
    if kind == "today":
        day, words = today, "today"
    elif kind == "tomorrow":
        day, words = today + timedelta(days=1), "tomorrow"
    else:
        day = today + timedelta(days=choose.number(1, 6))  # never today's own weekday
        names = WEEKDAYS if kind == "weekday" else SHORT
        words = choose.pick(["", "on "]) + names[day.weekday()]
    parts = choose.pick([[words, clock], [clock, words]])
    words_around = (choose.pick(PREFIXES), *parts, choose.pick(SUFFIXES))
    return Sentence(
        " ".join(p for p in words_around if p), zone, reference, day, time(hour, minute)
    )


def _verdict(sentence: Sentence) -> str:
    """ "read" (the intended instant), "asked", or "MISREAD ..." (a confident other time)."""
    result = parse_anchored_time(sentence.text, sentence.zone, sentence.reference)
    if result.needs_clarification or result.kind == "invalid":
        return "asked"
    wall = datetime.combine(sentence.day, sentence.wall)
    tz = ZoneInfo(sentence.zone)
    if wall.replace(tzinfo=tz, fold=0).utcoffset() != wall.replace(tzinfo=tz, fold=1).utcoffset():
        return f"MISREAD: {wall} is in a DST gap or fold and was not asked about"
    intended = wall.replace(tzinfo=tz).astimezone(UTC)
    if result.start_instant == intended:
        return "read"
    got = result.start_instant.astimezone(tz) if result.start_instant else None
    return f"MISREAD: {sentence.text!r} in {sentence.zone}: meant {wall}, read {got}"


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_generated_sentence_is_read_as_meant_or_asked(data: st.DataObject) -> None:
    verdict = _verdict(sentence(Drawn(data)))
    assert not verdict.startswith("MISREAD"), verdict


def test_asking_stays_the_exception() -> None:
    # The same grammar, seeded: most sentences must be read, not asked.
    chooser = Seeded(24)
    verdicts = [_verdict(sentence(chooser)) for _ in range(400)]
    assert [v for v in verdicts if v.startswith("MISREAD")] == []
    assert verdicts.count("read") >= 0.9 * len(verdicts), verdicts.count("asked")
