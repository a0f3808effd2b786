"""How people ask to be reminded, in the seven languages (bot.llm.reminder_words)."""

from __future__ import annotations

import pytest

from bot.llm.reminder_words import asks_to_be_reminded, asks_to_keep_in_mind


@pytest.mark.parametrize(
    "text",
    [
        "remind me at 9 to call mum",
        "ok, can you remind me tomorrow to water the plants",
        "don't let me forget the bins on Monday",
        "recuérdame mañana a las 9 llamar al dentista",
        "Erinnere mich morgen um 8 an die Bank",
        "rappelle-moi demain à 9h d'appeler Paul",
        "lembra-me amanhã às 8 de ligar à mãe",
        "ricordami domani alle 7 di chiamare Luca",
        "herinner me morgen om 9 uur aan de huur",
        "Ich hab morgen Zahnarzt, kannst du mich um 8 erinnern?",
        "ik vergeet het altijd, kun je me herinneren aan de huur",
    ],
)
def test_a_request_to_be_reminded_is_seen_in_each_language(text: str) -> None:
    assert asks_to_be_reminded(text)


@pytest.mark.parametrize(
    "text",
    [
        "keep in mind the car insurance renews on 1 April",
        "note that the dentist moved to Friday",
        "I remember the meeting was at 9",
        "ten en cuenta que el seguro vence el 1 de abril",
        "the reminder-me app is broken",
        "Ich kann mich nicht erinnern, wann der Zahnarzt war",
        "ich erinnere mich an den Urlaub in Rom",
        "Wir erinnern uns gern daran",
        "ik kan het me niet herinneren",
        "ik herinner me de vergadering van gisteren",
    ],
)
def test_a_note_or_a_story_is_not_a_request(text: str) -> None:
    assert not asks_to_be_reminded(text)


@pytest.mark.parametrize(
    "text",
    [
        "keep in mind the car insurance renews on 1 April",
        "note that the dentist moved to Friday at 4",
        "ten en cuenta que el seguro vence el 1 de abril",
        "merk dir, dass die Versicherung am 1. April verlängert wird",
        "note que l'assurance est renouvelée le 1er avril",
        "tenha em mente que o seguro renova a 1 de abril",
        "tieni a mente che l'assicurazione scade il 1 aprile",
        "onthoud dat de verzekering op 1 april verlengt",
    ],
)
def test_a_note_to_keep_in_mind_is_seen_in_each_language(text: str) -> None:
    assert asks_to_keep_in_mind(text)


@pytest.mark.parametrize(
    "text",
    [
        "note that the dentist is at 4, remind me at 3",
        "keep in mind the bins, and don't let me forget them on Monday",
        "remind me tomorrow at 9 to call the bank",
        "the notes app is broken",
    ],
)
def test_a_note_that_also_asks_to_be_reminded_is_a_reminder(text: str) -> None:
    assert not asks_to_keep_in_mind(text)
