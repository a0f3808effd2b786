"""Time as people write it: the issue's table, read as a person means it or asked, everywhere.

Each row of the issue "Time as people write it" runs in eight zones (Kathmandu and Chatham
among them), from a reference at local 10:00 on the Saturday before the zone's spring-forward
and before its fall-back (for zones without DST, the New York dates). Every expected instant is
computed here with `zoneinfo`; a wall time that falls in a gap or a fold must be asked about.

Also: the reader is Duckling where its wheel is installed (CI's x86_64 Linux), and
`clockbot --help` never loads it.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from clockcore import (
    find_time_expressions,
    locate_time,
    mentions_time,
    parse_anchored_time,
    without_time,
)
from clockcore.parse_result import ParseResult
from clockcore.parsing import duckling_reader
from tests.clockcore.test_timeparse_table import ZONES  # the canonical tables' eight


def _transitions(zone: str) -> list[datetime]:
    """The instants in 2026 where `zone`'s UTC offset changes (scanned hour by hour)."""
    tz = ZoneInfo(zone)
    found = []
    at = datetime(2026, 1, 1, tzinfo=UTC)
    while at.year == 2026:
        following = at + timedelta(hours=1)
        if at.astimezone(tz).utcoffset() != following.astimezone(tz).utcoffset():
            found.append(following)
        at = following
    return found


def _references(zone: str) -> list[date]:
    """Local Saturdays just before each of `zone`'s 2026 offset changes (or New York's)."""
    changes = _transitions(zone) or _transitions("America/New_York")
    saturdays = []
    for change in changes:
        day = change.astimezone(ZoneInfo(zone)).date() - timedelta(days=1)
        while day.weekday() != 5:
            day -= timedelta(days=1)
        saturdays.append(day)
    return saturdays


CASES = [(zone, saturday) for zone in ZONES for saturday in _references(zone)]


@dataclass(frozen=True)
class World:
    zone: str
    saturday: date

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    @property
    def reference(self) -> datetime:
        return datetime.combine(self.saturday, time(10), self.tz).astimezone(UTC)

    def wall(self, days: int, hour: int, minute: int = 0) -> datetime:
        return datetime.combine(self.saturday + timedelta(days=days), time(hour, minute))

    def parse(self, text: str) -> ParseResult:
        return parse_anchored_time(text, self.zone, self.reference)


def _exists(world: World, wall: datetime) -> bool:
    """The wall time happens exactly once in the zone (not in a gap, not in a fold)."""
    first = wall.replace(tzinfo=world.tz, fold=0)
    second = wall.replace(tzinfo=world.tz, fold=1)
    back = first.astimezone(UTC).astimezone(world.tz).replace(tzinfo=None)
    return first.utcoffset() == second.utcoffset() and back == wall


def _instant(world: World, wall: datetime) -> datetime:
    return wall.replace(tzinfo=world.tz).astimezone(UTC)


def _assert_point(world: World, result: ParseResult, wall: datetime) -> None:
    if not _exists(world, wall):
        assert result.needs_clarification, f"{wall} is in a gap or fold: {result}"
        assert result.start_instant is None
        return
    assert not result.needs_clarification, result.clarification_question
    assert result.start_instant == _instant(world, wall)
    assert result.end_instant == result.start_instant


def _assert_range(world: World, result: ParseResult, start: datetime, end: datetime) -> None:
    if not (_exists(world, start) and _exists(world, end)):
        assert result.needs_clarification
        return
    assert not result.needs_clarification, result.clarification_question
    assert (result.start_instant, result.end_instant) == (
        _instant(world, start),
        _instant(world, end),
    )


def _day_start(world: World, day: date) -> datetime:
    wall = datetime.combine(day, time())
    if _exists(world, wall):
        return _instant(world, wall)
    return (wall + timedelta(hours=1)).replace(tzinfo=world.tz).astimezone(UTC)


@pytest.fixture(params=CASES, ids=[f"{zone}-{day}" for zone, day in CASES])
def world(request: pytest.FixtureRequest) -> World:
    zone, saturday = request.param
    return World(zone, saturday)


def test_every_zone_has_both_references_or_new_yorks() -> None:
    assert len(_transitions("Pacific/Chatham")) == 2
    assert _transitions("Asia/Kathmandu") == []
    assert all(len(_references(zone)) == 2 for zone in ZONES)
    assert {day.weekday() for _, day in CASES} == {5}


