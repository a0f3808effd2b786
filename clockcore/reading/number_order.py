"""Which number of a numeric date is the day: the person's language and zone decide.

docs/time-rules.md, "Numbers follow the person's language": day first in German,
Spanish, French, Portuguese, Italian and Dutch, and in English outside the
United States; month first in English in a US zone; unknown (a question when
both numbers are 12 or less) in English without a zone, or in a zone of no
country (UTC).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

__all__ = ["day_first", "keeps_numbers"]

_DAY_FIRST_LANGUAGES = frozenset({"de", "es", "fr", "pt", "it", "nl"})


def day_first(language: str, zone: str | None) -> bool | None:
    """True: "3/4" is 3 April; False: 4 March; None: ask.

    Args:
        language: the person's language (ISO 639-1), the first they are read in.
        zone: the anchoring zone's IANA id, or None when none is known.
    """
    if language in _DAY_FIRST_LANGUAGES:
        return True
    if language != "en" or zone is None:
        return None
    if zone.startswith("US/") or zone in _us_zones():
        return False
    return True if zone in _country_zones() else None


_NUMERIC_DATE = re.compile(
    r"(?<![\d.:])(?P<a>\d{1,2})"
    r"(?:/(?P<b>\d{1,2})(?:/\d{2,4})?(?![\d:])"  # "3/1", "3/1/2027"
    r"|\.(?P<c>\d{1,2})\.(?:\d{2,4}(?!\d))?"  # "3.1.", "3.1.2027": a time "9.30" has no last dot
    r"|-(?P<d>\d{1,2})-\d{2,4}(?!\d))"  # "3-1-2027": "9-10" alone is a range
)
"""Numeric dates whose order a reading must keep; both numbers 12 or less (else the order
is plain, and every reader keeps it)."""


def keeps_numbers(
    text: str, span: tuple[int, int], day_month: tuple[int, int], day_first: bool | None
) -> bool:
    """Whether a reading of `text[span]` as (day, month) `day_month` keeps the numbers of
    each numeric date ("3.1.", "3/1", "3-1-2027") it overlaps, in the person's order
    (`day_first`; either order where it is not known). A reading that does not is no
    reading of that text: another reader's order or a piece of the date ("1." of "3.1.")
    read alone.
    """
    start, end = span
    for shape in _NUMERIC_DATE.finditer(text):
        if shape.end() <= start or end <= shape.start():
            continue
        a, b = int(shape["a"]), int(shape["b"] or shape["c"] or shape["d"])
        if a > 12 or b > 12:
            continue
        orders = {(a, b), (b, a)} if day_first is None else {(a, b) if day_first else (b, a)}
        meant = {(day, month) for day, month in orders if 1 <= day <= 31 and 1 <= month <= 12}
        if meant and day_month not in meant:
            return False
    return True


@lru_cache(maxsize=1)
def _zone_table() -> list[tuple[str, str]]:
    """(country code, zone id) rows of tzdata's zone.tab."""
    text = resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    return [(row[0], row[2]) for row in rows if len(row) >= 3]


@lru_cache(maxsize=1)
def _us_zones() -> frozenset[str]:
    return frozenset(zone for country, zone in _zone_table() if country == "US")


@lru_cache(maxsize=1)
def _country_zones() -> frozenset[str]:
    return frozenset(zone for _, zone in _zone_table())
