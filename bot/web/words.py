"""The web pages' words and dates in the person's language (docs/languages.md, "The web pages").

The pages' words are gettext messages of their own domain, ``web``
(``bot/locale/<language>/LC_MESSAGES/web.po``), so they never collide with
what the chat says (``clockbot.po``). A catalog is read with Babel
(`bot.catalog.catalog`), compiled in memory to a `babel.support.Translations`
once a process, and handed to Jinja2's i18n extension; the Python side of the
pages calls the same object's ``gettext``/``ngettext``. Placeholders are
``%(name)s``, as Jinja2's ``{% trans %}`` writes them.

Which language: the one the person writes to clockbot in, when their recent
messages say it clearly; else the browser's ``Accept-Language`` among the
seven; else English. Dates name their month and weekday in that language
(Babel's CLDR data); times stay 24-hour.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from functools import cache
from io import BytesIO

from babel.core import negotiate_locale
from babel.dates import format_skeleton, get_datetime_format
from babel.messages.mofile import write_mo
from babel.support import Translations

from bot.catalog import LANGUAGES, catalog
from clockcore import guess_language

__all__ = ["WEB_DOMAIN", "browser_language", "day", "day_label", "page_language", "when", "words"]

WEB_DOMAIN = "web"
_MOST_TAGS = 20
"""Language tags read from one Accept-Language header; a browser sends a handful."""


@cache
def words(language: str) -> Translations:
    """The web pages' messages in `language` (one of `LANGUAGES`), compiled once."""
    compiled = BytesIO()
    write_mo(compiled, catalog(language, WEB_DOMAIN))
    compiled.seek(0)
    return Translations(compiled, domain=WEB_DOMAIN)


def browser_language(accept_language: str | None) -> str | None:
    """The first of our languages the browser asks for (``de-AT,de;q=0.9,en;q=0.5``), or None."""
    if not accept_language:
        return None
    asked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:_MOST_TAGS]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and tag != "*" and weight > 0:
            asked.append((-weight, index, tag.strip()))
    preferred = [tag for _, _, tag in sorted(asked)]
    chosen = negotiate_locale(preferred, sorted(LANGUAGES), sep="-")
    return chosen.lower() if chosen else None


def page_language(accept_language: str | None, written: str = "") -> str:
    """The language to show the pages in: what the person writes in, the browser's, else English.

    Args:
        accept_language: the request's ``Accept-Language`` header.
        written: the person's recent messages, joined; "" for no session.
    """
    guessed = guess_language(written) if written else None
    if guessed in LANGUAGES:
        return guessed
    return browser_language(accept_language) or "en"


def _locale(language: str) -> str:
    # English dates put the day before the month, as the chat says them (`clockcore.speech.spoken`).
    return "en_GB" if language == "en" else language


def day(local: date | datetime, language: str, *, year: bool = True) -> str:
    """A local date with its weekday and month named: "Mi., 2. Dez. 2026", "Wed, 2 Dec"."""
    return format_skeleton("yMMMEd" if year else "MMMEd", local, locale=_locale(language))


def when(at: datetime, tz: tzinfo, language: str) -> str:
    """An instant as a local date and 24-hour time: "Mi., 2. Dez. 2026, 09:00"."""
    local = at.astimezone(tz)
    pattern = str(get_datetime_format("medium", locale=_locale(language))).replace("'", "")
    return pattern.format(f"{local:%H:%M}", day(local, language))


def day_label(local: datetime, today: date, language: str) -> str:
    """A timeline day's heading: today and yesterday by name, then the date."""
    said = words(language)
    if local.date() == today:
        return said.gettext("Today, %(day)s") % {"day": day(local, language, year=False)}
    if (today - local.date()).days == 1:
        return said.gettext("Yesterday, %(day)s") % {"day": day(local, language, year=False)}
    return day(local, language)
