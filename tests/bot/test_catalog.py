"""Every message clockbot says itself is in each of the seven catalogs (docs/languages.md)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from bot.catalog import LANGUAGES, catalog, said

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = [m.id for m in catalog("en") if m.id]
OTHERS = sorted(LANGUAGES - {"en"})

SAME_WORD = frozenset[str]()
"""Messages a language may word as English does, each with its reason. None yet: a word
such as "OK" would go here, never a sentence."""


def _fields(text: str) -> set[str]:
    """The placeholders' names: "{size:,}" and "{size}" are one field, worded as each needs."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _wordless(text: str) -> bool:
    """Only placeholders and punctuation ("{words}: {when}."): nothing to translate."""
    return not re.search(r"[^\W\d_]", re.sub(r"\{[^}]*\}", "", text))


def test_the_catalogs_hold_the_same_messages() -> None:
    assert len(ENGLISH) > 40
    for language in LANGUAGES:
        assert {m.id for m in catalog(language) if m.id} == set(ENGLISH), language


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_message_is_translated_with_the_english_fields(language: str) -> None:
    for msgid in ENGLISH:
        message = catalog(language).get(msgid)
        assert message is not None and message.string, f"{language}: missing {msgid!r}"
        assert _fields(str(message.string)) == _fields(msgid), f"{language}: {msgid!r}"
        if language != "en" and msgid not in SAME_WORD and not _wordless(msgid):
            english = catalog("en").get(msgid)
            assert english is not None
            assert message.string != english.string, f"{language} left in English: {msgid!r}"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_message_renders(language: str) -> None:
    for msgid in ENGLISH:
        values = dict.fromkeys(_fields(msgid), 1234)
        shown = said(msgid, language, **values)
        assert "{" not in shown and shown.strip(), f"{language}: {msgid!r} -> {shown!r}"


def test_a_language_we_do_not_have_is_english_and_a_regional_one_is_its_language() -> None:
    asked = "Could you say it once more?"
    assert said(asked, "ja") == said(asked, None) == asked
    assert said(asked, "pt-BR") == said(asked, "pt") == "Pode dizer de novo?"


def _used() -> set[str]:
    """The message ids the code declares as `Said(...)`, read by Babel's extractor."""
    found: set[str] = set()
    keywords = {"Said": None}
    for package in ("bot", "wrapper", "channels", "clockcore"):
        for _, _, msgid, _, _ in extract_from_dir(
            ROOT / package, method_map=[("**.py", "python")], keywords=keywords, comment_tags=()
        ):
            if isinstance(msgid, str):
                found.add(msgid)
    return found


def test_every_message_the_code_says_is_in_the_catalogs_and_none_is_left_over() -> None:
    used, known = _used(), set(ENGLISH)
    assert used - known == set(), "said in the code, missing from bot/locale"
    assert known - used == set(), "in bot/locale, said nowhere in the code"