def test_half_past_3pm_is_15_30_today(world: World) -> None:
    result = world.parse("remind me at half past 3pm to call mom")
    _assert_point(world, result, world.wall(0, 15, 30))
    assert "half past 3pm" in result.matched_text


def test_at_3_am_is_three_in_the_morning(world: World) -> None:
    _assert_point(world, world.parse("at 3 AM"), world.wall(1, 3))


def test_3_15_in_the_afternoon_is_15_15_today(world: World) -> None:
    _assert_point(world, world.parse("3:15 in the afternoon"), world.wall(0, 15, 15))


def test_mon_9_is_monday(world: World) -> None:
    _assert_point(world, world.parse("Mon 9:00"), world.wall(2, 9))


def test_9_to_10am_tomorrow_is_the_hour(world: World) -> None:
    _assert_range(world, world.parse("9-10am tomorrow"), world.wall(1, 9), world.wall(1, 10))


def test_1pm_to_2pm_tomorrow_is_tomorrow(world: World) -> None:
    _assert_range(world, world.parse("1pm-2pm tomorrow"), world.wall(1, 13), world.wall(1, 14))


def test_first_tuesday_of_october_is_that_whole_day(world: World) -> None:
    year = world.saturday.year
    first = date(year, 10, 1) + timedelta(days=(1 - date(year, 10, 1).weekday()) % 7)
    if first < world.saturday:
        first = date(year + 1, 10, 1) + timedelta(days=(1 - date(year + 1, 10, 1).weekday()) % 7)
    result = world.parse("first tuesday of october")
    assert not result.needs_clarification
    assert result.start_instant == _day_start(world, first)
    assert result.end_instant == _day_start(world, first + timedelta(days=1))


@pytest.mark.parametrize(
    "text",
    [
        "remind me every Monday at 9am to submit the timesheet",  # a recurrence, not one Monday
        "mañana a las 9",  # no language hint: the 9 is not read, so never "the whole day"
        "morgen um 9 Uhr",
    ],
)
def test_what_is_not_read_whole_is_asked(world: World, text: str) -> None:
    result = world.parse(text)
    assert result.needs_clarification
    assert result.start_instant is None
    assert result.clarification_question


def test_words_around_a_time_that_are_not_time_change_nothing(world: World) -> None:
    result = world.parse("buy 2 apples tomorrow at 9am and call the bank")
    _assert_point(world, result, world.wall(1, 9))


def test_a_clash_names_both_readings() -> None:
    # "el 30" and "febrero" overlap without one holding the other: the 30th, or February?
    now = datetime(2026, 3, 7, 10, tzinfo=UTC)
    result = parse_anchored_time("el 30 de febrero", "UTC", now, language="es")
    assert result.clarification_question is not None
    assert "'el 30' (Mon 30 Mar 2026, 00:00)" in result.clarification_question
    assert "'febrero'" in result.clarification_question
    assert "T00:00" not in result.clarification_question  # words for a person, no ISO stamp


def test_1h30_is_an_hour_and_a_half() -> None:
    now = datetime(2026, 3, 7, 10, tzinfo=UTC)
    result = parse_anchored_time("in 1h30", "UTC", now)
    assert result.start_instant == datetime(2026, 3, 7, 11, 30, tzinfo=UTC)


def test_duckling_is_the_reader_where_its_wheel_is_installed() -> None:
    # CI installs it (x86_64 Linux); elsewhere the grammar reads alone and this says so.
    if not duckling_reader.available():
        pytest.skip("no pyduckling-native-phihos wheel on this platform: the grammar reads alone")
    assert duckling_reader.reader_name() == "duckling"
    result = parse_anchored_time("at half past 3pm", "UTC", datetime(2026, 3, 7, 10, tzinfo=UTC))
    assert result.reader == "duckling"
    assert result.to_dict()["reader"] == "duckling"


@pytest.mark.parametrize("text", ["clock: link R3BC-3Q4M-7SNA", "in 38BC", "the year 10000"])
def test_a_year_no_date_can_hold_is_no_reading_and_no_crash(text: str) -> None:
    """Duckling reads "3BC" in a link code as 3 BC; nothing here can hold that year.

    It once reached the intake as a ValueError (a link code from `new_code`).
    """
    if not duckling_reader.available():
        pytest.skip("no pyduckling-native-phihos wheel on this platform")
    ten = _wall("2026-03-07T10:00")
    assert all(1 <= wall.year <= 9999 for r in duckling_reader.read(text, ten) for wall in r.walls)
    assert mentions_time(text) in (True, False)  # read to the end: no exception
    found = parse_anchored_time(text, "UTC", datetime(2026, 3, 7, 10, tzinfo=UTC))
    assert found.start_instant is None or found.start_instant.year == 2026


