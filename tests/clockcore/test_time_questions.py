"""A question about time holds no time expression, yet it is time-related (§5.1)."""

from __future__ import annotations

import pytest

from clockcore.time_questions import asks_about_time


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
