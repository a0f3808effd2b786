"""A repeat rule said in words, never as its RRULE (issue 61: nothing shown is written for a machine)."""

from __future__ import annotations

import pytest
from babel.dates import get_day_names
from hypothesis import given
from hypothesis import strategies as st

from clockcore.speech.spoken import SPOKEN_LANGUAGES
from clockcore.speech.spoken_rules import say_rule

CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


@pytest.mark.parametrize(
    ("rule", "language", "said"),
    [
        ("FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=19;BYMINUTE=0;BYSECOND=0", "en",
         "every Tuesday and Thursday at 19:00"),
        ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=30", "de",
         "montags bis freitags um 07:30"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0", "es",
         "cada dos semanas el viernes a las 09:00"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "fr", "le dernier vendredi de chaque mois"),
        ("FREQ=MONTHLY;BYDAY=+1MO;BYHOUR=9;BYMINUTE=0", "en",
         "on the first Monday of every month at 09:00"),
        ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=5;BYHOUR=9;BYMINUTE=0", "pt",
         "todo ano em 5 de março às 09:00"),
        ("FREQ=DAILY;COUNT=10;BYHOUR=22;BYMINUTE=0", "nl", "elke dag om 22:00, 10 keer"),
        ("FREQ=HOURLY;INTERVAL=3", "it", "ogni 3 ore"),
        ("FREQ=SECONDLY", "en", "repeating"),
    ],
)  # fmt: skip
def test_rules_people_set_are_said_in_their_words(rule: str, language: str, said: str) -> None:
    assert say_rule(rule, language) == said


@st.composite
def rules(draw: st.DrawFn) -> tuple[str, list[str], int | None]:
    freq = draw(st.sampled_from(["DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY", "MINUTELY"]))
    parts = [f"FREQ={freq}"]
    if draw(st.booleans()):
        parts.append(f"INTERVAL={draw(st.integers(1, 30))}")
    days: list[str] = []
    if freq == "WEEKLY":
        days = draw(st.lists(st.sampled_from(CODES), min_size=1, max_size=7, unique=True))
        parts.append("BYDAY=" + ",".join(days))
    if freq == "MONTHLY" and draw(st.booleans()):
        parts.append(f"BYMONTHDAY={draw(st.integers(1, 31))}")
    if freq == "YEARLY":
        parts += [f"BYMONTH={draw(st.integers(1, 12))}", f"BYMONTHDAY={draw(st.integers(1, 28))}"]
    hour = draw(st.none() | st.integers(0, 23))
    if hour is not None:
        parts += [f"BYHOUR={hour}", f"BYMINUTE={draw(st.integers(0, 59))}", "BYSECOND=0"]
    if draw(st.booleans()):
        parts.append(f"COUNT={draw(st.integers(1, 99))}")
    return ";".join(draw(st.permutations(parts))), days, hour


@given(rule=rules(), language=st.sampled_from(sorted(SPOKEN_LANGUAGES)))
def test_no_rule_is_shown_as_its_rrule(
    rule: tuple[str, list[str], int | None], language: str
) -> None:
    text, days, hour = rule
    said = say_rule(text, language)
    assert not any(word in said for word in ("FREQ", "BYDAY", "BYHOUR", "=", ";")), said
    if hour is not None and "HOURLY" not in text and "MINUTELY" not in text:
        assert f"{hour:02d}:" in said, said
    names = get_day_names("wide", "format", locale=language)
    step = dict(part.split("=") for part in text.split(";")).get("INTERVAL", "1")
    if days and not (sorted(days, key=CODES.index) == list(CODES[:5]) and step == "1"):
        assert all(names[CODES.index(day)] in said for day in days), said
