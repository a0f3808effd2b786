"""Which number of a numeric date is the day: the person's language and zone decide.

docs/time-rules.md, "Numbers follow the person's language": day first in German,
Spanish, French, Portuguese, Italian and Dutch, and in English outside the
United States; month first in English in a US zone; unknown (a question when
both numbers are 12 or less) in English without a zone, or in a zone of no
country (UTC).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

__all__ = ["day_first"]

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
