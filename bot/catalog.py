"""What clockbot says itself, from one gettext catalog per language (docs/languages.md).

The catalogs are ``bot/locale/<language>/LC_MESSAGES/clockbot.po`` (the web
pages have their own domain, ``web.po``: `bot.web.words`), shipped in
the package and read with Babel's `read_po` the first time a language is asked
for: no compiled ``.mo`` to build, so a fresh clone and ``pip install`` both work
as they are. A message's id is its English text, as gettext has it; the
English catalog holds the words shown. A language clockbot does not have is
answered in English; a message missing from a catalog is said in English too,
and the catalog test (tests/bot/test_catalog.py) fails on it.

    said("Set: {text}, {when}.", "de-AT", text="Brot", when="morgen, 09:00")
    -> "Erledigt: Brot, morgen, 09:00."
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from clockcore.message import primary_language
from clockcore.speech.spoken import SPOKEN_LANGUAGES

__all__ = ["DOMAIN", "LANGUAGES", "LOCALE_DIR", "Said", "catalog", "said", "said_raw", "texts"]

DOMAIN = "clockbot"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = SPOKEN_LANGUAGES
"""The languages with a catalog: the seven confirmations are said in (`clockcore.speech.spoken`)."""


@cache
def catalog(language: str, domain: str = DOMAIN) -> Catalog:
    """The catalog of `language` (one of `LANGUAGES`) in `domain` ("web": the pages'), read once."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
        return read_po(file, locale=language, domain=domain)


def _language(language: str | None) -> str:
    """The catalog to answer in: `language`'s primary subtag when we have it, else English."""
    primary = primary_language(language)
    return primary if primary in LANGUAGES else "en"


def said(msgid: str, language: str | None, /, **values: Any) -> str:
    """`msgid` in `language` ("es", "pt-BR"; None or another: English), `values` filled in."""
    return said_raw(msgid, language).format(**values)


def texts(msgid: str) -> frozenset[str]:
    """`msgid` as each language has it, unfilled: to recognise a question clockbot asked."""
    return frozenset(said_raw(msgid, language) for language in LANGUAGES)


def said_raw(msgid: str, language: str | None) -> str:
    """`msgid` in `language`, its fields not filled in."""
    message = catalog(_language(language)).get(msgid)
    return str(message.string) if message is not None and message.string else msgid


@dataclass(frozen=True, slots=True)
class Said:
    """A message clockbot says itself: a handle on its catalog entry, `msgid` its English."""

    msgid: str

    @property
    def en(self) -> str:
        """The English text, unfilled."""
        return said_raw(self.msgid, "en")

    def in_(self, language: str | None, **fields: Any) -> str:
        """The message in `language` ("es", "pt-BR"; None or another: English), `fields` filled."""
        return said(self.msgid, language, **fields)
