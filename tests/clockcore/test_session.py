"""docs/clock-spec.md §4.2: the session zone's precedence, one rule per row."""

from __future__ import annotations

import pytest

from clockcore import UnknownTimezoneError, resolve_session_zone
from clockcore.geo.session import UTC_FALLBACK_NOTICE, place_answer_notice


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


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Toronto", "America/Toronto"),
        ("toronto.", "America/Toronto"),
        ("in Lisbon!", "Europe/Lisbon"),
        ("Toronto, Canada", "America/Toronto"),
        ("New York", "America/New_York"),
    ],
)
def test_a_place_and_nothing_else_answers_where_they_are(text: str, zone: str) -> None:
    """Step 5: the answer to "Which city are you in?" while the zone is unknown."""
    session = resolve_session_zone(text, place_answers=True)
    assert (session.zone, session.source) == (zone, "message")
    # The request that waited for the zone is two messages up: the block says so.
    assert session.notices == (place_answer_notice(zone),)
    assert zone in session.notices[0] and "can be set now" in session.notices[0]


@pytest.mark.parametrize(
    ("text", "kwargs"),
    [
        ("Toronto", {}),  # a group: a place said there is chatter, nobody was asked
        ("Tokyo?", {"place_answers": True}),  # a question about Tokyo
        ("Reading", {"place_answers": True}),  # a common word first
        ("Toronto and Paris", {"place_answers": True}),
        ("call mum in Toronto", {"place_answers": True}),
    ],
)
def test_a_place_among_other_words_or_asked_about_places_no_one(
    text: str, kwargs: dict[str, bool]
) -> None:
    session = resolve_session_zone(text, **kwargs)
    assert (session.zone, session.source) == ("UTC", "default")
    assert session.notices[-1] == UTC_FALLBACK_NOTICE


def test_a_place_answer_gives_way_to_a_zone_already_known() -> None:
    session = resolve_session_zone("Toronto", user_default="Europe/Lisbon", place_answers=True)
    assert (session.zone, session.source) == ("Europe/Lisbon", "user")
    known = resolve_session_zone("Toronto", known_locations=("Oslo",), place_answers=True)
    assert (known.zone, known.source) == ("Europe/Oslo", "location")


def test_an_ambiguous_place_answer_is_asked_about() -> None:
    session = resolve_session_zone("Springfield", place_answers=True)
    assert session.zone == "UTC"
    assert session.notices[0].startswith("Which Springfield do you mean")
    assert session.notices[-1] == UTC_FALLBACK_NOTICE
