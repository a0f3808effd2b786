"""Written dates outside the grammar ("8. März 2026"), read by dateparser.

dateparser gives a wall-clock date and which parts the text named; the
anchoring (zone, whole day, DST gaps, no abbreviations) stays clockcore's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from clockcore.geo.anchoring import FLOATING_QUESTION, NotATime, day_start, point, result
from clockcore.geo.zonetext import Anchor
from clockcore.parse_result import ParseResult
from clockcore.parsing.clockforms import impossible_hour
from clockcore.parsing.cues import MOST_NUMBERS
from clockcore.questions import Asking
from clockcore.reading import leftover, number_order
from clockcore.reading.bare_numbers import no_number_is_a_time

__all__ = ["library_fallback"]


_FALLBACK_MAX = 200


@lru_cache(maxsize=1)
def _fallback_parser():  # type: ignore[no-untyped-def]  # dateparser's types are partial
    import dateparser.utils
    from dateparser.date import DateDataParser

    # dateparser configures logging the first time it logs, when the root logger has no
    # handler (the console): `dictConfig` with `disable_existing_loggers`, which switched
    # off every logger made before it and printed its own DEBUG lines to stdout. Logging
    # is the application's to configure (docs/ARCHITECTURE.md: clockcore does no I/O).
    setattr(dateparser.utils, "setup_logging", _leave_logging_alone)  # noqa: B010

    # Only the languages clockbot reads: left to guess among all of dateparser's ~200
    # locales, the first read compiled their patterns for 8-30 s (docs/SECURITY.md).
    return DateDataParser(
        languages=list(_LANGUAGES),
        settings={"PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False},
    )


def _leave_logging_alone() -> None:
    """Stands in for dateparser's `setup_logging`: configures nothing."""


_LANGUAGES = ("en", "de", "es", "fr", "it", "pt", "nl", "ja", "zh")
"""The seven languages clockbot reads, and the CJK year-month-day dates written anywhere."""


UNREAD_NUMBER_QUESTION = Asking(
    "unread_number",
    "I can read a day in {text!r}, but not what the {number} in it means. "
    "Could you write the time as, say, 'tomorrow at 9:00'?",
)


def _unread_number(text: str, found: datetime) -> str | None:
    """A number in `text` that dateparser did not use: without it, the same date comes back."""
    parser = _fallback_parser()
    for match in re.finditer(r"\d+", text):
        number = match.group()
        if len(number) == 4 and int(number) == found.year:
            continue  # a year that matches the default year changes nothing when dropped
        blanked = text[: match.start()] + " " * len(number) + text[match.end() :]
        try:
            again = parser.get_date_data(blanked)["date_obj"]
        except (ValueError, OverflowError, LookupError, TypeError):
            continue
        if again is not None and again.date() == found.date():
            return number
    return None


_SHIFT = timedelta(hours=3, minutes=17)
# Words that say which way an amount of time runs, or name a day: "2 days ago", "hace
# una hora", "in 3 Tagen", "yesterday". Without one, "3 min" or "16u" is no time.
_DIRECTED = re.compile(
    r"[+-]|\b(?:now|jetzt|maintenant|ahora|agora|nu|ago|in|im|en|entro|from\s+now|later|before|after|earlier|hence|dans|il\s+y\s*a|depuis|hace|"
    r"dentro|vor|seit|nach|sp[äa]ter|fr[üu]her|h[áa]|faz|daqui|em|atr[áa]s|fa|tra|fra|dopo|"
    r"geleden|over|binnen|later|terug|yesterday|tomorrow|today|hier|demain|aujourd|ayer|"
    r"mañana|manana|hoy|gestern|morgen|heute|ontem|amanh[ãa]|hoje|ieri|domani|oggi|gisteren|"
    r"vandaag|next|last|prochain|dernier|pr[óo]xim|pasad|n[äa]chst|letzt|scors|prossim|"
    r"volgend|vorig)",
    re.IGNORECASE,
)


def _counted_from_now(parser, text: str, reference: datetime, found: datetime) -> bool:  # type: ignore[no-untyped-def]
    """Whether dateparser read `text` as an amount from now ("16u", "3 min", "il ya deux heures").

    Read from a "now" 3h17m later, such a reading moves by exactly as much; a
    written date or clock time does not. An amount without "in" or "ago" is no
    reminder time: "the call takes 15 min" (docs/time-rules.md).
    """
    parser._settings.RELATIVE_BASE = reference + _SHIFT
    try:
        again = parser.get_date_data(text)["date_obj"]
    except (ValueError, OverflowError, LookupError, TypeError):
        return False
    finally:
        parser._settings.RELATIVE_BASE = reference
    return again is not None and again - found == _SHIFT


