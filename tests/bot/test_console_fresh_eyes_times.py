"""A new user's findings about times, through the console with no model (issue 61/60, fe81).

On a settable clock and a real SQLite store, checking what was said and what was stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.rules_replies import NEEDS_LLM
from clockcore import SettableClock
from tests.support.console import say, waiting

WEDNESDAY = datetime(2026, 12, 2, 4, tzinfo=UTC)  # 05:00 in Berlin, Wednesday 2 December


@pytest.mark.parametrize(
    ("zone", "asked", "answer", "stored"),
    [
        ("Europe/Berlin", "remind me next friday at 3pm to pick up the dry cleaning", "the 11th",
         ("pick up the dry cleaning", "2026-12-11 14:00:00.000000")),
        ("Europe/Berlin", "remind me next friday at 3pm to pick up the dry cleaning",
         "the first one", ("pick up the dry cleaning", "2026-12-04 14:00:00.000000")),
        ("Europe/Berlin", "erinnere mich nächsten Freitag um 15 Uhr an die Reinigung", "den 11.",
         ("die Reinigung", "2026-12-11 14:00:00.000000")),
        ("Europe/Madrid", "recuérdame el próximo viernes a las 15 recoger la ropa", "el 11",
         ("recoger la ropa", "2026-12-11 14:00:00.000000")),
        ("Europe/Madrid", "recuérdame el próximo viernes a las 15 recoger la ropa",
         "el viernes 11", ("recoger la ropa", "2026-12-11 14:00:00.000000")),
        ("Europe/Paris", "rappelle-moi vendredi prochain à 15h de chercher le pressing", "le 11",
         ("chercher le pressing", "2026-12-11 14:00:00.000000")),
        ("Europe/Rome", "ricordami venerdì prossimo alle 15 di ritirare i vestiti", "il primo",
         ("ritirare i vestiti", "2026-12-04 14:00:00.000000")),
        ("Europe/Amsterdam", "herinner me volgende vrijdag om 15 uur aan de stomerij", "de 11e",
         ("de stomerij", "2026-12-11 14:00:00.000000")),
        ("Europe/Lisbon", "lembra-me na próxima sexta às 15 de buscar a roupa", "a primeira",
         ("buscar a roupa", "2026-12-04 15:00:00.000000")),
    ],
)  # fmt: skip
async def test_an_answer_to_which_friday_keeps_the_time_first_asked_for(
    tmp_path: Path, zone: str, asked: str, answer: str, stored: tuple[str, str]
) -> None:
    """fe81 item 1: "the 11th" stored 08:00, the start of the person's day, not the 15:00
    offered; "den 11.", "le 11", "the first one" got the no-model paragraph and were lost."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, f"clock: home tz {zone}", asked, answer)
    assert said[1].count("15:00") == 2 and "4" in said[1] and "11" in said[1], said
    assert ("do you mean" in said[1]) == asked.startswith("remind"), said  # in its language
    assert "15:00" in said[2] and NEEDS_LLM.in_("en") not in said[2], said
    assert waiting(tmp_path) == [stored]


@pytest.mark.parametrize(
    ("zone", "asked", "answer", "stored"),
    [
        ("Europe/Madrid", "recuérdame a eso de las 6 llamar a mamá", "por la tarde",
         ("llamar a mamá", "2026-12-02 17:00:00.000000")),
        ("Europe/Berlin", "erinnere mich gegen 6 an die Bank", "abends",
         ("die Bank", "2026-12-02 17:00:00.000000")),
        ("Europe/Paris", "rappelle-moi vers 6h d'appeler maman", "le soir",
         ("appeler maman", "2026-12-02 17:00:00.000000")),
        ("Europe/Rome", "ricordami verso le 6 di chiamare la mamma", "di sera",
         ("chiamare la mamma", "2026-12-02 17:00:00.000000")),
        ("Europe/Amsterdam", "herinner me rond 6 aan mama bellen", "'s avonds",
         ("mama bellen", "2026-12-02 17:00:00.000000")),
        ("Europe/Lisbon", "lembra-me por volta das 6 de ligar para a mãe", "de tarde",
         ("ligar para a mãe", "2026-12-02 18:00:00.000000")),
        ("Europe/Berlin", "remind me around 6 to call mum", "in the evening",
         ("call mum", "2026-12-02 17:00:00.000000")),
        ("Europe/Berlin", "remind me around 6 to call mum", "in the morning",
         ("call mum", "2026-12-02 05:00:00.000000")),
    ],
)  # fmt: skip
async def test_a_part_of_the_day_answering_morning_or_evening_settles_the_hour_asked(
    tmp_path: Path, zone: str, asked: str, answer: str, stored: tuple[str, str]
) -> None:
    """fe81 item 2: "por la tarde" after "'a eso de las 6': morning or evening?" stored 15:00,
    the afternoon's own hour; "abends" after "gegen 6" was not read and the request lost."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, f"clock: home tz {zone}", asked, answer)
    english = asked.startswith("remind")
    assert ("morning or in the evening" if english else "06:00") in said[1], said
    assert waiting(tmp_path) == [stored], said


@pytest.mark.parametrize(
    ("zone", "asked", "stored"),
    [
        ("Europe/Berlin", "remind me every monday at 9am to send the weekly report",
         ("send the weekly report", "2026-12-07 08:00:00.000000")),
        ("Europe/Berlin", "remind me every day at 8 to take my weekly pills",
         ("take my weekly pills", "2026-12-02 07:00:00.000000")),
        ("Europe/Berlin", "erinnere mich jeden Montag um 9 Uhr an den wöchentlichen Bericht",
         ("den wöchentlichen Bericht", "2026-12-07 08:00:00.000000")),
        ("Europe/Madrid", "recuérdame cada lunes a las 9 enviar el informe semanal",
         ("enviar el informe semanal", "2026-12-07 08:00:00.000000")),
        ("Europe/Paris", "rappelle-moi chaque lundi à 9h d'envoyer le rapport hebdomadaire",
         ("envoyer le rapport hebdomadaire", "2026-12-07 08:00:00.000000")),
        ("Europe/Rome", "ricordami ogni lunedì alle 9 di inviare il rapporto settimanale",
         ("inviare il rapporto settimanale", "2026-12-07 08:00:00.000000")),
        ("Europe/Amsterdam", "herinner me elke maandag om 9 uur aan het wekelijkse rapport",
         ("het wekelijkse rapport", "2026-12-07 08:00:00.000000")),
        ("Europe/Lisbon", "lembra-me toda segunda às 9 de enviar o relatório semanal",
         ("enviar o relatório semanal", "2026-12-07 09:00:00.000000")),
    ],
)  # fmt: skip
async def test_a_repeat_word_in_a_repeating_reminders_text_is_its_text(
    tmp_path: Path, zone: str, asked: str, stored: tuple[str, str]
) -> None:
    """fe81 item 3: "weekly" in "every monday at 9am to send the weekly report" asked "At
    what time of day should 'weekly' be?" and set nothing: the first repeat is the rule."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, f"clock: home tz {zone}", asked)
    assert "09:00" in said[1] or "08:00" in said[1], said
    assert waiting(tmp_path) == [stored], said
