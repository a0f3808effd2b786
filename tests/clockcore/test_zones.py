"""Table tests and properties for `clockcore.geo.zones`.

Every expected value is computed here with `zoneinfo` and explicit arithmetic, or
is a well-known fact about the IANA database written out by hand.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockcore.errors import ClockError, NaiveDatetimeError, UnknownTimezoneError
from clockcore.geo.zones import (
    available_zones,
    canonical_zone,
    delta_hours,
    get_zone,
    offset_minutes,
    parse_utc_offset,
    to_iso,
    zone_for_offset,
)


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


# --------------------------------------------------------------------------- offset_minutes

OFFSET_CASES = [
    # zone, instant, minutes
    ("Asia/Kathmandu", utc(2026, 1, 15, 12), 345),
    ("Asia/Kathmandu", utc(2026, 7, 15, 12), 345),
    ("Asia/Kolkata", utc(2026, 1, 15, 12), 330),
    ("Asia/Kolkata", utc(2026, 7, 15, 12), 330),
    # Chatham: +12:45 standard (southern winter), +13:45 daylight (southern summer).
    ("Pacific/Chatham", utc(2026, 7, 15, 12), 765),
    ("Pacific/Chatham", utc(2026, 1, 15, 12), 825),
    # Chatham's 2026 changes: 03:45 CHADT -> 02:45 CHAST on Apr 5 (14:00Z Apr 4),
    # 02:45 CHAST -> 03:45 CHADT on Sep 27 (14:00Z Sep 26).
    ("Pacific/Chatham", utc(2026, 4, 4, 13, 59, 59), 825),
    ("Pacific/Chatham", utc(2026, 4, 4, 14), 765),
    ("Pacific/Chatham", utc(2026, 9, 26, 13, 59, 59), 765),
    ("Pacific/Chatham", utc(2026, 9, 26, 14), 825),
    # Lord Howe: +10:30 standard, +11:00 daylight (a 30-minute DST).
    ("Australia/Lord_Howe", utc(2026, 7, 15, 12), 630),
    ("Australia/Lord_Howe", utc(2026, 1, 15, 12), 660),
    ("America/New_York", utc(2026, 1, 15, 12), -300),
    ("America/New_York", utc(2026, 7, 15, 12), -240),
    # New York 2026: 02:00 EST -> 03:00 EDT on Mar 8 (07:00Z),
    # 02:00 EDT -> 01:00 EST on Nov 1 (06:00Z).
    ("America/New_York", utc(2026, 3, 8, 6, 59, 59), -300),
    ("America/New_York", utc(2026, 3, 8, 7), -240),
    ("America/New_York", utc(2026, 11, 1, 5, 59, 59), -240),
    ("America/New_York", utc(2026, 11, 1, 6), -300),
    ("UTC", utc(2026, 1, 15, 12), 0),
    ("UTC", utc(2026, 7, 15, 12), 0),
    ("Europe/Berlin", utc(2026, 1, 15, 12), 60),
    ("Europe/Berlin", utc(2026, 7, 15, 12), 120),
]


@pytest.mark.parametrize(
    ("zone", "instant", "minutes"),
    OFFSET_CASES,
    ids=[f"{z}-{i:%Y%m%dT%H%M%S}-{m}" for z, i, m in OFFSET_CASES],
)
def test_offset_minutes(zone: str, instant: datetime, minutes: int) -> None:
    assert offset_minutes(zone, instant) == minutes
    # Cross-check the table itself against zoneinfo.
    expected = instant.astimezone(ZoneInfo(zone)).utcoffset()
    assert expected == timedelta(minutes=minutes)


def test_offset_minutes_accepts_tzinfo_and_non_utc_instants() -> None:
    instant = datetime(2026, 7, 15, 9, 0, tzinfo=ZoneInfo("Asia/Tokyo"))
    assert offset_minutes(ZoneInfo("Asia/Kathmandu"), instant) == 345
    assert offset_minutes("america/new_york", instant) == -240


# --------------------------------------------------------------------------- to_iso

ISO_CASES = [
    ("Asia/Tokyo", utc(2026, 2, 10, 3, 2), "2026-02-10T12:02:00+09:00"),
    ("Asia/Kathmandu", utc(2026, 2, 10, 3, 2), "2026-02-10T08:47:00+05:45"),
    ("Asia/Kolkata", utc(2026, 2, 10, 20, 0), "2026-02-11T01:30:00+05:30"),
    ("Pacific/Chatham", utc(2026, 1, 15, 12), "2026-01-16T01:45:00+13:45"),
    ("Pacific/Chatham", utc(2026, 7, 15, 12), "2026-07-16T00:45:00+12:45"),
    ("America/New_York", utc(2026, 3, 8, 6, 59, 59), "2026-03-08T01:59:59-05:00"),
    ("America/New_York", utc(2026, 3, 8, 7), "2026-03-08T03:00:00-04:00"),
    # The fall-back fold: both 01:30s, told apart by their offsets.
    ("America/New_York", utc(2026, 11, 1, 5, 30), "2026-11-01T01:30:00-04:00"),
    ("America/New_York", utc(2026, 11, 1, 6, 30), "2026-11-01T01:30:00-05:00"),
    ("UTC", utc(2026, 2, 10, 3, 2), "2026-02-10T03:02:00+00:00"),
    ("Europe/London", utc(2026, 7, 1, 12, 0, 0), "2026-07-01T13:00:00+01:00"),
]


@pytest.mark.parametrize(
    ("zone", "instant", "text"),
    ISO_CASES,
    ids=[f"{z}-{t}" for z, _, t in ISO_CASES],
)
def test_to_iso(zone: str, instant: datetime, text: str) -> None:
    assert to_iso(instant, zone) == text
    assert to_iso(instant, ZoneInfo(zone)) == text
    assert datetime.fromisoformat(text) == instant


def test_to_iso_keeps_microseconds_and_accepts_other_zones() -> None:
    instant = datetime(2026, 2, 10, 12, 2, 0, 123456, tzinfo=ZoneInfo("Asia/Tokyo"))
    assert to_iso(instant, "UTC") == "2026-02-10T03:02:00.123456+00:00"


# --------------------------------------------------------------------------- delta_hours

DELTA_CASES = [
    ("Asia/Kathmandu", "UTC", utc(2026, 6, 1), 5.75),
    ("UTC", "Asia/Kathmandu", utc(2026, 6, 1), -5.75),
    ("Asia/Kolkata", "Asia/Kathmandu", utc(2026, 6, 1), -0.25),
    ("Pacific/Chatham", "UTC", utc(2026, 1, 15), 13.75),
    ("Pacific/Chatham", "Asia/Kolkata", utc(2026, 7, 15), 7.25),
    ("Europe/Berlin", "Europe/Berlin", utc(2026, 6, 1), 0.0),
    # New York vs Berlin: -6 normally; -5 while only the US is on DST
    # (2026-03-08 07:00Z .. 2026-03-29 01:00Z) and while only the EU has left it
    # (2026-10-25 01:00Z .. 2026-11-01 06:00Z).
    ("America/New_York", "Europe/Berlin", utc(2026, 3, 1, 12), -6.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 3, 8, 6, 59), -6.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 3, 8, 7), -5.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 3, 20, 12), -5.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 3, 29, 0, 59), -5.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 3, 29, 1), -6.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 7, 1, 12), -6.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 10, 28, 12), -5.0),
    ("America/New_York", "Europe/Berlin", utc(2026, 11, 2, 12), -6.0),
    ("Europe/Berlin", "America/New_York", utc(2026, 3, 20, 12), 5.0),
]


@pytest.mark.parametrize(
    ("session", "agent", "instant", "hours"),
    DELTA_CASES,
    ids=[f"{s}-vs-{a}-{i:%Y%m%dT%H%M}" for s, a, i, _ in DELTA_CASES],
)
def test_delta_hours(session: str, agent: str, instant: datetime, hours: float) -> None:
    assert delta_hours(session, agent, instant) == hours


def test_delta_hours_new_york_berlin_every_hour_of_march_2026() -> None:
    us_dst = utc(2026, 3, 8, 7)
    eu_dst = utc(2026, 3, 29, 1)
    ny, berlin = ZoneInfo("America/New_York"), ZoneInfo("Europe/Berlin")
    instant = utc(2026, 3, 1)
    while instant < utc(2026, 4, 1):
        expected = -5.0 if us_dst <= instant < eu_dst else -6.0
        ny_offset, berlin_offset = (
            instant.astimezone(ny).utcoffset(),
            instant.astimezone(berlin).utcoffset(),
        )
        assert ny_offset is not None
        assert berlin_offset is not None
        own = (ny_offset - berlin_offset) / timedelta(hours=1)
        assert own == expected, instant  # the hand-written window agrees with zoneinfo
        assert delta_hours("America/New_York", "Europe/Berlin", instant) == expected, instant
        instant += timedelta(hours=1)


# ------------------------------------------------------------- get_zone / canonical_zone

CANONICAL_CASES = [
    ("Asia/Tokyo", "Asia/Tokyo"),
    ("asia/tokyo", "Asia/Tokyo"),
    ("ASIA/TOKYO", "Asia/Tokyo"),
    ("america/new_york", "America/New_York"),
    ("America/New York", "America/New_York"),
    ("  Europe/Berlin  ", "Europe/Berlin"),
    ("pacific/chatham", "Pacific/Chatham"),
    ("UTC", "UTC"),
    ("utc", "UTC"),
    ("Etc/GMT-9", "Etc/GMT-9"),
]


@pytest.mark.parametrize(
    ("name", "canonical"), CANONICAL_CASES, ids=[c[0] for c in CANONICAL_CASES]
)
def test_canonical_zone_and_get_zone(name: str, canonical: str) -> None:
    assert canonical_zone(name) == canonical
    zone = get_zone(name)
    reference = ZoneInfo(canonical)
    for instant in (utc(2026, 1, 15, 12), utc(2026, 7, 15, 12)):
        assert instant.astimezone(zone).utcoffset() == instant.astimezone(reference).utcoffset()


UNKNOWN_CASES = [
    ("EST", "America/New_York"),
    ("PST8PDT", None),
    ("Tokio", "Asia/Tokyo"),
    ("", None),
    ("Mars/Olympus_Mons", None),
    ("IST", None),
]


@pytest.mark.parametrize(
    ("name", "suggested"), UNKNOWN_CASES, ids=[repr(c[0]) for c in UNKNOWN_CASES]
)
def test_get_zone_refuses_non_iana_names(name: str, suggested: str | None) -> None:
    assert canonical_zone(name) is None
    with pytest.raises(UnknownTimezoneError) as info:
        get_zone(name)
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error, ClockError)
    assert error.zone == name
    assert isinstance(error.suggestions, tuple)
    assert all(isinstance(s, str) for s in error.suggestions)
    if suggested is not None:
        assert suggested in error.suggestions


@pytest.mark.parametrize("name", ["EST", "PST8PDT", "CET", "MST", "HST", "EST5EDT"])
def test_abbreviation_like_ids_are_not_available(name: str) -> None:
    assert name not in available_zones()


def test_available_zones_holds_the_zones_we_use() -> None:
    zones = available_zones()
    for zone in ("UTC", "Asia/Kathmandu", "Pacific/Chatham", "America/New_York", "Etc/GMT-9"):
        assert zone in zones
    assert zones <= {*zoneinfo.available_timezones(), "UTC"}


# --------------------------------------------------------------------------- parse_utc_offset

UTC_OFFSET_CASES = [
    ("UTC+9", timedelta(hours=9)),
    ("utc+9", timedelta(hours=9)),
    ("UTC+09:00", timedelta(hours=9)),
    ("GMT-3", timedelta(hours=-3)),
    ("GMT-03:00", timedelta(hours=-3)),
    ("GMT\u22123", timedelta(hours=-3)),  # a typographic minus sign
    ("UTC+5:30", timedelta(hours=5, minutes=30)),
    ("UTC+0545", timedelta(hours=5, minutes=45)),
    ("UTC-3:30", -timedelta(hours=3, minutes=30)),
    ("UTC+14", timedelta(hours=14)),
    ("UTC-12", timedelta(hours=-12)),
    ("UTC+0", timedelta(0)),
    (" UTC + 9 ", timedelta(hours=9)),
    ("UTC+15", None),
    ("UTC+9:60", None),
    ("Tokyo", None),
    ("", None),
    ("9am", None),
    ("UTC+", None),
]


@pytest.mark.parametrize(
    ("text", "offset"), UTC_OFFSET_CASES, ids=[repr(c[0]) for c in UTC_OFFSET_CASES]
)
def test_parse_utc_offset(text: str, offset: timedelta | None) -> None:
    assert parse_utc_offset(text) == offset


# --------------------------------------------------------------------------- zone_for_offset

ZONE_FOR_OFFSET_CASES = [
    (timedelta(hours=9), "Etc/GMT-9"),
    (timedelta(hours=-3), "Etc/GMT+3"),
    (timedelta(hours=14), "Etc/GMT-14"),
    (timedelta(hours=-12), "Etc/GMT+12"),
    (timedelta(hours=1), "Etc/GMT-1"),
    (timedelta(0), "UTC"),
    (timedelta(hours=5, minutes=30), None),
    (timedelta(hours=5, minutes=45), None),
    (timedelta(hours=-3, minutes=-30), None),
    (timedelta(hours=15), None),
]


@pytest.mark.parametrize(
    ("offset", "zone"),
    ZONE_FOR_OFFSET_CASES,
    ids=[f"{o.total_seconds() / 3600:+g}h" for o, _ in ZONE_FOR_OFFSET_CASES],
)
def test_zone_for_offset(offset: timedelta, zone: str | None) -> None:
    assert zone_for_offset(offset) == zone
    if zone is not None:
        # The id really has that offset (IANA's Etc/GMT signs are inverted).
        assert utc(2026, 6, 1).astimezone(ZoneInfo(zone)).utcoffset() == offset


# --------------------------------------------------------------------------- naive datetimes

NAIVE = datetime(2026, 3, 8, 2, 30)  # noqa: DTZ001 - deliberately naive


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: offset_minutes("UTC", NAIVE), id="offset_minutes"),
        pytest.param(lambda: to_iso(NAIVE, "Asia/Tokyo"), id="to_iso"),
        pytest.param(lambda: delta_hours("UTC", "Asia/Tokyo", NAIVE), id="delta_hours"),
    ],
)
def test_naive_datetimes_are_refused(call: Callable[[], object]) -> None:
    with pytest.raises(NaiveDatetimeError) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert info.value.value == NAIVE


# --------------------------------------------------------------------------- properties

ZONE_NAMES = sorted(available_zones())
instants = st.datetimes(
    min_value=datetime(1900, 1, 1),  # noqa: DTZ001 - hypothesis bounds are naive
    max_value=datetime(2100, 12, 31),  # noqa: DTZ001
    timezones=st.just(UTC),
)
fixed_offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda m: timezone(timedelta(minutes=m))
)
# Aware instants in UTC or in a fixed offset: both denote one instant unambiguously.
aware_instants = st.one_of(
    instants, st.tuples(instants, fixed_offsets).map(lambda p: p[0].astimezone(p[1]))
)


@settings(deadline=None)
@given(instant=aware_instants, zone=st.sampled_from(ZONE_NAMES))
def test_to_iso_round_trips(instant: datetime, zone: str) -> None:
    text = to_iso(instant, zone)
    parsed = datetime.fromisoformat(text)
    assert parsed.tzinfo is not None
    assert parsed == instant


@settings(deadline=None)
@given(instant=aware_instants, zone=st.sampled_from(ZONE_NAMES))
def test_offset_minutes_matches_zoneinfo(instant: datetime, zone: str) -> None:
    offset = instant.astimezone(ZoneInfo(zone)).utcoffset()
    assert offset is not None
    seconds = offset.total_seconds()
    got = offset_minutes(zone, instant)
    assert isinstance(got, int)
    if seconds % 60 == 0:
        assert got == seconds // 60
    else:
        # Local mean times before ~1970 have offsets with seconds (Monrovia -0:44:30);
        # "whole minutes" then means a neighbouring minute.
        assert abs(got - seconds / 60) < 1
