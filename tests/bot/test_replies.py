"""What clockbot says itself is said in the person's language (bot.replies)."""

from __future__ import annotations

import string
from datetime import UTC, datetime

import pytest

from bot import replies
from bot.catalog import said_raw
from bot.replies import GAVE_UP, TOO_LARGE, Said, language_of
from clockcore import MessageRef
from clockcore.speech.spoken import SPOKEN_LANGUAGES

ALL = [value for value in vars(replies).values() if isinstance(value, Said)]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_reply_is_in_each_of_the_seven_languages() -> None:
    assert len(ALL) == 26
    for said in ALL:
        texts = {lang: said_raw(said.msgid, lang) for lang in SPOKEN_LANGUAGES}
        assert len(set(texts.values())) == 7, said.en  # none left in English
        assert {_fields(t) == _fields(said.en) for t in texts.values()} == {True}, said.en


@pytest.mark.parametrize(
    ("language", "starts"),
    [("es", "Lo siento"), ("pt-BR", "Desculpe"), ("de-AT", "Entschuldige"), ("ja", "I'm sorry"),
     (None, "I'm sorry")],
)  # fmt: skip
def test_a_reply_is_in_the_language_asked_else_english(language: str | None, starts: str) -> None:
    said = GAVE_UP.in_(language, when="2026-03-09T10:00:00+01:00")
    assert said.startswith(starts)
    assert "2026-03-09T10:00:00+01:00" in said


def test_numbers_are_grouped_only_in_english() -> None:
    assert "12,000 characters" in TOO_LARGE.in_("en", size=12000, limit=8000)
    assert "12000 Zeichen" in TOO_LARGE.in_("de", size=12000, limit=8000)


@pytest.mark.parametrize(
    ("text", "platform", "language"),
    [
        ("recuérdame mañana a las 9 llamar a mamá", None, "es"),
        ("remind me tomorrow", "pt-BR", "pt-BR"),  # the platform's wins
        ("ok", None, None),  # nothing to go on: English
    ],
)
def test_the_language_is_the_platforms_else_the_words(
    text: str, platform: str | None, language: str | None
) -> None:
    ref = MessageRef(
        channel="telegram", thread_id="dm:1", user_id="1", message_id="m1", text=text,
        received_at=datetime(2026, 3, 9, tzinfo=UTC), language=platform,
    )  # fmt: skip
    assert language_of(ref) == language