def test_duckling_readings_are_wall_clock_in_the_persons_day() -> None:
    # Duckling's own zone table gets New York's offset on 2026-03-07 wrong (-04:00);
    # the reader works in local wall time, so "now" is the person's 10:00.
    if not duckling_reader.available():
        pytest.skip("no pyduckling-native-phihos wheel on this platform")
    ten = _wall("2026-03-07T10:00")  # the person's local 10:00, naive on purpose
    (reading,) = duckling_reader.read("at 3pm", ten)
    assert reading.walls[0] == _wall("2026-03-07T15:00")
    (interval,) = duckling_reader.read("9-10am tomorrow", ten)
    assert (interval.walls[0], interval.end_wall) == (
        _wall("2026-03-08T09:00"),
        _wall("2026-03-08T10:00"),
    )
    (spanish,) = duckling_reader.read("mañana a las 9", ten, language="es")
    assert spanish.text == "mañana a las 9"  # cut from the text, not Duckling's mis-decoded body


def _wall(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_clockbot_help_does_not_load_duckling() -> None:
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from bot.cli.main import app\n"
        "result = CliRunner().invoke(app, ['--help'])\n"
        "assert result.exit_code == 0, result.output\n"
        "print('duckling' in sys.modules)\n"
        "from datetime import datetime, UTC\n"
        "from clockcore import parse_anchored_time\n"
        "parse_anchored_time('at half past 3pm', 'UTC', datetime(2026, 3, 7, tzinfo=UTC))\n"
        "print('duckling' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    assert out[0] == "False"  # --help: not loaded
    assert out[1] == str(duckling_reader.available())  # the first parse loads it, where it can


@pytest.mark.parametrize(
    ("text", "expression", "content"),
    [
        ("remind me at half past 3pm to call mom", "at half past 3pm", "remind me to call mom"),
        ("remind me tomorrow at 9 to call the bank", "tomorrow at 9", "remind me to call the bank"),
        ("call the bank tomorrow at 9am, please", "tomorrow at 9am", "call the bank, please"),
        ("water the plants on Friday", "on Friday", "water the plants"),
        ("stretch in 90 minutes", "in 90 minutes", "stretch"),
    ],
)
def test_the_content_is_the_message_minus_the_time_and_its_glue(
    text: str, expression: str, content: str
) -> None:
    found = locate_time(text)
    assert found is not None
    assert (found.text, found.whole) == (expression, True)
    assert without_time(text, found) == content


def test_a_time_not_read_whole_is_located_but_not_whole() -> None:
    found = locate_time("remind me every Monday at 9am to submit the timesheet")
    assert found is not None
    assert found.text == "Monday at 9am"
    assert not found.whole
    assert locate_time("sounds good to me") is None


def test_the_grammar_alone_still_reads_its_own_forms_and_asks_the_rest() -> None:
    # Where no wheel exists the grammar reads alone; it must not misread the rows.
    reference = datetime(2026, 3, 7, 15, tzinfo=UTC)  # Saturday 10:00 in New York
    duckling_reader.set_enabled(False)
    try:
        assert duckling_reader.reader_name() == "grammar"
        read = parse_anchored_time("tomorrow at 9am", "America/New_York", reference)
        assert read.start_instant == datetime(2026, 3, 8, 13, tzinfo=UTC)
        assert read.reader == "grammar"
        at3 = parse_anchored_time("at 3 AM", "America/New_York", reference)
        assert at3.start_instant == datetime(2026, 3, 8, 7, tzinfo=UTC)
        every = parse_anchored_time("every Monday at 9am", "America/New_York", reference)
        assert every.needs_clarification
    finally:
        duckling_reader.set_enabled(True)


@pytest.mark.parametrize(
    ("text", "expression"),
    [
        ("let's do 9-10am tomorrow if that works", "9-10am tomorrow"),
        ("remind me every Monday at 9am to submit the timesheet", "every Monday at 9am"),
        ("stretch every 90 minutes please", "every 90 minutes"),
        ("water the plants daily at 7am", "daily at 7am"),
        ("between 2 and 4pm works for me", "between 2 and 4pm"),
        ("each Friday at 5pm we ship", "each Friday at 5pm"),
    ],
)
def test_find_time_expressions_spans_ranges_and_recurrences(text: str, expression: str) -> None:
    (found,) = find_time_expressions(text)
    assert found.text == expression
    assert text[found.start : found.end] == expression
