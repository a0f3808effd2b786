"""A question about time holds no time expression, yet it is time-related (§5.1)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from clockcore.parsing.time_questions import asks_about_time, counts_to


@pytest.mark.parametrize(
    "text",
    [
        "how long has it been since I last wrote to you?",
        "back! which day did I last message you?",
        "how many days until Christmas",
        "When did we last talk?",
        "¿Cuánto tiempo ha pasado desde mi último mensaje?",
        "¿cuándo te escribí?",
        "Wie lange ist das her?",
        "Combien de temps depuis mon dernier message ?",
        "quanto tempo faz?",
        "che giorno era?",
        "Hoe lang geleden was dat?",
    ],
)
def test_a_question_about_time_counts(text: str) -> None:
    assert asks_about_time(text)


@pytest.mark.parametrize(
    "text",
    [
        "off on a trip, talk soon",
        "call me when I get home",  # "when" outside a question
        "what should I cook tonight",  # a time word, but read by mentions_time, not here
        "good afternoon! busy day",
        "the long and winding road",
    ],
)
def test_other_messages_do_not(text: str) -> None:
    assert not asks_about_time(text)


NOW = datetime(2026, 3, 9, 8, tzinfo=UTC)
BERLIN = "Europe/Berlin"
CHRISTMAS = datetime(2026, 12, 25, tzinfo=ZoneInfo(BERLIN))


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("how many days until Christmas?", None, "Christmas"),
        ("how many more days are left till Christmas", None, "Christmas"),
        ("how many days until 25 December?", None, "25 December"),
        ("wie viele Tage noch bis Weihnachten?", "de", "Weihnachten"),
        ("¿cuántos días faltan para Navidad?", "es", "Navidad"),
        ("combien de jours reste-t-il avant Noël ?", "fr", "Noël"),
        ("quantos dias faltam para o Natal?", "pt", "o Natal"),
        ("quanti giorni mancano a Natale?", "it", "Natale"),
        ("hoeveel dagen nog tot Kerstmis?", "nl", "Kerstmis"),
    ],
)
def test_a_count_question_counts_to_the_day_it_names(
    text: str, language: str | None, words: str
) -> None:
    counted = counts_to(text, BERLIN, NOW, language=language)
    assert counted is not None
    assert (counted.words, counted.at, counted.zone) == (words, CHRISTMAS, BERLIN)


@pytest.mark.parametrize(
    "text",
    [
        "how many people came to the party on Friday?",  # no count of time
        "how long is the drive to Paris on Friday?",  # a count, but not "until"
        "how many days ago was Christmas?",  # back, not until
        "how many days until it's done?",  # nothing that reads as a time
        "how many days until the 31st or the 1st?",  # two: read whole, it asks
    ],
)
def test_nothing_else_is_counted_to(text: str) -> None:
    assert counts_to(text, BERLIN, NOW) is None
