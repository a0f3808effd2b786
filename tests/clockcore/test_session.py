"""docs/clock-spec.md §4.2: the session zone's precedence, one rule per row."""

from __future__ import annotations

import pytest

from clockcore import UnknownTimezoneError, resolve_session_zone
from clockcore.session import UTC_FALLBACK_NOTICE


@pytest.mark.parametrize(
    ("text", "thread", "user", "known", "zone", "source"),
    [
        # 1. the person places themselves in this message: the session moves there
        ("I'm in Lisbon this week", None, "America/New_York", (), "Europe/Lisbon", "message"),
        ("I'm in Lisbon this week", "Europe/Berlin", None, (), "Europe/Lisbon", "message"),
        ("here in Tokyo it's 9", None, "Europe/Berlin", (), "Asia/Tokyo", "message"),
        ("I'm in Lisbon this week", None, None, ("Tokyo",), "Europe/Lisbon", "message"),
        # a zone that is part of a time anchors that time only: the session stays
        (
            "call at 9am Tokyo time",
            "Europe/Berlin",
            "America/New_York",
            (),
            "Europe/Berlin",
            "thread",
        ),
        (
            "what's 9am New York time in my zone?",
            None,
            "Europe/Berlin",
            (),
            "Europe/Berlin",
            "user",
        ),
        ("ok at 10 Europe/Lisbon", "Europe/Berlin", None, (), "Europe/Berlin", "thread"),
        ("9am UTC+9 works", "Europe/Berlin", None, (), "Europe/Berlin", "thread"),
        ("sent 2026-03-08T09:00:00+02:00", None, "Asia/Tokyo", (), "Asia/Tokyo", "user"),
        ("noon UTC then", "Europe/Berlin", None, (), "Europe/Berlin", "thread"),
        ("at 9 in Sao Paulo", "Europe/Berlin", None, (), "Europe/Berlin", "thread"),
        ("what time is it in Tokyo?", None, "Europe/Berlin", (), "Europe/Berlin", "user"),
        # 2. thread override
        ("see you tomorrow", "Europe/Berlin", "America/New_York", (), "Europe/Berlin", "thread"),
        # 3. user default
        ("see you tomorrow", None, "America/New_York", (), "America/New_York", "user"),
        # 4. a place mentioned earlier
        ("hello", None, None, ("Tokyo",), "Asia/Tokyo", "location"),
        # 5. UTC
        ("hello", None, None, (), "UTC", "default"),
    ],
)
def test_precedence(
    text: str,
    thread: str | None,
    user: str | None,
    known: tuple[str, ...],
    zone: str,
    source: str,
) -> None:
    resolved = resolve_session_zone(
        text, thread_override=thread, user_default=user, known_locations=known
    )
    assert (resolved.zone, resolved.source) == (zone, source)


def test_utc_fallback_carries_a_notice() -> None:
    resolved = resolve_session_zone("hello")
    assert resolved.notices == (UTC_FALLBACK_NOTICE,)


def test_no_notice_when_the_zone_is_known() -> None:
    assert resolve_session_zone("hello", user_default="Asia/Tokyo").notices == ()


def test_abbreviation_is_never_mapped_and_asks() -> None:
    resolved = resolve_session_zone("call me at 9am IST", user_default="Europe/Berlin")
    assert resolved.zone == "Europe/Berlin"
    assert resolved.source == "user"
    assert len(resolved.notices) == 1
    assert "IST" in resolved.notices[0]
    assert "Asia/Kolkata" in resolved.notices[0]


def test_abbreviation_matching_known_context_needs_no_question() -> None:
    resolved = resolve_session_zone("9am EST?", user_default="America/New_York")
    assert resolved.zone == "America/New_York"
    assert resolved.notices == ()


def test_abbreviation_without_context_falls_back_to_utc_and_asks() -> None:
    resolved = resolve_session_zone("9am PST")
    assert resolved.zone == "UTC"
    assert any("PST" in notice for notice in resolved.notices)
    assert UTC_FALLBACK_NOTICE in resolved.notices


def test_ambiguous_place_asks_and_goes_on() -> None:
    resolved = resolve_session_zone("meet at 9 in Portland", user_default="Europe/Berlin")
    assert resolved.zone == "Europe/Berlin"
    assert any("Portland" in notice for notice in resolved.notices)


def test_fractional_offset_has_no_iana_id_and_asks() -> None:
    resolved = resolve_session_zone("at 9 UTC+5:30", user_default="Europe/Berlin")
    assert resolved.zone == "Europe/Berlin"
    assert any("UTC+5:30" in notice for notice in resolved.notices)


def test_corrupt_stored_zone_is_a_clear_error() -> None:
    with pytest.raises(UnknownTimezoneError) as caught:
        resolve_session_zone("hi", thread_override="Mars/Olympus_Mons")
    assert caught.value.zone == "Mars/Olympus_Mons"
