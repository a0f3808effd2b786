"""The reader's questions are values: a kind, what it asks with, and its English (issue 61)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from clockcore import parse_anchored_time
from clockcore.questions import Asking

NOW = datetime(2026, 12, 2, 4, tzinfo=UTC)  # Wednesday 2 December, 05:00 in Berlin


@pytest.mark.parametrize(
    ("text", "zone", "kind", "values"),
    [
        ("9/5 at 10", "UTC", "day_or_month", {"written": "9/5", "a": 9, "b": 5}),
        ("9am EST", "UTC", "abbreviation", {"shown": "EST"}),
        ("9am UTC+15", "UTC", "offset", {"shown": "UTC+15"}),
        ("28/05/83", "Europe/Berlin", "which_century", {"first": 1983, "second": 2083}),
        ("28 March 2027 at 2:30", "Europe/Berlin", "clocks_skip", {"wall": "02:30"}),
        ("31 October 2027 at 2:30", "Europe/Berlin", "clocks_back", {"wall": "02:30"}),
        ("9am Portland time", "UTC", "place_which", {"place": "Portland"}),
        ("Fri Dec 3", "Europe/Berlin", "conflict", {"date": date(2026, 12, 3)}),
    ],
)
def test_a_question_carries_its_kind_and_values_and_its_english_is_the_clarification(
    text: str, zone: str, kind: str, values: dict[str, object]
) -> None:
    found = parse_anchored_time(text, zone, NOW, language="en")
    assert found.needs_clarification and found.question is not None, found
    assert found.question.kind == kind, found.question
    assert values.items() <= dict(found.question.values).items(), found.question
    assert found.clarification_question == found.question.english


def test_a_clocks_question_offers_its_instants_as_candidates() -> None:
    found = parse_anchored_time("28 March 2027 at 2:30", "Europe/Berlin", NOW, language="en")
    assert found.question is not None and len(found.candidates) == 2
    assert "Did you mean 2027-03-28T01:30:00+01:00 or" in found.question.english


def test_a_question_said_again_with_other_values_keeps_its_kind() -> None:
    asking = Asking("weak_cue", "Do you mean {text!r} as a time?")
    question = asking.ask(text="10")
    assert question.english == asking.format(text="10") == "Do you mean '10' as a time?"
    again = question.with_values(text="11")
    assert (again.kind, again.english) == ("weak_cue", "Do you mean '11' as a time?")
