"""`parse_recurrence`: each listed form, its RRULE, and its next 10 occurrences across DST.

Expected occurrences are computed here by walking the calendar day by day in the zone and
turning each wall time into an instant with `zoneinfo` at ``fold=0``, which is what RFC 5545
§3.3.5 asks: a time the clocks skip takes the offset before the gap, a repeated time is its
first occurrence. References sit just before each zone's DST changes, so the ten cross them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from clockcore import parse_recurrence
from clockcore.recurrence import occurrences

ZONES = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Chatham"]
# 2026 DST changes: New York Mar 8 / Nov 1; Berlin Mar 29 / Oct 25; Lord Howe Apr 5 / Oct 4
# (half an hour); Chatham Apr 5 / Sep 27. A reference a few days before each.
REFERENCES = {
    "America/New_York": [date(2026, 3, 4), date(2026, 10, 28)],
    "Europe/Berlin": [date(2026, 3, 25), date(2026, 10, 21)],
    "Australia/Lord_Howe": [date(2026, 4, 1), date(2026, 9, 30)],
    "Pacific/Chatham": [date(2026, 4, 1), date(2026, 9, 23)],
}
CASES = [(zone, day) for zone, days in REFERENCES.items() for day in days]


def _instant(zone: str, wall: datetime) -> datetime:
    return wall.replace(tzinfo=ZoneInfo(zone), fold=0).astimezone(UTC)


def _expected(
    zone: str, reference: datetime, at: time, matches: Callable[[date], bool], count: int = 10
) -> list[datetime]:
    """The next `count` days matching, at wall time `at`, as RFC 5545 anchors them."""
    day = reference.astimezone(ZoneInfo(zone)).date()
    found: list[datetime] = []
    while len(found) < count:
        if matches(day):
            instant = _instant(zone, datetime.combine(day, at))
            if instant > reference:
                found.append(instant)
        day += timedelta(days=1)
    return found


def _nth_weekday(day: date, n: int, weekday: int) -> bool:
    if day.weekday() != weekday:
        return False
    if n > 0:
        return (day.day - 1) // 7 == n - 1
    following = day + timedelta(days=7)
    return following.month != day.month


FORMS: list[tuple[str, str, time, Callable[[date], bool]]] = [
    ("every Monday at 9am", "FREQ=WEEKLY;BYDAY=MO", time(9), lambda d: d.weekday() == 0),
    ("each Friday at 5:30pm", "FREQ=WEEKLY;BYDAY=FR", time(17, 30), lambda d: d.weekday() == 4),
    ("every day at 2:30am", "FREQ=DAILY", time(2, 30), lambda d: True),
    ("daily at 2:15am", "FREQ=DAILY", time(2, 15), lambda d: True),  # Lord Howe's gap is 2:00-2:30
    ("weekdays at 8am", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time(8), lambda d: d.weekday() < 5),
    (
        "every Tuesday and Thursday at 1:30am",
        "FREQ=WEEKLY;BYDAY=TU,TH",
        time(1, 30),
        lambda d: d.weekday() in (1, 3),
    ),
    (
        "on the first Monday of every month at 10am",
        "FREQ=MONTHLY;BYDAY=+1MO",
        time(10),
        lambda d: _nth_weekday(d, 1, 0),
    ),
    (
        "on the last Friday of every month at 4pm",
        "FREQ=MONTHLY;BYDAY=-1FR",
        time(16),
        lambda d: _nth_weekday(d, -1, 4),
    ),
    (
        "every month on the 15th at noon",
        "FREQ=MONTHLY;BYMONTHDAY=15",
        time(12),
        lambda d: d.day == 15,
    ),
    (
        "every year on March 5 at 9am",
        "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=5",
        time(9),
        lambda d: (d.month, d.day) == (3, 5),
    ),
]


@pytest.mark.parametrize(("zone", "day"), CASES, ids=[f"{z}-{d}" for z, d in CASES])
@pytest.mark.parametrize(("text", "rule", "at", "matches"), FORMS, ids=[f[0] for f in FORMS])
def test_the_next_ten_keep_their_wall_time_across_dst(
    zone: str, day: date, text: str, rule: str, at: time, matches: Callable[[date], bool]
) -> None:
    reference = _instant(zone, datetime.combine(day, time(12)))
    result = parse_recurrence(f"remind me {text} to stretch", zone, reference)
    assert not result.needs_clarification, result.clarification_question
    assert result.kind == "recurring"
    assert result.floating and result.zone is None  # no zone named: it follows the person
    assert result.rrule == f"{rule};BYHOUR={at.hour};BYMINUTE={at.minute};BYSECOND=0"
    assert list(result.next_occurrences) == _expected(zone, reference, at, matches)


def test_a_gap_time_takes_the_offset_before_the_gap() -> None:
    reference = _instant("America/New_York", datetime.combine(date(2026, 3, 7), time(12)))
    result = parse_recurrence("every day at 2:30am", "America/New_York", reference)
    first = result.next_occurrences[0]
    assert first == datetime(2026, 3, 8, 7, 30, tzinfo=UTC)  # 02:30 EST, shown as 03:30 EDT
    assert result.next_occurrences[1] == datetime(2026, 3, 9, 6, 30, tzinfo=UTC)  # 02:30 EDT


def test_a_fold_time_is_its_first_occurrence() -> None:
    reference = _instant("America/New_York", datetime.combine(date(2026, 10, 31), time(12)))
    result = parse_recurrence("every day at 1:30am", "America/New_York", reference)
    assert result.next_occurrences[0] == datetime(2026, 11, 1, 5, 30, tzinfo=UTC)  # EDT, first


def test_a_named_zone_fixes_the_rule() -> None:
    reference = datetime(2026, 3, 20, 12, tzinfo=UTC)
    result = parse_recurrence("every Monday at 9am Europe/Berlin", "America/New_York", reference)
    assert (result.zone, result.floating) == ("Europe/Berlin", False)
    assert result.next_occurrences[:2] == (
        datetime(2026, 3, 23, 8, tzinfo=UTC),  # CET
        datetime(2026, 3, 30, 7, tzinfo=UTC),  # CEST
    )


def test_a_floating_rule_follows_the_persons_new_zone() -> None:
    reference = datetime(2026, 3, 20, 12, tzinfo=UTC)
    result = parse_recurrence("every Monday at 9am", "America/New_York", reference)
    assert result.rrule is not None and result.dtstart is not None
    moved = occurrences(result.rrule, result.dtstart, "Asia/Tokyo", after=reference, count=2)
    assert moved == [datetime(2026, 3, 23, 0, tzinfo=UTC), datetime(2026, 3, 30, 0, tzinfo=UTC)]


@pytest.mark.parametrize(
    ("text", "rule", "step"),
    [
        ("every 3 hours", "FREQ=HOURLY;INTERVAL=3", timedelta(hours=3)),
        ("every 90 minutes", "FREQ=MINUTELY;INTERVAL=90", timedelta(minutes=90)),
        ("every hour", "FREQ=HOURLY", timedelta(hours=1)),
    ],
)
def test_hours_and_minutes_are_exact_elapsed_time_across_dst(
    text: str, rule: str, step: timedelta
) -> None:
    reference = datetime(2026, 3, 8, 5, tzinfo=UTC)  # 00:00 in New York, the gap two hours on
    result = parse_recurrence(text, "America/New_York", reference)
    assert (result.rrule, result.elapsed) == (rule, True)
    assert list(result.next_occurrences) == [reference + step * n for n in range(1, 11)]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("every other Tuesday at 6pm", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"),
        ("every Monday at 9am 10 times", "FREQ=WEEKLY;COUNT=10;BYDAY=MO"),
        ("every day at 9am for 5 days", "FREQ=DAILY;COUNT=5"),
        ("every day at 9am until March 20", "FREQ=DAILY;UNTIL=20260320T235959"),
        ("fortnightly on Fridays at 9am", "FREQ=WEEKLY;INTERVAL=2"),
    ],
)
def test_intervals_counts_and_ends(text: str, rule: str) -> None:
    reference = datetime(2026, 3, 7, 15, tzinfo=UTC)
    result = parse_recurrence(text, "America/New_York", reference)
    assert result.rrule is not None, result.clarification_question
    assert result.rrule.startswith(rule)


def test_counts_and_ends_stop_the_occurrences() -> None:
    reference = datetime(2026, 3, 7, 15, tzinfo=UTC)
    five = parse_recurrence("every day at 9am for 5 days", "America/New_York", reference)
    assert len(five.next_occurrences) == 5
    until = parse_recurrence("every day at 9am until March 10", "America/New_York", reference)
    assert until.next_occurrences[-1] == datetime(2026, 3, 10, 13, tzinfo=UTC)
    other = parse_recurrence("every other Tuesday at 6pm", "America/New_York", reference)
    assert other.next_occurrences[1] - other.next_occurrences[0] == timedelta(days=14)


@pytest.mark.parametrize(
    "text",
    [
        "every Monday",  # at what time?
        "every Monday at 9am EST",  # which zone?
        "every Monday at 9am and Friday",  # a day left over
        "every day at 9am until someday",  # until when?
    ],
)
def test_what_is_not_read_whole_is_asked(text: str) -> None:
    result = parse_recurrence(text, "America/New_York", datetime(2026, 3, 7, 15, tzinfo=UTC))
    assert result.needs_clarification
    assert result.next_occurrences == ()
    assert result.clarification_question


def test_no_zone_at_all_is_floating_and_asks() -> None:
    result = parse_recurrence("every Monday at 9am", None, datetime(2026, 3, 7, 15, tzinfo=UTC))
    assert (result.kind, result.needs_clarification) == ("floating", True)
    assert result.rrule == "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"


def test_text_without_a_recurrence_is_invalid() -> None:
    result = parse_recurrence("see you at 9am", "UTC", datetime(2026, 3, 7, 15, tzinfo=UTC))
    assert result.kind == "invalid"


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        # what a model wrote for "the first Friday of every month at 10" (docs/eval.md)
        ("next friday of every month at 10", "'next friday of at 10'"),
        ("every day at 9am until someday", "'someday'"),
    ],
)
def test_a_question_quotes_the_words_left_without_the_gap(text: str, quoted: str) -> None:
    # The parts already read are blanked in place; the question must not show the blanks.
    result = parse_recurrence(text, "Europe/Berlin", datetime(2026, 3, 9, 8, tzinfo=UTC))
    assert result.clarification_question is not None
    assert quoted in result.clarification_question
    assert "  " not in result.clarification_question
