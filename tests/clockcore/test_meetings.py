"""The meeting slot search: each member's window read on their own clock, on each date.

The expected slots below were worked out by hand from the zones' offsets on
those dates (written beside each case); `inside_minutes` is checked against a
minute-by-minute count with `ContactWindow.contains`, an independent reading.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockcore.errors import UnknownTimezoneError
from clockcore.meetings import (
    NIGHT,
    MeetingMember,
    Slot,
    find_slots,
    inside_minutes,
    local_shifts,
    zone_label,
)
from clockcore.window import ContactWindow

WORK = ContactWindow(time(9), time(18))
DAY = ContactWindow(time(7), time(23))


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def starts(slots: tuple[Slot, ...]) -> list[str]:
    return [f"{s.start:%Y-%m-%d %H:%M}" for s in slots]


def local_starts(slot: Slot) -> dict[str, str]:
    return {m.name: f"{m.local_start:%a %H:%M}" for m in slot.members}


def costs(slot: Slot) -> dict[str, int]:
    return {m.name: m.minutes_outside for m in slot.members}


# --- Zones with whole, half and quarter hour offsets ---------------------------------------

# name, members, length, range (UTC), best start (UTC), each member's local start
# Worked by hand; December is summer in the south (Adelaide +10:30, Chatham +13:45).
CASES = [
    (
        "Lisbon, Berlin and New York in office hours",
        # Lisbon +0 09–18 → 09–18 UTC; Berlin +1 → 08–17; New York −5 → 14–23: 14–17 UTC
        [("ana", "Europe/Lisbon", WORK), ("ben", "Europe/Berlin", WORK),
         ("cy", "America/New_York", WORK)],
        45, "2026-12-01T00:00", "2026-12-02T00:00",
        "2026-12-01 14:00", {"ana": "Tue 14:00", "ben": "Tue 15:00", "cy": "Tue 09:00"},
    ),
    (
        "Kathmandu, Adelaide and Chatham, 07:00–23:00 each",
        # Kathmandu +5:45 → 01:15–17:15 UTC; Adelaide +10:30 → 20:30–12:30;
        # Chatham +13:45 → 17:15–09:15: all three 01:15–09:15 UTC
        [("dev", "Asia/Kathmandu", DAY), ("eve", "Australia/Adelaide", DAY),
         ("fay", "Pacific/Chatham", DAY)],
        45, "2026-12-01T00:00", "2026-12-02T00:00",
        "2026-12-01 01:15", {"dev": "Tue 07:00", "eve": "Tue 11:45", "fay": "Tue 15:00"},
    ),
    (
        "Kolkata and Adelaide, office hours: half an hour apart at both ends",
        # Kolkata +5:30 09–18 → 03:30–12:30 UTC; Adelaide +10:30 → 22:30–07:30: 03:30–07:30
        [("gus", "Asia/Kolkata", WORK), ("eve", "Australia/Adelaide", WORK)],
        60, "2026-12-01T00:00", "2026-12-02T00:00",
        "2026-12-01 03:30", {"gus": "Tue 09:00", "eve": "Tue 14:00"},
    ),
    (
        "five members from São Paulo to Adelaide",
        # São Paulo −3 07–23 → 10–02 UTC; London +0 → 07–23; Berlin +1 → 06–22;
        # Kathmandu +5:45 → 01:15–17:15; Adelaide +10:30 → 20:30–12:30: all five 10:00–12:30
        [("sol", "America/Sao_Paulo", DAY), ("jo", "Europe/London", DAY),
         ("ben", "Europe/Berlin", DAY), ("dev", "Asia/Kathmandu", DAY),
         ("eve", "Australia/Adelaide", DAY)],
        60, "2026-12-01T00:00", "2026-12-02T00:00",
        "2026-12-01 10:00",
        {"sol": "Tue 07:00", "jo": "Tue 10:00", "ben": "Tue 11:00", "dev": "Tue 15:45",
         "eve": "Tue 20:30"},
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("members", "minutes", "since", "until", "best", "local"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_the_best_slot_is_the_earliest_inside_every_window(
    members: list[tuple[str, str, ContactWindow]],
    minutes: int,
    since: str,
    until: str,
    best: str,
    local: dict[str, str],
) -> None:
    search = find_slots(
        [MeetingMember(name, zone, window) for name, zone, window in members],
        start=utc(since),
        end=utc(until),
        length=timedelta(minutes=minutes),
        now=utc(since),
    )
    assert search.everyone_inside
    assert starts(search.slots)[0] == best
    assert local_starts(search.slots[0]) == local
    assert costs(search.slots[0]) == {name: 0 for name, _, _ in members}


def test_the_slot_before_the_overlap_opens_costs_the_minutes_outside() -> None:
    """Kathmandu opens at 01:15 UTC: a slot at 01:00 costs its member 15 minutes, not 45."""
    search = find_slots(
        [MeetingMember("dev", "Asia/Kathmandu", DAY), MeetingMember("fay", "Pacific/Chatham", DAY)],
        start=utc("2026-12-01T01:00"),
        end=utc("2026-12-01T01:45"),
        length=timedelta(minutes=45),
        now=utc("2026-12-01T00:00"),
    )
    assert starts(search.slots) == ["2026-12-01 01:00"]
    assert costs(search.slots[0]) == {"dev": 15, "fay": 0}
    assert not search.everyone_inside


def test_three_proposals_on_three_days_that_never_overlap() -> None:
    search = find_slots(
        [
            MeetingMember("ana", "Europe/Lisbon", WORK),
            MeetingMember("cy", "America/New_York", WORK),
        ],
        start=utc("2026-12-01T00:00"),
        end=utc("2026-12-05T00:00"),
        length=timedelta(minutes=45),
        now=utc("2026-12-01T00:00"),
    )
    assert starts(search.slots) == ["2026-12-01 14:00", "2026-12-02 14:00", "2026-12-03 14:00"]


def test_one_day_of_choice_gives_three_slots_that_do_not_overlap() -> None:
    search = find_slots(
        [
            MeetingMember("ana", "Europe/Lisbon", WORK),
            MeetingMember("cy", "America/New_York", WORK),
        ],
        start=utc("2026-12-01T00:00"),
        end=utc("2026-12-02T00:00"),
        length=timedelta(minutes=45),
        now=utc("2026-12-01T00:00"),
    )
    assert starts(search.slots) == ["2026-12-01 14:00", "2026-12-01 14:45", "2026-12-01 15:30"]


def test_nothing_before_now_and_starts_on_a_quarter_hour() -> None:
    search = find_slots(
        [
            MeetingMember("ana", "Europe/Lisbon", WORK),
            MeetingMember("cy", "America/New_York", WORK),
        ],
        start=utc("2026-12-01T00:00"),
        end=utc("2026-12-02T00:00"),
        length=timedelta(minutes=30),
        now=utc("2026-12-01T14:07"),
    )
    assert starts(search.slots)[0] == "2026-12-01 14:15"


# --- A DST change inside the range, for one member only ---------------------------------------


def test_one_members_dst_change_moves_the_overlap_on_that_date() -> None:
    """New York moves to EDT on Sunday 14 March 2027; Berlin stays on CET until the 28th.

    Berlin 09–18 is 08–17 UTC throughout. New York 09–18 is 14–23 UTC on Friday and
    Saturday (EST) and 13–22 UTC from Sunday (EDT): the overlap opens an hour earlier.
    """
    search = find_slots(
        [
            MeetingMember("ben", "Europe/Berlin", WORK),
            MeetingMember("cy", "America/New_York", WORK),
        ],
        start=utc("2027-03-12T00:00"),
        end=utc("2027-03-16T00:00"),
        length=timedelta(hours=1),
        now=utc("2027-03-12T00:00"),
    )
    assert starts(search.slots) == ["2027-03-12 14:00", "2027-03-13 14:00", "2027-03-14 13:00"]
    assert [local_starts(s) for s in search.slots] == [
        {"ben": "Fri 15:00", "cy": "Fri 09:00"},
        {"ben": "Sat 15:00", "cy": "Sat 09:00"},
        {"ben": "Sun 14:00", "cy": "Sun 09:00"},
    ]
    assert search.everyone_inside


def test_a_window_on_the_night_the_clocks_go_forward() -> None:
    """Berlin, 28 March 2027: 02:00 CET becomes 03:00 CEST at 01:00 UTC.

    A 01:00–05:00 window: the skipped hour is never inside, so 00:00–04:00 UTC reads
    01:00, (skipped), 03:00, 04:00, 05:00 local: 00:00–01:00 and 01:00–03:00 UTC inside.
    """
    window = ContactWindow(time(1), time(5))
    assert (
        inside_minutes(window, "Europe/Berlin", utc("2027-03-28T00:00"), utc("2027-03-28T04:00"))
        == 180
    )


# --- Members we cannot place, windows that never meet, nights ------------------------------------


def test_a_member_with_no_zone_is_left_out_and_named() -> None:
    search = find_slots(
        [
            MeetingMember("ana", "Europe/Lisbon", WORK),
            MeetingMember("kim", None, WORK),
            MeetingMember("cy", "America/New_York", WORK),
        ],
        start=utc("2026-12-01T00:00"),
        end=utc("2026-12-02T00:00"),
        length=timedelta(minutes=45),
        now=utc("2026-12-01T00:00"),
    )
    assert search.missing == ("kim",)
    assert [m.name for m in search.slots[0].members] == ["ana", "cy"]
    assert starts(search.slots)[0] == "2026-12-01 14:00"


def test_nobody_placed_gives_no_slots() -> None:
    search = find_slots(
        [MeetingMember("kim", None), MeetingMember("lu", None)],
        start=utc("2026-12-01T00:00"),
        end=utc("2026-12-02T00:00"),
        length=timedelta(minutes=45),
        now=utc("2026-12-01T00:00"),
    )
    assert search.slots == ()
    assert search.missing == ("kim", "lu")
    assert not search.everyone_inside


def test_windows_that_never_meet_offer_the_least_bad_with_each_cost() -> None:
    """Berlin 09–17 is 08–16 UTC; Honolulu 09–17 is 19–03 UTC: never together.

    The cheapest slots leave one person a whole hour outside their window; slots
    that touch anyone's 00:00–06:00 are not offered.
    """
    search = find_slots(
        [MeetingMember("ben", "Europe/Berlin", ContactWindow(time(9), time(17))),
         MeetingMember("hal", "Pacific/Honolulu", ContactWindow(time(9), time(17)))],
        start=utc("2026-12-01T00:00"),
        end=utc("2026-12-02T00:00"),
        length=timedelta(hours=1),
        now=utc("2026-12-01T00:00"),
    )  # fmt: skip
    assert not search.everyone_inside
    best = search.slots[0]
    assert starts(search.slots)[0] == "2026-12-01 08:00"
    assert costs(best) == {"ben": 0, "hal": 60}
    assert local_starts(best) == {"ben": "Tue 09:00", "hal": "Mon 22:00"}
    assert all(s.total_outside == 60 for s in search.slots)
    for slot in search.slots:
        for member in slot.members:
            assert not inside_minutes(NIGHT, member.zone, slot.start, slot.end)
    assert search.nights_excluded > 0


def test_every_candidate_in_someones_night_gives_none_unless_nights_are_allowed() -> None:
    """Auckland (+13) and London (+0) from 11:00 to 13:00 UTC: 00:00–02:00 in Auckland."""
    members = [MeetingMember("mo", "Pacific/Auckland"), MeetingMember("jo", "Europe/London")]
    kwargs = {
        "start": utc("2026-12-01T11:00"),
        "end": utc("2026-12-01T13:00"),
        "length": timedelta(hours=1),
        "now": utc("2026-12-01T00:00"),
    }
    none = find_slots(members, **kwargs)  # type: ignore[arg-type]
    assert none.slots == ()
    assert none.nights_excluded == 5
    asked = find_slots(members, allow_nights=True, **kwargs)  # type: ignore[arg-type]
    assert starts(asked.slots)[0] == "2026-12-01 11:00"
    assert local_starts(asked.slots[0]) == {"mo": "Wed 00:00", "jo": "Tue 11:00"}


def test_bad_arguments_say_what_is_wrong() -> None:
    member = [MeetingMember("ana", "Europe/Lisbon")]
    since = utc("2026-12-01T00:00")
    with pytest.raises(ValueError, match="whole number of minutes"):
        find_slots(
            member, start=since, end=since + timedelta(days=1), length=timedelta(0), now=since
        )
    with pytest.raises(ValueError, match="shorter than the meeting"):
        find_slots(
            member,
            start=since,
            end=since + timedelta(minutes=30),
            length=timedelta(hours=1),
            now=since,
        )
    with pytest.raises(UnknownTimezoneError):
        find_slots(
            [MeetingMember("x", "Mars/Olympus")],
            start=since, end=since + timedelta(days=1), length=timedelta(hours=1), now=since,
        )  # fmt: skip


# --- A repeating meeting moves on some members' clocks -----------------------------------------------


def test_a_weekly_meeting_in_london_moves_for_new_york_and_sydney_and_not_for_berlin() -> None:
    """Every Tuesday 16:00 in London from 2 March 2027.

    New York springs forward on 14 March, London on 28 March, Sydney falls back on
    4 April: in New York the meeting is 11:00, then 12:00 from 16 March (until London
    moves too); in Sydney it is Wednesday 03:00, then 02:00 from 30 March (London's
    change). Berlin changes with London: no move.
    """
    members = [
        MeetingMember("jo", "Europe/London"), MeetingMember("cy", "America/New_York"),
        MeetingMember("ben", "Europe/Berlin"), MeetingMember("eve", "Australia/Sydney"),
        MeetingMember("kim", None),
    ]  # fmt: skip
    shifts = local_shifts(
        "FREQ=WEEKLY;BYDAY=TU", datetime.fromisoformat("2027-03-02T16:00"), "Europe/London",
        members, after=utc("2027-03-01T00:00"), horizon=timedelta(days=60),
    )  # fmt: skip
    assert [(s.name, f"{s.before:%a %H:%M}", f"{s.after:%a %d %b %H:%M}") for s in shifts] == [
        ("cy", "Tue 11:00", "Tue 16 Mar 12:00"),
        ("eve", "Wed 03:00", "Wed 31 Mar 02:00"),
    ]
    assert shifts[0].occurrence == utc("2027-03-16T16:00")
    assert shifts[0].warn_at == utc("2027-03-09T16:00")


# --- How a slot reads ---------------------------------------------------------------------------------


def test_a_slot_reads_in_every_members_local_time() -> None:
    search = find_slots(
        [MeetingMember("ana", "Europe/Lisbon", WORK), MeetingMember("ben", "Europe/Berlin", WORK),
         MeetingMember("cy", "America/New_York", WORK), MeetingMember("bo", "Europe/Berlin", WORK)],
        start=utc("2026-12-01T16:00"),
        end=utc("2026-12-01T17:00"),
        length=timedelta(hours=1),
        now=utc("2026-12-01T00:00"),
    )  # fmt: skip
    assert search.slots[0].describe() == "Tue 1 Dec: 16:00 Lisbon · 17:00 Berlin · 11:00 New York"


def test_a_member_on_another_date_has_the_weekday() -> None:
    slot = find_slots(
        [MeetingMember("jo", "Europe/London"), MeetingMember("eve", "Australia/Adelaide")],
        start=utc("2026-12-01T20:00"),
        end=utc("2026-12-01T21:00"),
        length=timedelta(hours=1),
        now=utc("2026-12-01T00:00"),
        allow_nights=True,
    ).slots[0]
    assert slot.describe() == "Tue 1 Dec: 20:00 London · Wed 06:30 Adelaide"
    assert slot.describe("Australia/Adelaide") == "Wed 2 Dec: Tue 20:00 London · 06:30 Adelaide"


@pytest.mark.parametrize(
    ("zone", "label"),
    [
        ("America/New_York", "New York"),
        ("UTC", "UTC"),
        ("America/Argentina/Buenos_Aires", "Buenos Aires"),
    ],
)
def test_zone_label(zone: str, label: str) -> None:
    assert zone_label(zone) == label


# --- inside_minutes against a minute-by-minute reading --------------------------------------------

ZONES = [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham",
    "Asia/Kathmandu", "America/St_Johns", "Australia/Adelaide", "UTC",
]  # fmt: skip
# Spans around DST changes in 2027 (EU 28 Mar and 31 Oct, US 14 Mar, south 4 Apr), and plain days.
AROUND = [
    utc("2027-03-27T12:00"), utc("2027-10-30T12:00"), utc("2027-03-13T18:00"),
    utc("2027-04-03T06:00"), utc("2027-04-02T20:00"), utc("2026-12-01T00:00"),
]  # fmt: skip


def by_the_minute(window: ContactWindow, zone: str, start: datetime, end: datetime) -> int:
    tz = ZoneInfo(zone)
    count, instant = 0, start
    while instant < end:
        count += window.contains(instant.astimezone(tz).time())
        instant += timedelta(minutes=1)
    return count


@settings(max_examples=300, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    around=st.sampled_from(AROUND),
    offset=st.integers(min_value=0, max_value=24 * 4),
    length=st.integers(min_value=1, max_value=36 * 4),
    opens=st.integers(min_value=0, max_value=95),
    closes=st.integers(min_value=0, max_value=95),
)
def test_inside_minutes_counts_what_the_wall_clock_shows(
    zone: str, around: datetime, offset: int, length: int, opens: int, closes: int
) -> None:
    window = ContactWindow(time(opens // 4, opens % 4 * 15), time(closes // 4, closes % 4 * 15))
    start = around + timedelta(minutes=15 * offset)
    end = start + timedelta(minutes=15 * length)
    assert inside_minutes(window, zone, start, end) == by_the_minute(window, zone, start, end)
