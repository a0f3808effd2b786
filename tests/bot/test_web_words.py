"""The web pages' catalog (``web.po``) is held to the chat catalog's rules, and a page's
language is chosen as docs/languages.md says: the person's own, their browser's, else English.

The pages themselves in German and French: tests/bot/test_web.py.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from babel.messages.catalog import Message
from babel.messages.extract import extract_from_dir

from bot.catalog import LANGUAGES, catalog
from bot.web.words import WEB_DOMAIN, browser_language, day_label, page_language, when, words

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = {m.id: m for m in catalog("en", WEB_DOMAIN) if m.id}
OTHERS = sorted(LANGUAGES - {"en"})
_FIELD = re.compile(r"%\((\w+)\)[sd]")
_TAG = re.compile(r"<[^>]+>")

SAME_WORD: dict[str, frozenset[str]] = {}
"""Per language, messages it may word as English does, each with its reason. None yet."""


def _forms(message: Message) -> list[str]:
    """A message's texts: one, or a plural's every form."""
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return [str(s) for s in strings]


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple) else [str(message.id)]


def _shape(text: str) -> tuple[Counter[str], Counter[str]]:
    """What a translation must keep: its ``%(name)s`` fields and its HTML tags."""
    return Counter(_FIELD.findall(text)), Counter(_TAG.findall(text))


def test_the_web_catalogs_hold_the_same_messages() -> None:
    assert len(ENGLISH) > 80
    for language in LANGUAGES:
        assert {m.id for m in catalog(language, WEB_DOMAIN) if m.id} == set(ENGLISH), language


@pytest.mark.parametrize("language", OTHERS)
def test_every_web_message_is_translated_with_the_english_fields_and_tags(language: str) -> None:
    for msgid, english in ENGLISH.items():
        message = catalog(language, WEB_DOMAIN).get(msgid)
        assert message is not None, f"{language}: missing {msgid!r}"
        forms, ids = _forms(message), _ids(english)
        expected = catalog(language, WEB_DOMAIN).num_plurals if len(ids) > 1 else 1
        assert len(forms) == expected and all(forms), f"{language}: untranslated {msgid!r}"
        for index, form in enumerate(forms):
            source = ids[min(index, len(ids) - 1)]  # a plural's forms past the first: as "other"
            assert _shape(form) == _shape(source), f"{language}: {form!r} for {source!r}"
            if msgid not in SAME_WORD.get(language, frozenset()):
                assert form != source, f"{language} left in English: {source!r}"


def test_the_english_catalog_says_its_ids() -> None:
    for message in ENGLISH.values():
        assert _forms(message) == _ids(message), message.id


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_web_message_renders(language: str) -> None:
    said = words(language)
    for message in ENGLISH.values():
        for count, source in enumerate(_ids(message), start=1):
            values = dict.fromkeys(_FIELD.findall(source), 3)
            shown = (
                said.ngettext(*message.id, count) if isinstance(message.id, tuple)
                else said.gettext(source)
            ) % values  # fmt: skip
            assert "%(" not in shown and shown.strip(), f"{language}: {source!r} -> {shown!r}"
            if language != "en" and not isinstance(message.id, tuple):
                assert shown != source % values, f"{language} not read: {source!r}"


def _used() -> set[str | tuple[str, str]]:
    """The message ids of the pages: ``gettext``/``ngettext`` in bot/web, ``_``/``trans`` in
    its templates, read with Babel's extractors (Jinja2's for the templates)."""
    found: set[str | tuple[str, str]] = set()
    for _, _, msgid, _, _ in extract_from_dir(
        ROOT / "bot" / "web",
        method_map=[("**.py", "python"), ("**.html", "jinja2.ext:babel_extract")],
        options_map={"**.html": {"trimmed": "true", "extensions": "jinja2.ext.i18n"}},
        comment_tags=(),
    ):
        found.add(msgid if isinstance(msgid, str) else (msgid[0], msgid[1]))
    return found


def test_every_word_on_the_pages_is_in_the_catalogs_and_none_is_left_over() -> None:
    used, known = _used(), set(ENGLISH)
    assert used - known == set(), "on the pages, missing from web.po"
    assert known - used == set(), "in web.po, on no page"


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("de-AT,de;q=0.9,en;q=0.5", "de"),
        ("ja, fr;q=0.2, *;q=0.1", "fr"),
        ("en-US;q=0, pt-BR", "pt"),
        ("NL", "nl"),
        ("es;q=0.4, it;q=0.8", "it"),
        ("ja, zh-CN", None),
        ("de;q=x", None),  # an unreadable weight counts as refused
        ("", None),
        (None, None),
    ],
)
def test_the_browsers_language_is_negotiated_among_ours(
    header: str | None, language: str | None
) -> None:
    assert browser_language(header) == language


def test_the_persons_own_language_wins_over_the_browsers() -> None:
    german = "erinnere mich morgen um 9 Uhr an den Zahnarzt\nwie spät ist es in Tokio"
    assert page_language("fr-FR,fr", german) == "de"
    assert page_language("fr-FR,fr", "dashboard") == "fr"  # nothing clear: the browser
    assert page_language("ja", "dashboard") == "en"
    assert page_language(None) == "en"


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "Wed, 2 Dec 2026, 18:05"),
        ("de", "Mi., 2. Dez. 2026, 18:05"),
        ("fr", "mer. 2 déc. 2026, 18:05"),
        ("es", "mié, 2 dic 2026, 18:05"),
    ],
)
def test_dates_name_their_day_and_month_in_the_language_and_times_stay_24_hour(
    language: str, shown: str
) -> None:
    at = datetime(2026, 12, 2, 9, 5, tzinfo=UTC)
    assert when(at, ZoneInfo("Asia/Tokyo"), language) == shown


def test_a_timeline_day_is_today_or_yesterday_in_the_language() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    local = datetime(2026, 12, 2, 9, 5, tzinfo=tokyo)
    assert day_label(local, date(2026, 12, 2), "de") == "Heute, Mi., 2. Dez."
    assert day_label(local, date(2026, 12, 3), "fr") == "Hier, mer. 2 déc."
    assert day_label(local, date(2026, 12, 9), "en") == "Wed, 2 Dec 2026"