def _written_in_capitals(text: str, zone: object) -> bool:
    """Whether the zone abbreviation dateparser took out of `text` is written as one (IST)."""
    name = zone if isinstance(zone, str) else getattr(zone, "tzname", lambda _: None)(None)
    if not name:
        return True
    return re.search(rf"(?<![\w]){re.escape(str(name).upper())}(?![\w])", text) is not None


# A number after a word for "at": an hour, never a day ("à 9", "a 9", "às 9", "um 9").
_AT_NUMBER = re.compile(
    r"(?<![^\W_])(?:a|à|as|às|a\s+las?|alle|um|om|at|pelas)\s+(?P<number>\d{1,2})(?![\d/.-]\d)",
    re.IGNORECASE,
)
_DAY_NAMED = leftover.phrases("WEEKDAYS", "MONTHS", "DAY_WORDS", "LOOSE")
_DATE_SHAPE = re.compile(r"\d\s*[./-]\s*\d|\d{4}")


def _hour_as_day(text: str, found: datetime) -> bool:
    """Whether dateparser made the day of the month out of an hour after "at": it read
    "à 9" as 9 January. A day the words name otherwise (a month, a weekday, "tomorrow",
    a written date) stands."""
    if not any(int(m["number"]) == found.day for m in _AT_NUMBER.finditer(text)):
        return False
    low = leftover.folded(text)
    return _DAY_NAMED.search(low) is None and _DATE_SHAPE.search(low) is None


def library_fallback(
    text: str, anchor: Anchor | None, reference: datetime, day_first: bool | None = None
) -> ParseResult | None:
    """Written dates outside the grammar ("8. März 2026"), read by dateparser, anchored here.

    dateparser reads "3.1." in Dutch month first: a reading that does not keep a numeric
    date's numbers in the person's order (`day_first`) is none (`number_order.keeps_numbers`).
    """
    from dateparser.timezone_parser import pop_tz_offset_from_string

    if len(text) > _FALLBACK_MAX or not re.search(r"\d|[^\x00-\x7f]", text):
        return None
    if re.search(r"\d", text) and no_number_is_a_time(text):
        return None  # "1 $1" is no 1 January: a number is a time only with a cue
    if len(re.findall(r"\d+", text)) > MOST_NUMBERS:  # each is read again without it
        return None
    if (late := impossible_hour(text)) is not None:  # dateparser reads "à 25h" as 11:00
        raise NotATime(f"{late!r} is not a time: hours run 00–23")
    stripped, named_zone = pop_tz_offset_from_string(text)
    if named_zone is not None and not _written_in_capitals(text, named_zone):
        # "er ist 45", "c'est 12", "kost € 4,50": a word, not IST, EST, KOST.
        stripped, named_zone = text, None
    if named_zone is not None:
        named = named_zone if isinstance(named_zone, str) else named_zone.tzname(None)
        return result(
            "floating",
            needs_clarification=True,
            matched_text=text.strip(),
            clarification_question=f"Which timezone do you mean by {named}? "
            "Name a city or an IANA zone such as Europe/Berlin.",
        )
    tz = anchor.tz if anchor is not None else UTC
    local_reference = reference.astimezone(tz).replace(tzinfo=None)
    parser = _fallback_parser()
    parser._settings.RELATIVE_BASE = local_reference
    try:
        data = parser.get_date_data(stripped)
    except (ValueError, OverflowError, LookupError, TypeError) as exc:
        raise NotATime("unreadable date") from exc
    found = data["date_obj"]
    parts = data["parts"] or ()
    if found is None or "day" not in parts or "month" not in parts:
        return None
    if not re.search(r"\d", text) and not leftover.time_like_parts(text):
        return None  # "à à" read as 1 January: no number, and no word of a day or a month
    if not number_order.keeps_numbers(text, (0, len(text)), (found.day, found.month), day_first):
        return None
    if _hour_as_day(text, found):
        return None
    if not _DIRECTED.search(stripped) and _counted_from_now(
        parser, stripped, local_reference, found
    ):
        return None
    base: dict[str, object] = {"matched_text": text.strip()}
    if anchor is None:
        return result(
            "floating",
            needs_clarification=True,
            **base,
            question=FLOATING_QUESTION.ask(what=text.strip()),
        )
    base |= {"zone": anchor.label, "zone_source": anchor.source}
    if "time" not in parts and (unread := _unread_number(text, found)) is not None:
        # "mañana a las 9": dateparser reads tomorrow and drops the 9. Ask, never guess the day.
        return result(
            "absolute",
            needs_clarification=True,
            **base,
            question=UNREAD_NUMBER_QUESTION.ask(number=unread, text=text.strip()),
        )
    if "time" in parts:
        return point(found.replace(tzinfo=None, microsecond=0), tz, anchor, base, "absolute")
    day = found.date()
    start, end = day_start(day, tz), day_start(day + timedelta(days=1), tz)
    return result("absolute", start_instant=start, end_instant=end, **base)
