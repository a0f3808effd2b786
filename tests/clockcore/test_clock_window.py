"""The injected clock, contact windows and the tool time context."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, timezone

import pytest

from clockcore import (
    DEFAULT_CONTACT_WINDOW,
    ContactWindow,
    InvalidContactWindowError,
    NaiveDatetimeError,
    SettableClock,
    SystemClock,
    TimezoneProvider,
    UnknownTimezoneError,
    runtime_time_context,
)


def test_system_clock_is_aware_utc() -> None:
    now = SystemClock().now()
    assert now.tzinfo is UTC


def test_settable_clock_moves_only_when_told() -> None:
    clock = SettableClock(datetime(2026, 3, 7, 10, tzinfo=timezone(timedelta(hours=-5))))
    assert clock.now() == datetime(2026, 3, 7, 15, tzinfo=UTC)
    assert clock.now().tzinfo is UTC
    clock.advance(minutes=90)
    assert clock.now() == datetime(2026, 3, 7, 16, 30, tzinfo=UTC)
    clock.set(datetime(2027, 1, 1, tzinfo=UTC))
    assert clock.now().year == 2027


def test_settable_clock_refuses_naive() -> None:
    with pytest.raises(NaiveDatetimeError):
        SettableClock(datetime(2026, 1, 1))  # noqa: DTZ001 - the point of the test


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("08:00-23:00", time(8), time(23)),
        ("08:00–23:00", time(8), time(23)),
        ("22:00 to 07:30", time(22), time(7, 30)),
        ("9:00-24:00", time(9), time(0)),
    ],
)
def test_window_parse(text: str, start: time, end: time) -> None:
    window = ContactWindow.parse(text)
    assert (window.start, window.end) == (start, end)


@pytest.mark.parametrize("text", ["", "9-5", "25:00-08:00", "08:00-08:61", "always"])
def test_window_parse_refuses(text: str) -> None:
    with pytest.raises(InvalidContactWindowError) as caught:
        ContactWindow.parse(text)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("window", "local", "inside"),
    [
        (DEFAULT_CONTACT_WINDOW, time(8), True),  # start inclusive
        (DEFAULT_CONTACT_WINDOW, time(7, 59, 59), False),
        (DEFAULT_CONTACT_WINDOW, time(22, 59), True),
        (DEFAULT_CONTACT_WINDOW, time(23), False),  # end exclusive
        (ContactWindow(time(22), time(6)), time(23, 30), True),  # wraps midnight
        (ContactWindow(time(22), time(6)), time(5, 59), True),
        (ContactWindow(time(22), time(6)), time(6), False),
        (ContactWindow(time(22), time(6)), time(12), False),
        (ContactWindow(time(0), time(0)), time(3), True),  # whole day
    ],
)
def test_window_contains(window: ContactWindow, local: time, inside: bool) -> None:
    assert window.contains(local) is inside


def test_advisory_outside_the_window_names_time_zone_and_window() -> None:
    now = datetime(2026, 4, 29, 9, 14, tzinfo=UTC)  # 02:14 in Los Angeles (PDT)
    context = runtime_time_context(now, "America/Los_Angeles")
    assert context.within_contact_window is False
    assert context.advisory == (
        "It is 02:14 in the user's timezone (America/Los_Angeles), outside their usual "
        "contact window 08:00–23:00; consider deferring unless it is urgent."
    )
    assert context.to_dict()["now"] == "2026-04-29T02:14:00-07:00"


def test_a_planned_send_speaks_of_then_not_now() -> None:
    at = datetime(2026, 3, 10, 3, tzinfo=UTC)  # 04:00 in Berlin, set at 21:00 the day before
    context = runtime_time_context(at, "Europe/Berlin", planned=True)
    assert context.within_contact_window is False
    assert context.advisory == (
        "It will be 04:00 in the user's timezone (Europe/Berlin) when it is sent, outside "
        "their usual contact window 08:00–23:00; when it falls due you are asked again and "
        "may defer it."
    )
    shown = context.to_dict()
    assert "now" not in shown
    assert shown["sends_at"] == "2026-03-10T04:00:00+01:00"


def test_no_advisory_inside_the_window() -> None:
    context = runtime_time_context(datetime(2026, 4, 29, 16, tzinfo=UTC), "America/Los_Angeles")
    assert context.within_contact_window is True
    assert context.advisory == ""


@pytest.mark.parametrize(
    ("utc_hour", "minute", "inside"),
    [(2, 14, False), (2, 15, True)],  # Kathmandu is UTC+05:45: 08:00 local is 02:15 UTC
)
def test_window_in_a_fractional_zone(utc_hour: int, minute: int, inside: bool) -> None:
    now = datetime(2026, 6, 1, utc_hour, minute, tzinfo=UTC)
    assert runtime_time_context(now, "Asia/Kathmandu").within_contact_window is inside


def test_unknown_user_zone_says_so() -> None:
    context = runtime_time_context(datetime(2026, 6, 1, 3, tzinfo=UTC), None)
    assert context.user_timezone == "UTC"
    assert context.zone_known is False
    assert "not known" in context.advisory


def test_bad_zone_in_context_is_a_clear_error() -> None:
    with pytest.raises(UnknownTimezoneError) as caught:
        runtime_time_context(datetime(2026, 6, 1, tzinfo=UTC), "America/Los_Angles")
    assert "America/Los_Angeles" in caught.value.suggestions


def test_provider_uses_its_clock() -> None:
    clock = SettableClock(datetime(2026, 3, 7, 15, tzinfo=UTC))
    provider = TimezoneProvider(clock, agent_tz="Europe/Berlin")
    assert provider.now() == clock.now()
    assert provider.agent_timezone() == "Europe/Berlin"
    assert provider.delta_hours("Asia/Kathmandu") == 4.75
    assert provider.to_iso(clock.now(), "Asia/Tokyo") == "2026-03-08T00:00:00+09:00"
    parsed = provider.parse_anchored_time("tomorrow 9am", "America/New_York")
    assert parsed.to_dict()["start_instant"] == "2026-03-08T09:00:00-04:00"
