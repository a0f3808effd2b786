"""Table tests and properties for `clockcore.actions` (docs/clock-spec.md §6, §6.5, §10.3)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockcore.actions import (
    ACTIVITIES,
    BRB_TTL,
    DEFAULT_TTL,
    MAX_LABEL_CHARS,
    MAX_QUOTE_CHARS,
    MAX_TTL,
    NAP_TTL,
    OPEN_STATUSES,
    PROJECT_TTL,
    SLEEP_TTL,
    ActionSource,
    ActionStatus,
    action_ttl,
    classify_activity,
    detect_temporal_action,
    draft_action,
    expire_status,
    is_open,
    normalize_label,
    prune,
)
from clockcore.errors import NaiveDatetimeError
from clockcore.policy import ThreadKind

T0 = datetime(2026, 2, 9, 9, 10, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


# --------------------------------------------------------------------------- detection

POSITIVES = [
    # message, label, activity, status
    ("I'm about to call the bank", "call the bank", "call", "planned"),
    ("about to hop in the shower", "hop in the shower", "shower", "planned"),
    ("i'm just about to deploy the release", "deploy the release", None, "planned"),
    ("heading to the gym", "gym", "gym", "planned"),
    ("I’m headed to the gym", "gym", "gym", "planned"),
    ("We're heading to dinner", "dinner", "meal:dinner", "planned"),
    ("anyway I'm off to the store", "store", "shopping", "planned"),
    ("Off to bed, night all!", "sleep", "sleep", "planned"),
    ("going to sleep now", "sleep", "sleep", "planned"),
    ("ok I'm going to bed", "sleep", "sleep", "planned"),
    ("time for bed", "sleep", "sleep", "planned"),
    ("calling it a night", "sleep", "sleep", "planned"),
    ("gonna grab lunch", "grab lunch", "meal:lunch", "planned"),
    ("I'm going to eat dinner", "eat dinner", "meal:dinner", "planned"),
    ("I'm going to finish the report tonight", "finish the report tonight", None, "planned"),
    ("Going to chug 2 gallons of milk now", "chug 2 gallons of milk", None, "planned"),
    ("going for a run", "run", "run", "planned"),
    ("brb", "be right back", "brb", "in_progress"),
    ("BRB, grabbing coffee", "be right back", "brb", "in_progress"),
    ("be right back", "be right back", "brb", "in_progress"),
    ("back in 5", "be right back", "brb", "in_progress"),
    ("after lunch I will call the bank", "call the bank after lunch", "call", "planned"),
    ("after lunch, I'll call the bank", "call the bank after lunch", "call", "planned"),
    ("after work I'm going to the gym", "gym after work", "gym", "planned"),
    (
        "I'll send the report after the meeting",
        "send the report after the meeting",
        None,
        "planned",
    ),
    ("I'm at the gym", "gym", "gym", "in_progress"),
    ("I'm in a meeting until 3", "meeting until 3", "meeting", "in_progress"),
    ("on a call", "call", "call", "in_progress"),
    ("I'm in the shower", "shower", "shower", "in_progress"),
    ("stepping out for a bit", "stepping out", None, "in_progress"),
    ("grabbing lunch", "grabbing lunch", "meal:lunch", "in_progress"),
    ("I'm eating dinner", "eating dinner", "meal:dinner", "in_progress"),
    ("taking a nap", "nap", "nap", "in_progress"),
    ("hopping on a call", "hopping on a call", "call", "in_progress"),
    ("I'm heading out", "heading out", None, "planned"),
    ("headed home now", "headed home", "commute", "planned"),
    ("I'm on my way", "on my way", "commute", "planned"),
    ("leaving for the airport", "leaving for the airport", "flight", "planned"),
    ("Thanks for the help! I'm heading to the gym now.", "gym", "gym", "planned"),
]


@pytest.mark.parametrize(("text", "label", "activity", "status"), POSITIVES)
def test_detects_temporal_actions(
    text: str, label: str, activity: str | None, status: ActionStatus
) -> None:
    phrase = detect_temporal_action(text)
    assert phrase is not None
    assert normalize_label(phrase) == label
    draft = draft_action(text, source="auto", thread_kind="conversation", store_quotes=False)
    assert (draft.label, draft.activity, draft.status) == (label, activity, status)


def test_detection_returns_the_clause() -> None:
    text = "ok so thanks for that. I’m heading to the gym now, talk later"
    assert detect_temporal_action(text) == "I'm heading to the gym now"


NEGATIVES = [
    "I went to the gym yesterday",
    "going to be honest",
    "I'm going to be honest with you",
    "what are you going to do",
    "I'm about to lose my mind",
    "I'm about to be late",
    "I'm going to go crazy",
    "Are you heading to the gym?",
    "should I go to bed?",
    "he's heading to the gym",
    "she's about to call you",
    "you're going to love this",
    "it's going to rain",
    "that's about to change",
    "I'm not going to sleep",
    "I don't think I'm going to sleep",
    "I was about to call you",
    "if I'm heading to the gym I'll text you",
    "I'm going to Japan next month",
    "heading to Japan next month",
    "I'm going to learn Japanese",
    "gonna need more coffee",
    "I'm going to have to say no",
    "I'll think about it later",
    "I'm running late",
    "I'm getting tired of work",
    "I'm having a hard time",
    "I'm doing well",
    "I'm in a bad mood about work",
    "I'm on call this week",
    "in the meeting we discussed the budget",
    "I'm at a loss",
    "I'm in love",
    "I'm on a roll",
    "I'm heading in the right direction",
    "the clock is broken",
    "going to",
    "about to",
    "ok",
    "thanks, see you",
    "",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_ignores_ordinary_statements(text: str) -> None:
    assert detect_temporal_action(text) is None


# --------------------------------------------------------------------------- labels

LABEL_CASES = [
    ("I'm going to eat dinner", "eat dinner"),
    ("clock it: I’m going to eat dinner", "eat dinner"),
    ("heading to the gym, clock it!", "gym"),
    ("paid invoice", "paid invoice"),
    ("Paid invoice.", "Paid invoice"),
    ("I'm going to call the bank", "call the bank"),
    ("going to bed", "sleep"),
    ("hitting the hay", "sleep"),
    ("about to hit the gym", "gym"),
    ("Be right back!", "be right back"),
    ("after the meeting, I'll send the report", "send the report after the meeting"),
    ("I am about to walk the dog", "walk the dog"),
    ("I'm at the dentist right now", "dentist"),
    ("the quarterly report", "quarterly report"),
    ("!!!", "!!!"),
    ("   ", ""),
]


@pytest.mark.parametrize(("text", "expected"), LABEL_CASES)
def test_normalize_label(text: str, expected: str) -> None:
    assert normalize_label(text) == expected


def test_long_label_is_cut() -> None:
    text = "about to " + " ".join(f"step{i}" for i in range(40))
    label = normalize_label(text)
    assert len(label) <= MAX_LABEL_CHARS
    assert label.startswith("step0 step1")
    assert label.endswith("…")


# --------------------------------------------------------------------------- activities

CLASSIFY_CASES = [
    ("gym", "gym"),
    ("working out", "gym"),
    ("sleep", "sleep"),
    ("bed", "sleep"),
    ("turning in", "sleep"),
    ("power nap", "nap"),
    ("eat dinner", "meal:dinner"),
    ("grab lunch", "meal:lunch"),
    ("breakfast with Sam", "meal:breakfast"),
    ("grab a bite", "meal"),
    ("make dinner", "cook"),
    ("shower", "shower"),
    ("morning run", "run"),
    ("running", "run"),
    ("running late", None),
    ("walk the dog", "walk"),
    ("commute", "commute"),
    ("heading home", "commute"),
    ("standup meeting", "meeting"),
    ("call the bank", "call"),
    ("call the bank after lunch", "call"),
    ("send the report after lunch", None),
    ("groceries", "shopping"),
    ("run errands", "errands"),
    ("the movies", "movie"),
    ("dentist", "appointment"),
    ("catch a flight", "flight"),
    ("drive to the airport", "flight"),
    ("laundry", "chores"),
    ("office", "work"),
    ("paid invoice", None),
    ("", None),
]


@pytest.mark.parametrize(("label", "expected"), CLASSIFY_CASES)
def test_classify_activity(label: str, expected: str | None) -> None:
    assert classify_activity(label) == expected


def test_activity_table() -> None:
    assert len(ACTIVITIES) >= 20
    required = {"gym", "sleep", "nap", "meal:dinner", "meal:lunch", "shower", "run", "walk"}
    assert required | {"commute", "meeting", "call", "shopping", "movie", "work"} <= set(ACTIVITIES)
    for key, row in ACTIVITIES.items():
        assert row.key == key
        assert 0 < row.typical_minutes <= row.max_minutes
    sleep = ACTIVITIES["sleep"]
    assert 8 * 60 <= sleep.typical_minutes <= sleep.max_minutes <= 12 * 60


def test_every_classified_key_is_in_the_table() -> None:
    for label, expected in CLASSIFY_CASES:
        if expected is not None:
            assert expected in ACTIVITIES, label


# --------------------------------------------------------------------------- ttl

TTL_CASES: list[tuple[str | None, ThreadKind, bool, timedelta]] = [
    # activity, thread kind, explicit, ttl
    (None, "conversation", False, DEFAULT_TTL),
    (None, "conversation", True, DEFAULT_TTL),
    ("gym", "conversation", False, DEFAULT_TTL),
    ("gym", "scheduling", True, DEFAULT_TTL),
    ("gym", "operations", False, DEFAULT_TTL),
    ("sleep", "conversation", False, SLEEP_TTL),
    ("sleep", "project", True, SLEEP_TTL),
    ("nap", "conversation", False, NAP_TTL),
    ("brb", "conversation", False, BRB_TTL),
    ("brb", "project", True, BRB_TTL),
    (None, "project", False, PROJECT_TTL),
    (None, "project", True, PROJECT_TTL),
    ("gym", "project", True, PROJECT_TTL),
    ("meal:lunch", "project", False, DEFAULT_TTL),
]


@pytest.mark.parametrize(("activity", "kind", "explicit", "expected"), TTL_CASES)
def test_action_ttl(
    activity: str | None, kind: ThreadKind, explicit: bool, expected: timedelta
) -> None:
    ttl = action_ttl(activity=activity, thread_kind=kind, explicit=explicit)
    assert ttl == expected
    assert ttl <= MAX_TTL


def test_ttl_constants() -> None:
    # docs/clock-spec.md §6.4: 24 h default; sleep in the 8-12 h band (nap shorter); project 7-30 days.
    actual = (BRB_TTL, NAP_TTL, SLEEP_TTL, DEFAULT_TTL, PROJECT_TTL, MAX_TTL)
    assert actual == (
        timedelta(hours=1),
        timedelta(hours=4),
        timedelta(hours=12),
        timedelta(hours=24),
        timedelta(days=7),
        timedelta(days=30),
    )


# --------------------------------------------------------------------------- drafts

DRAFT_CASES: list[tuple[str, ActionSource, ThreadKind, str, ActionStatus, timedelta]] = [
    # text, source, kind, label, status, ttl
    ("paid invoice", "clock_it", "conversation", "paid invoice", "done", DEFAULT_TTL),
    ("paid invoice", "clock_it", "project", "paid invoice", "done", PROJECT_TTL),
    ("clock: sent the contract", "clock_it", "project", "sent the contract", "done", PROJECT_TTL),
    ("I’m going to eat dinner", "clock_it", "conversation", "eat dinner", "planned", DEFAULT_TTL),
    ("call the bank", "user_confirmed", "scheduling", "call the bank", "planned", DEFAULT_TTL),
    ("gym done", "clock_it", "conversation", "gym done", "done", DEFAULT_TTL),
    ("going to sleep", "auto", "project", "sleep", "planned", SLEEP_TTL),
    ("brb", "auto", "operations", "be right back", "in_progress", BRB_TTL),
    ("about to deploy v2", "auto", "project", "deploy v2", "planned", PROJECT_TTL),
    ("heading to lunch", "auto", "project", "lunch", "planned", DEFAULT_TTL),
    ("catching a flight", "auto", "conversation", "catching a flight", "in_progress", DEFAULT_TTL),
]


@pytest.mark.parametrize(("text", "source", "kind", "label", "status", "ttl"), DRAFT_CASES)
def test_draft_action(
    text: str,
    source: ActionSource,
    kind: ThreadKind,
    label: str,
    status: ActionStatus,
    ttl: timedelta,
) -> None:
    draft = draft_action(text, source=source, thread_kind=kind, store_quotes=False)
    assert (draft.label, draft.status, draft.ttl, draft.source) == (label, status, ttl, source)
    assert draft.quote is None


def test_draft_durations_come_from_the_table() -> None:
    draft = draft_action(
        "heading to dinner", source="auto", thread_kind="conversation", store_quotes=False
    )
    row = ACTIVITIES["meal:dinner"]
    assert draft.activity == "meal:dinner"
    assert (draft.expected_typical_minutes, draft.expected_max_minutes) == (
        row.typical_minutes,
        row.max_minutes,
    )


SAID_DURATION_CASES = [
    # text, label, typical, max: the person's estimate, after a comma, dash, bracket or "for"
    ("clock it: writing the quarterly report, two hours", "writing the quarterly report", 120, 120),
    ("clock it: reading, about 1h30", "reading", 90, 90),
    ("clock it: trip (3 days)", "trip", 3 * 24 * 60, 3 * 24 * 60),
    ("clock it: gym for an hour", "gym", 60, ACTIVITIES["gym"].max_minutes),  # max: the table's
    ("clock it: nap - 20 min", "nap", 20, ACTIVITIES["nap"].max_minutes),
    # no estimate: the words stay in the label
    ("clock it: deploy in 2 days", "deploy in 2 days", None, None),
    ("clock it: project, 2 months", "project, 2 months", None, None),  # no exact length
    ("clock it: 2 hours", "2 hours", None, None),  # nothing but the span
]


@pytest.mark.parametrize(("text", "label", "typical", "most"), SAID_DURATION_CASES)
def test_a_clocked_action_keeps_the_persons_own_estimate(
    text: str, label: str, typical: int | None, most: int | None
) -> None:
    draft = draft_action(text, source="clock_it", thread_kind="conversation", store_quotes=True)
    assert (draft.label, draft.expected_typical_minutes, draft.expected_max_minutes) == (
        label,
        typical,
        most,
    )
    assert draft.ttl >= timedelta(minutes=most or 0)
    assert draft.quote == text.removeprefix("clock it: ")  # the person's words, whole


def test_an_auto_detected_action_reads_no_estimate() -> None:
    draft = draft_action(
        "heading to the gym, two hours", source="auto", thread_kind="conversation",
        store_quotes=False,
    )  # fmt: skip
    assert draft.expected_typical_minutes == ACTIVITIES["gym"].typical_minutes


CALIBRATION_CASES = [
    # calibration, typical, max
    ({"meal:dinner": (90, 240)}, 90, 240),
    ({"meal:dinner": (90, 60)}, 90, 90),
    ({"meal:dinner": (0, 240)}, 75, 180),
    ({"meal:dinner": (-5, -1)}, 75, 180),
    ({"meal:lunch": (10, 20)}, 75, 180),
    ({}, 75, 180),
]


@pytest.mark.parametrize(("calibration", "typical", "most"), CALIBRATION_CASES)
def test_calibration_overrides_the_table(
    calibration: dict[str, tuple[int, int]], typical: int, most: int
) -> None:
    draft = draft_action(
        "about to eat dinner",
        source="auto",
        thread_kind="conversation",
        store_quotes=False,
        calibration=calibration,
    )
    assert (draft.expected_typical_minutes, draft.expected_max_minutes) == (typical, most)


def test_ttl_stretches_to_the_expected_maximum_and_is_capped() -> None:
    long_sleep = draft_action(
        "going to sleep",
        source="auto",
        thread_kind="conversation",
        store_quotes=False,
        calibration={"sleep": (600, 900)},
    )
    assert long_sleep.ttl == timedelta(minutes=900)
    huge = draft_action(
        "heading to the gym",
        source="auto",
        thread_kind="conversation",
        store_quotes=False,
        calibration={"gym": (60, 60 * 24 * 90)},
    )
    assert huge.ttl == MAX_TTL


QUOTE_CASES = [
    # text, source, quote
    ("ok so I'm heading to the gym now, talk later", "auto", "I'm heading to the gym now"),
    ("clock it: paid the invoice", "clock_it", "paid the invoice"),
    ("I’m going to eat dinner", "clock_it", "I'm going to eat dinner"),
]


@pytest.mark.parametrize(("text", "source", "quote"), QUOTE_CASES)
def test_quotes_only_when_asked(text: str, source: ActionSource, quote: str) -> None:
    kept = draft_action(text, source=source, thread_kind="conversation", store_quotes=True)
    assert kept.quote == quote
    dropped = draft_action(text, source=source, thread_kind="conversation", store_quotes=False)
    assert dropped.quote is None


def test_quote_is_cut() -> None:
    text = "paid " + " ".join(f"invoice{i}" for i in range(60))
    draft = draft_action(text, source="clock_it", thread_kind="conversation", store_quotes=True)
    assert draft.quote is not None
    assert len(draft.quote) <= MAX_QUOTE_CHARS
    assert text.startswith(draft.quote.removesuffix("…"))


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_draft_needs_text(text: str) -> None:
    with pytest.raises(ValueError, match="needs some text"):
        draft_action(text, source="clock_it", thread_kind="conversation", store_quotes=False)


# --------------------------------------------------------------------------- expiry

EXPIRE_CASES: list[tuple[ActionStatus, float, int | None, ActionStatus]] = [
    # status, minutes after T0, expected max minutes, result (expires at T0 + 24 h)
    ("planned", 10, None, "planned"),
    ("planned", 24 * 60 - 1, None, "planned"),
    ("planned", 24 * 60, None, "expired"),
    ("in_progress", 24 * 60 + 1, None, "expired"),
    ("likely_done", 24 * 60, None, "expired"),
    ("likely_done", 10, None, "likely_done"),
    ("done", 24 * 60 * 10, None, "done"),
    ("canceled", 24 * 60 * 10, None, "canceled"),
    ("expired", 0, None, "expired"),
    ("planned", 179, 180, "planned"),
    ("planned", 180, 180, "likely_done"),
    ("in_progress", 200, 180, "likely_done"),
    ("in_progress", 24 * 60, 180, "expired"),
    ("done", 200, 180, "done"),
]


@pytest.mark.parametrize(("status", "minutes", "most", "expected"), EXPIRE_CASES)
def test_expire_status(
    status: ActionStatus, minutes: float, most: int | None, expected: ActionStatus
) -> None:
    result = expire_status(status, T0, at(24 * 60), at(minutes), expected_max_minutes=most)
    assert result == expected


def test_expire_status_compares_instants_across_zones() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    expires = at(60).astimezone(tokyo)
    assert expire_status("planned", T0, expires, at(59)) == "planned"
    assert expire_status("planned", T0, expires, at(60).astimezone(ZoneInfo("America/Denver"))) == (
        "expired"
    )


IS_OPEN_CASES: list[tuple[ActionStatus, float, bool]] = [
    ("planned", 0, True),
    ("in_progress", 59, True),
    ("likely_done", 59, True),
    ("planned", 60, False),
    ("done", 0, False),
    ("canceled", 0, False),
    ("expired", 0, False),
]


@pytest.mark.parametrize(("status", "minutes", "expected"), IS_OPEN_CASES)
def test_is_open(status: ActionStatus, minutes: float, expected: bool) -> None:
    assert is_open(status, at(60), at(minutes)) is expected
    assert (status in OPEN_STATUSES) or not expected


def test_naive_datetimes_are_refused() -> None:
    naive = datetime(2026, 2, 9, 9, 10)  # noqa: DTZ001 - the point of the test
    with pytest.raises(NaiveDatetimeError):
        expire_status("planned", naive, at(60), at(0))
    with pytest.raises(NaiveDatetimeError):
        is_open("planned", at(60), naive)
    with pytest.raises(NaiveDatetimeError):
        prune([("a", naive, at(60))], now=at(0), max_items=5)


# --------------------------------------------------------------------------- prune

PRUNE_ROWS = [
    # id, recorded (minutes), expires (minutes)
    ("a", 0, 30),
    ("b", 10, 600),
    ("c", 20, 600),
    ("d", 5, 600),
    ("e", 40, 50),
    ("f", 30, 600),
]

PRUNE_CASES = [
    # now (minutes), max_items, ids to delete (input order)
    (0, 25, []),
    (30, 25, ["a"]),
    (50, 25, ["a", "e"]),
    (50, 3, ["a", "d", "e"]),
    (50, 1, ["a", "b", "c", "d", "e"]),
    (0, 4, ["a", "d"]),
    (0, 0, ["a", "b", "c", "d", "e", "f"]),
    (600, 25, ["a", "b", "c", "d", "e", "f"]),
]


@pytest.mark.parametrize(("now", "max_items", "expected"), PRUNE_CASES)
def test_prune(now: float, max_items: int, expected: list[str]) -> None:
    rows = [(key, at(recorded), at(expires)) for key, recorded, expires in PRUNE_ROWS]
    assert prune(rows, now=at(now), max_items=max_items) == expected


def test_prune_breaks_ties_by_input_order() -> None:
    rows = [(1, T0, at(60)), (2, T0, at(60)), (3, T0, at(60))]
    assert prune(rows, now=T0, max_items=1) == [1, 2]


def test_prune_refuses_negative_max_items() -> None:
    with pytest.raises(ValueError, match="max_items"):
        prune([], now=T0, max_items=-1)


# --------------------------------------------------------------------------- properties

_PIECES = st.sampled_from(
    [
        "I'm ",
        "about to ",
        "going to ",
        "gonna ",
        "heading to ",
        "after ",
        " I'll ",
        "brb",
        "at the ",
        "gym",
        "lunch",
        "sleep",
        "clock it",
        ", ",
        ".",
        "?",
        "\n",
        " ",
        "not ",
    ]
)
_TEXT = st.one_of(st.text(), st.lists(st.one_of(_PIECES, st.text(max_size=5))).map("".join))


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_detection_and_labels_never_raise(text: str) -> None:
    phrase = detect_temporal_action(text)
    if phrase is not None:
        assert phrase.strip()
        assert normalize_label(phrase)
    label = normalize_label(text)
    assert len(label) <= MAX_LABEL_CHARS
    assert bool(label) == bool(text.strip())
    activity = classify_activity(text)
    assert activity is None or activity in ACTIVITIES
    if text.strip():
        draft = draft_action(text, source="auto", thread_kind="project", store_quotes=True)
        assert draft.label
        assert draft.quote is not None
        assert len(draft.quote) <= MAX_QUOTE_CHARS
        assert timedelta(0) < draft.ttl <= MAX_TTL
