"""Time words of the seven languages, one module per language, the same tables in each.

Each `words/<lang>.py` defines every name of `TABLES` as a tuple of words or
phrases, written as people write them (accents are folded when they are
compared). Adding a language is adding one such file and its name to
`LANGUAGES` (docs/time-rules.md, "Nothing time-like left over").
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

__all__ = ["LANGUAGES", "TABLES", "table", "tables"]

LANGUAGES = ("en", "es", "de", "fr", "pt", "it", "nl")

TABLES = (
    "AFTERNOON_WORDS",
    "APPROXIMATIONS",
    "CLOCK_WORDS",
    "DAY_ARTICLES",
    "DAY_WORDS",
    "EVENING_WORDS",
    "HOLIDAYS",
    "HOUR_WORDS",
    "LOOSE",
    "MEALS",
    "MONTHS",
    "MORNING_WORDS",
    "NEXT_WORDS",
    "NIGHT_WORDS",
    "NOT_DAYS",
    "PARTS_OF_DAY",
    "RANGE_WORDS",
    "START_WORDS",
    "THIS_WORDS",
    "TIME_PREPOSITIONS",
    "TONIGHT_WORDS",
    "WEEKDAYS",
    "WEEK_WORDS",
)
"""The tables every language's words file defines (each a tuple of str).

`HOLIDAYS` pairs a holiday's key with one of its names, "christmas_eve=heiligabend"
(`clockcore.reading.holiday_days` reads the keys).
"""


def tables(language: str) -> ModuleType:
    """The words module of `language` ("de" → `clockcore.reading.words.de`)."""
    if language not in LANGUAGES:
        raise KeyError(language)
    return import_module(f"clockcore.reading.words.{language}")


def table(name: str) -> tuple[str, ...]:
    """One table, every language's entries together, in `LANGUAGES` order."""
    found: list[str] = []
    for language in LANGUAGES:
        found += getattr(tables(language), name)
    return tuple(found)
