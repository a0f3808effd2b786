"""Holidays by name: "am Heiligabend", "à la Toussaint", "Thanksgiving" (docs/time-rules.md).

A holiday's name in the person's language (or English) maps to a key in the
words files (`HOLIDAYS`, `clockcore.reading.words`); the key's date comes from
the `holidays` library for the person's country, which is the country of their
IANA zone in the tz database's `zone.tab`. Christmas, Easter and the other
Christian feasts kept across Europe are read in any European zone, holiday there
or not, save where the church keeps the Julian calendar. An unknown country, or
a name that is no holiday where the person is, is a question: never a date
guessed from another country's calendar.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from functools import cache
from importlib import resources

from clockcore.geo.anchoring import asked, day_start, point, result
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing import weekdays
from clockcore.questions import Asking
from clockcore.reading import leftover, words

__all__ = ["HOLIDAY_QUESTION", "UNKNOWN_COUNTRY_QUESTION", "country_of", "holiday_date", "named"]

Reader = Callable[[str, datetime], ParseResult]
"""Reads a text (the message's length) as `parse_anchored_time` would, at a reference instant."""

HOLIDAY_QUESTION = Asking(
    "holiday",
    "I don't know a date for {name!r} where you are ({country}): which date do you mean?",
)
UNKNOWN_COUNTRY_QUESTION = Asking(
    "unknown_country",
    "Holidays differ between countries and I don't know yours: which date is {name!r}?",
)
TWO_DATES_QUESTION = Asking(
    "two_dates", "{name!r} is {day}, but the message also says {other!r}: which date is it?"
)

# Each key's names in the library's English (en_US) calendar, whatever the country.
_LIBRARY_NAMES = {
    "christmas_eve": r"Christmas Eve",
    "christmas": r"Christmas(?: Day)?",
    "boxing_day": r"Boxing Day|Second Day of Christmas|Saint Stephen's Day|St\. Stephen's Day",
    "new_years_eve": r"New Year's Eve",
    "new_year": r"New Year's Day|Universal Fraternization Day",
    "epiphany": r"Epiphany(?: Day)?",
    "good_friday": r"Good Friday",
    "easter_sunday": r"Easter(?: Sunday)?",
    "easter_monday": r"Easter Monday",
    "ascension": r"Ascension(?: Day)?",
    "whit_sunday": r"Pentecost(?: Sunday)?|Whit Sunday",
    "whit_monday": r"Pentecost Monday|Whit Monday",
    "corpus_christi": r"Corpus Christi",
    "assumption": r"Assumption(?: of Mary)?(?: Day)?",
    "all_saints": r"All Saints' Day",
    "kings_day": r"King's Day",
    "thanksgiving": r"Thanksgiving(?: Day)?",
    "independence_day": r"Independence Day",
    "labour_day": r"Labou?r Day|Workers?'?s? Day",
    "halloween": r"Halloween",
    "valentines_day": r"Valentine's Day",
    "mothers_day": r"Mother's Day",
    "fathers_day": r"Father's Day",
    "st_patricks_day": r"Saint Patrick's Day|St\. Patrick's Day",
    "memorial_day": r"Memorial Day",
    "mlk_day": r"Martin Luther King,? Jr\.? Day",
    "presidents_day": r"Washington's Birthday|Presidents'? Day",
    "veterans_day": r"Veterans Day",
    "columbus_day": r"Columbus Day",
    # Christian feasts that move with Easter (read in Europe through `_EuropeanFeasts`).
    "shrove_tuesday": r"Carnival(?: Tuesday)?|Shrove Tuesday|Mardi Gras",
    "ash_wednesday": r"Ash Wednesday",
    "palm_sunday": r"Palm Sunday",
    "maundy_thursday": r"Maundy Thursday|Holy Thursday",
    "holy_saturday": r"Holy Saturday",
    "trinity_sunday": r"Trinity Sunday",
    # Other calendars: read where the person's country's calendar in the library holds
    # them (an "(estimated)" day of the Islamic calendar is not: it is asked about).
    "rosh_hashanah": r"Rosh Hashanah",
    "yom_kippur": r"Yom Kippur",
    "sukkot": r"Sukkot",
    "simchat_torah": r"Simchat Torah(?: / Shemini Atzeret)?|Shemini Atzeret",
    "passover": r"Pesach|Passover",
    "shavuot": r"Shavuot",
    "hanukkah": r"Hanukkah|Chanukah",
    "purim": r"Purim",
    "eid_al_fitr": r"Eid al-Fitr(?: Holiday)?",
    "eid_al_adha": r"Eid al-Adha(?: Holiday)?",
    "islamic_new_year": r"Islamic New Year",
    "ashura": r"Ashura",
    "mawlid": r"Prophet(?: Muhammad)?'s Birthday",
    "isra_miraj": r"Isra' and Mi'raj",
    "laylat_al_qadr": r"Laylat al-Qadr",
    "diwali": r"Diwali|Deepavali",
    "holi": r"Holi",
    "dussehra": r"Dussehra|Vijayadashami",
    "janmashtami": r"Janmashtami.*",
    "maha_shivaratri": r"Maha Shivaratri",
    "ram_navami": r"Ram Navami",
    "mahavir_jayanti": r"Mahavira's Birthday|Mahavir Jayanti",
    "buddha_purnima": r"Buddha Purnima|Vesak(?: Day)?",
    "guru_nanak": r"Guru Nanak's Birthday",
    "chinese_new_year": r"Chinese New Year|Lunar New Year",
    "pongal": r"Pongal|Thai Pongal",
    "onam": r"Onam",
    "vaisakhi": r"Vaisakhi",
    "makar_sankranti": r"Makar Sankranti",
    "ganesh_chaturthi": r"Ganesh Chaturthi",
    "navaratri": r"Navaratri",
    "raksha_bandhan": r"Raksha Bandhan",
    "ugadi": r"Ugadi",
}


@cache
def _zone_countries() -> dict[str, str]:
    """IANA zone → ISO 3166 country, from the tz database's zone.tab (package tzdata)."""
    table = resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for line in table.splitlines():
        if line and not line.startswith("#"):
            country, _, zone, *_ = line.split("\t")
            found[zone] = country
    return found


# Zones outside "Europe/" whose country keeps Europe's feasts (the Atlantic islands).
_EUROPEAN_ELSEWHERE = frozenset({"Atlantic/Azores", "Atlantic/Madeira", "Atlantic/Canary",
                                 "Atlantic/Faroe", "Atlantic/Reykjavik"})  # fmt: skip


# European countries whose church keeps Easter (and some Christmas) on the Julian calendar:
# no Western date is guessed for them; only their own calendar in the library counts.
_ORTHODOX = frozenset({"BA", "BG", "BY", "CY", "GE", "GR", "MD", "ME", "MK", "RO", "RS", "RU",
                       "UA"})  # fmt: skip


def country_of(zone: str) -> str | None:
    """The country of an IANA zone ("Europe/Berlin" → "DE"), or None (UTC, offsets)."""
    return _zone_countries().get(zone)


def holiday_date(key: str, zone: str, today: date) -> date | None:
    """The next day, `today` included, that is holiday `key` where `zone` is; None if none."""
    # The library costs ~60 ms to import: it loads at the first holiday named, not at start.
    from clockcore.reading.holiday_calendar import country_days, feasts

    country = country_of(zone)
    pattern = re.compile(_LIBRARY_NAMES[key], re.IGNORECASE)
    for year in (today.year, today.year + 1):
        for day, names in country_days(country, year) if country else ():
            if day >= today and any(pattern.fullmatch(name) for name in names):
                return day
    if (zone.startswith("Europe/") or zone in _EUROPEAN_ELSEWHERE) and country not in _ORTHODOX:
        for year in (today.year, today.year + 1):
            for feast, name in feasts(year):
                if feast >= today and name == key:
                    return feast
    return None


# A year written right after the name: "Christmas 2014", "Ostern 2029", "Noël de 2027".
_YEAR_AFTER = re.compile(r"\s*+,?\s*+(?:(?:of|de|del|di|van)\s++)?(?P<year>(?:19|20)\d\d)(?!\d)")


@cache
def _names(languages: tuple[str, ...]) -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern for the holiday names of `languages` (folded), and each name's key."""
    keys: dict[str, str] = {}
    for language in languages:
        if language in words.LANGUAGES:
            for entry in words.tables(language).HOLIDAYS:
                key, name = entry.split("=", 1)
                keys.setdefault(leftover.folded(name), key)
    alternatives = "|".join(re.escape(n) for n in sorted(keys, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])"), keys


def named(
    text: str,
    caller: Anchor | None,
    reference: datetime,
    languages: tuple[str, ...],
    read: Reader,
) -> ParseResult | None:
    """The reading of a message that names a holiday, or None when it names none.

    The rest of the message is read with the name blanked, as if said when the
    holiday begins: nothing more is the holiday's whole day, a clock time is that
    time on the holiday, another date is a question.
    """
    pattern, keys = _names(languages)
    found = list(pattern.finditer(leftover.folded(text)))
    if not found:
        return None
    first = found[0]
    name = text[first.start() : first.end()]
    base: dict[str, object] = {"matched_text": name, "span": (first.start(), first.end())}
    if len({keys[m.group()] for m in found}) > 1:
        others = ", ".join(repr(text[m.start() : m.end()]) for m in found)
        return asked(base, f"The message names more than one holiday ({others}): which is it?")
    if caller is None or (
        country_of(caller.label) is None and not caller.label.startswith("Europe/")
    ):
        return asked(base, UNKNOWN_COUNTRY_QUESTION.ask(name=name))
    today = reference.astimezone(caller.tz).date()
    year = _YEAR_AFTER.match(leftover.folded(text), first.end())
    if year is not None:  # "Christmas 2014", "Yom Kippur 2018": that year's, not the next
        day = holiday_date(keys[first.group()], caller.label, date(int(year["year"]), 1, 1))
        if day is not None and day.year != int(year["year"]):
            day = None
    else:
        day = holiday_date(keys[first.group()], caller.label, today)
    if day is None:
        country = country_of(caller.label) or caller.label
        return asked(base, HOLIDAY_QUESTION.ask(name=name, country=country))
    blanked = text
    for match in (*found, *([year] if year is not None else [])):
        blanked = blanked[: match.start()] + " " * len(match.group()) + blanked[match.end() :]
    rest = read(blanked, day_start(day, caller.tz))  # "à 9h" on the day is its 09:00
    base |= {"zone": caller.label, "zone_source": caller.source}
    if rest.needs_clarification:
        return rest
    if rest.start_instant is None or rest.span is None:
        return result(
            "absolute", start_instant=day_start(day, caller.tz),
            end_instant=day_start(day + timedelta(days=1), caller.tz), **base,
        )  # fmt: skip
    start, end = rest.span
    if (
        rest.start_instant != rest.end_instant
        or weekdays.named_day_offset(blanked, start, end) is not None
        or weekdays.named_weekdays(blanked, start, end, languages)
        or weekdays.names_a_date(blanked[start:end])
    ):
        when = f"{day:%a} {day.day} {day:%b}"
        return asked(
            base,
            TWO_DATES_QUESTION.ask(name=name, day=when, other=rest.matched_text, date=day),
        )
    clock = rest.start_instant.astimezone(caller.tz).time().replace(tzinfo=None)
    if year is None and datetime.combine(day, clock, caller.tz) <= reference:  # next year's
        day = holiday_date(keys[first.group()], caller.label, day + timedelta(days=1)) or day
    span = (min(start, first.start()), max(end, first.end()))
    base |= {"span": span, "matched_text": text[span[0] : span[1]]}
    return point(datetime.combine(day, time(clock.hour, clock.minute)), caller.tz, caller, base,
                 "absolute")  # fmt: skip
