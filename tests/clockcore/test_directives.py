"""Table tests and properties for `clockcore.directives.parse_directives`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clockcore.directives import (
    MAX_CLOCK_IT_CHARS,
    Directives,
    parse_directives,
    truncate_words,
)

# --------------------------------------------------------------------------- clock it

CLOCK_IT_CASES = [
    # text, expected clock_it
    ("clock: paid invoice", "paid invoice"),
    ("clock it: I’m going to eat dinner", "I’m going to eat dinner"),
    ("Clock It: call the bank", "call the bank"),
    ("CLOCK: Paid Invoice", "Paid Invoice"),
    ("clock:paid invoice", "paid invoice"),
    ("clock it - heading out", "heading out"),
    ("clock it — dentist at 3", "dentist at 3"),
    ("   clock:   paid    the invoice  ", "paid the invoice"),
    ("so anyway\nclock it: paid rent\nthanks!", "paid rent"),
    ("heading to the gym, clock it", "heading to the gym"),
    ("going for a run — clock it!", "going for a run"),
    ("going for a run - clock it", "going for a run"),
    ("heading out; clock it.", "heading out"),
    ("Heading out. Clock it", "Heading out"),
    ("off to the dentist (clock it)", "off to the dentist"),
    ("off to the dentist, please clock it", "off to the dentist"),
    ("heading to the gym,clock it!!!", "heading to the gym"),
    ("heading to the gym\nclock it", "heading to the gym"),
    ("finished the\nreport, clock it", "finished the report"),
    # Keywords only count with a value: these are actions.
    ("clock: kind of tired", "kind of tired"),
    ("clock: mode of transport was the bus", "mode of transport was the bus"),
    ("clock: link the PR to the issue", "link the PR to the issue"),
    ("clock: home safe", "home safe"),
    ("clock: it broke", "it broke"),
    # Several clocked actions are joined.
    ("clock: paid invoice\nclock it: called mom", "paid invoice; called mom"),
    ("clock: paid invoice\nthen lunch, clock it", "paid invoice; then lunch"),
]


@pytest.mark.parametrize(("text", "expected"), CLOCK_IT_CASES)
def test_clock_it(text: str, expected: str) -> None:
    result = parse_directives(text)
    assert result == Directives(clock_it=expected)
    assert result.any


# --------------------------------------------------------------------------- keywords

KEYWORD_CASES = [
    ("clock: kind project", Directives(kind="project")),
    ("clock: kind Conversation", Directives(kind="conversation")),
    ("CLOCK: KIND SCHEDULING", Directives(kind="scheduling")),
    ("clock: kind: operations.", Directives(kind="operations")),
    ("clock: thread kind project", Directives(kind="project")),
    ("clock: kind project please", Directives(kind="project")),
    ("clock it: kind project", Directives(kind="project")),
    ("clock: tz Asia/Tokyo", Directives(thread_tz="Asia/Tokyo")),
    ("clock: tz asia/tokyo", Directives(thread_tz="Asia/Tokyo")),
    ("clock: TZ america/new york", Directives(thread_tz="America/New_York")),
    ("clock: timezone Europe/Berlin.", Directives(thread_tz="Europe/Berlin")),
    ("clock: time zone Europe/Berlin", Directives(thread_tz="Europe/Berlin")),
    ("clock: tz = 'Europe/Berlin'", Directives(thread_tz="Europe/Berlin")),
    ("clock: tz Europe/Berlin please", Directives(thread_tz="Europe/Berlin")),
    ("clock: tz UTC", Directives(thread_tz="UTC")),
    ("clock: home tz America/Sao_Paulo", Directives(home_tz="America/Sao_Paulo")),
    ("Clock: Home Timezone asia/kolkata", Directives(home_tz="Asia/Kolkata")),
    ("clock: mode off", Directives(mode="off")),
    ("clock: mode Light", Directives(mode="light")),
    ("clock: mode normal!", Directives(mode="normal")),
    ("clock: link", Directives(link=True)),
    ("clock: link please", Directives(link=True)),
    ("clock: link abc123", Directives(link=True, link_code="ABC123")),
    ("clock: link ABC-123", Directives(link=True, link_code="ABC123")),
    ("clock: link abc 123", Directives(link=True, link_code="ABC123")),
    ("clock: link K7QX", Directives(link=True, link_code="K7QX")),
    ("clock: unlink", Directives(unlink=True)),
    ("clock: unlink telegram", Directives(unlink=True)),
    (
        "hi!\n  clock: tz Europe/Berlin\nclock: mode normal\nclock: kind project\nthanks",
        Directives(thread_tz="Europe/Berlin", mode="normal", kind="project"),
    ),
    # Repeated settings: the last one wins.
    ("clock: mode off\nclock: mode light", Directives(mode="light")),
    (
        "clock: home tz Asia/Tokyo\nclock: tz Europe/Paris",
        Directives(home_tz="Asia/Tokyo", thread_tz="Europe/Paris"),
    ),
    (
        "clock: tz Europe/Paris\nheading to the airport, clock it",
        Directives(thread_tz="Europe/Paris", clock_it="heading to the airport"),
    ),
]


@pytest.mark.parametrize(("text", "expected"), KEYWORD_CASES)
def test_keywords(text: str, expected: Directives) -> None:
    result = parse_directives(text)
    assert result == expected
    assert result.any


# --------------------------------------------------------------------------- errors

ERROR_CASES = [
    # text, phrases the one error must contain
    ("clock: tz EST", ('"EST"', "America/New_York", "America/Toronto", "IANA")),
    ("clock: tz IST", ('"IST"', "Asia/Kolkata", "Europe/Dublin")),
    ("clock: tz Tokio", ('"Tokio"', "Asia/Tokyo")),
    ("clock: home tz tokyo", ('"tokyo"', "Asia/Tokyo", "clock: home tz Asia/Tokyo")),
    ("clock: tz Narnia", ('"Narnia"', "IANA id")),
    ("clock: tz UTC+9", ('"UTC+9"', "fixed offset")),
    ("clock: tz", ("needs a zone",)),
    ("clock: home tz", ("clock: home tz needs a zone",)),
    ("clock: tz " + "x" * 100, ("not a timezone",)),
    ("clock: kind banana", ('"banana"', "project, conversation, scheduling or operations")),
    ("clock: kind", ("needs a thread kind",)),
    ("clock: mode loud", ('"loud"', "off, light or normal")),
    ("clock: mode", ("needs a mode",)),
    ("clock: link ab", ("link code",)),
    ("clock: link abc$123", ("link code",)),
    ("clock:", ("nothing to clock",)),
    ("clock it:   ", ("nothing to clock",)),
    ("clock it", ("nothing to clock",)),
    ("clock it!", ("nothing to clock",)),
    ("..., clock it", ("nothing to clock",)),
]


@pytest.mark.parametrize(("text", "phrases"), ERROR_CASES)
def test_errors(text: str, phrases: tuple[str, ...]) -> None:
    result = parse_directives(text)
    assert len(result.errors) == 1
    for phrase in phrases:
        assert phrase.lower() in result.errors[0].lower()
    assert result.any
    assert result.thread_tz is None
    assert result.home_tz is None
    assert result.kind is None
    assert result.mode is None
    assert result.clock_it is None


def test_errors_do_not_stop_other_directives() -> None:
    result = parse_directives("clock: tz EST\nclock: kind project\nclock: mode loud")
    assert result.kind == "project"
    assert result.thread_tz is None
    assert len(result.errors) == 2


def test_abbreviation_is_never_mapped() -> None:
    result = parse_directives("clock: home tz PST")
    assert result.home_tz is None
    assert "America/Los_Angeles" in result.errors[0]


# --------------------------------------------------------------------------- not directives

NOT_DIRECTIVES = [
    "what time is it o'clock",
    "it's 5 o'clock",
    "the clock is broken",
    "clockwise please",
    "Clockwork Orange is a film",
    "my clock: it broke",
    "see https://example.com/clock: it",
    "clock://example",
    "clock:30",
    "did you clock it",
    "I have no idea how to clock it",
    "should I clock it?",
    "clock it?",
    "can you clock: it?",
    "clock: what time is it?",
    "clock it: should I go?",
    "> clock: tz Asia/Tokyo",
    "- clock: paid invoice",
    "a clock it",
    "",
    "   \n\t",
]


@pytest.mark.parametrize("text", NOT_DIRECTIVES)
def test_not_directives(text: str) -> None:
    result = parse_directives(text)
    assert result == Directives()
    assert not result.any


# --------------------------------------------------------------------------- truncation


def test_long_clock_it_is_cut_at_a_word_boundary() -> None:
    words = " ".join(f"word{i}" for i in range(100))
    result = parse_directives(f"clock: {words}")
    assert result.clock_it is not None
    assert len(result.clock_it) <= MAX_CLOCK_IT_CHARS
    assert result.clock_it.endswith("…")
    kept = result.clock_it.removesuffix("…")
    assert words.startswith(kept + " ")


TRUNCATE_CASES = [
    # text, limit, expected
    ("short", 10, "short"),
    ("exactly10!", 10, "exactly10!"),
    ("one two three four", 10, "one two…"),
    ("one two, three four", 9, "one two…"),
    ("abcdefghijkl", 5, "abcd…"),
    ("", 5, ""),
]


@pytest.mark.parametrize(("text", "limit", "expected"), TRUNCATE_CASES)
def test_truncate_words(text: str, limit: int, expected: str) -> None:
    assert truncate_words(text, limit) == expected


# --------------------------------------------------------------------------- any

ANY_CASES = [
    (Directives(), False),
    (Directives(clock_it="x"), True),
    (Directives(kind="project"), True),
    (Directives(thread_tz="UTC"), True),
    (Directives(home_tz="UTC"), True),
    (Directives(mode="off"), True),
    (Directives(link=True), True),
    (Directives(link_code="ABC123"), True),
    (Directives(unlink=True), True),
    (Directives(errors=("bad",)), True),
]


@pytest.mark.parametrize(("directives", "expected"), ANY_CASES)
def test_any(directives: Directives, expected: bool) -> None:
    assert directives.any is expected


# --------------------------------------------------------------------------- properties

_PIECES = st.sampled_from(
    [
        "clock",
        "clock it",
        "clock:",
        "clock it:",
        " tz ",
        " home tz ",
        " kind ",
        " mode ",
        " link ",
        " unlink",
        "Asia/Tokyo",
        "EST",
        "\n",
        ", ",
        "—",
        "!",
        "?",
        " ",
    ]
)
_TEXT = st.one_of(st.text(), st.lists(st.one_of(_PIECES, st.text(max_size=5))).map("".join))


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_parse_directives_never_raises(text: str) -> None:
    result = parse_directives(text)
    if result.clock_it is not None:
        assert result.clock_it.strip()
        assert len(result.clock_it) <= MAX_CLOCK_IT_CHARS
    assert all(isinstance(error, str) and error for error in result.errors)
    assert result.any == (result != Directives())


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("clock: tz Asia/Tokyo", ""),
        ("ok\nclock: kind project\nsee you at 9", "ok\nsee you at 9"),
        ("no directives here", "no directives here"),
    ],
)
def test_rest_is_the_message_without_directive_lines(text: str, rest: str) -> None:
    assert parse_directives(text).rest == rest
