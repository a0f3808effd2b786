"""Frames once said in English alone come in the person's language (issue 61, docs/languages.md).

Through the console with no LLM, on a settable clock and a real SQLite store: the
repeating reminder's confirmation, "what's coming up" and the question a pause
without an end asks, in four languages, and what was stored; then the questions
the tools ask (a day begun, a time passed) in five more.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Madrid

CONVERSATIONS = [
    pytest.param(
        ["recuérdame cada lunes a las 9 sacar la basura",
         "recuérdame mañana a las 10 comprar pan", "¿qué tengo pendiente?",
         "pausa mis recordatorios"],
        ["Hecho: sacar la basura, se repite. Próximas: lunes 15 jun, 09:00 (dentro de 5 días);",
         "Te lo recordaré el jueves 11 jun, 10:00 (dentro de 18 horas).",
         "Próximamente:",
         "- comprar pan: jueves 11 jun, 10:00 (dentro de 18 horas)",
         "- sacar la basura: lunes 15 jun, 09:00 (dentro de 5 días)",
         "¿Hasta cuándo? Por ejemplo: «pausa mis recordatorios hasta el lunes»."],
        ("sacar la basura", "comprar pan"), id="es",
    ),
    pytest.param(
        ["erinnere mich jeden Montag um 9 Uhr an den Müll",
         "erinnere mich morgen um 10 an das Brot", "was steht an?",
         "pausiere meine Erinnerungen"],
        ["Gesetzt: den Müll, wiederholt sich. Nächste: Montag 15 Juni, 09:00 (in 5 Tagen);",
         "Ich erinnere dich am Donnerstag 11 Juni, 10:00 (in 18 Stunden).",
         "Als Nächstes:",
         "- das Brot: Donnerstag 11 Juni, 10:00 (in 18 Stunden)",
         "- den Müll: Montag 15 Juni, 09:00 (in 5 Tagen)",
         "Bis wann? Zum Beispiel: „pausiere meine Erinnerungen bis Montag“."],
        ("den Müll", "das Brot"), id="de",
    ),
    pytest.param(
        ["rappelle-moi chaque lundi à 9h de sortir les poubelles",
         "rappelle-moi demain à 10h d'acheter du pain", "qu'est-ce qui m'attend ?",
         "suspends mes rappels"],
        ["C'est noté : sortir les poubelles, répété. Prochains : lundi 15 juin, 09:00 (dans 5 "
         "jours);",
         "Je vous le rappellerai le jeudi 11 juin, 10:00 (dans 18 heures).",
         "À venir :",
         "- acheter du pain: jeudi 11 juin, 10:00 (dans 18 heures)",
         "- sortir les poubelles: lundi 15 juin, 09:00 (dans 5 jours)",
         "Jusqu'à quand ? Par exemple : « suspends mes rappels jusqu'à lundi »."],
        ("sortir les poubelles", "acheter du pain"), id="fr",
    ),
    pytest.param(
        ["ricordami ogni lunedì alle 9 di portare fuori la spazzatura",
         "ricordami domani alle 10 di comprare il pane", "cosa c'è in arrivo?",
         "sospendi i miei promemoria"],
        ["Fatto: portare fuori la spazzatura, si ripete. Prossimi: lunedì 15 giu, 09:00 (tra 5 "
         "giorni);",
         "Te lo ricorderò giovedì 11 giu, 10:00 (tra 18 ore).",
         "In arrivo:",
         "- comprare il pane: giovedì 11 giu, 10:00 (tra 18 ore)",
         "- portare fuori la spazzatura: lunedì 15 giu, 09:00 (tra 5 giorni)",
         "Fino a quando? Per esempio: «sospendi i miei promemoria fino a lunedì»."],
        ("portare fuori la spazzatura", "comprare il pane"), id="it",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("lines", "said", "stored"), CONVERSATIONS)
async def test_the_frames_come_in_the_persons_language(
    tmp_path: Path, lines: list[str], said: list[str], stored: tuple[str, str]
) -> None:
    settings = Settings(home=tmp_path)
    shown = await say(settings, SettableClock(WEDNESDAY), "clock: home tz Europe/Madrid", *lines)
    answers = [line.removeprefix("clockbot> ") for line in shown[1:]]
    assert answers[0].startswith(said[0])  # then the next two Mondays and its id
    assert answers[1:] == said[1:]
    repeating, once = stored
    assert rows(tmp_path, "SELECT text, rrule LIKE '%BYDAY=MO%' FROM schedules") == [(repeating, 1)]
    assert rows(
        tmp_path,
        "SELECT text, due_at FROM outbox WHERE kind = 'reminder' AND status = 'pending' "
        "ORDER BY due_at",
    ) == [
        (once, "2026-06-11 08:00:00.000000"),  # Thursday, 10:00 in Madrid
        (repeating, "2026-06-15 07:00:00.000000"),  # its next Monday, 09:00 in Madrid
    ]


ASKED = [
    ("erinnere mich heute an die Bank", "„heute“ hat schon begonnen. Um welche Uhrzeit?"),
    ("rappelle-moi hier à 9h d'appeler maman",
     "mardi 9 juin, 09:00 (il y a 1 jour) est déjà passé. Quand faut-il le mettre à la place ?"),
    ("ricordami ieri alle 9 di chiamare la mamma",
     "martedì 9 giu, 09:00 (1 giorno fa) è già passato. Quando deve essere invece?"),
    ("lembra-me hoje de ligar para a mãe", "«hoje» já começou. A que horas?"),
    ("herinner me gisteren om 9 uur aan de huur",
     "dinsdag 9 jun, 09:00 (1 dag geleden) is al voorbij. Wanneer moet het dan zijn?"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "asked"), ASKED, ids=[line for line, _ in ASKED])
async def test_a_tools_question_comes_in_the_persons_language(
    tmp_path: Path, line: str, asked: str
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(datetime(2026, 6, 10, 8, tzinfo=UTC))  # 10:00 in Berlin
    shown = await say(settings, clock, "clock: home tz Europe/Berlin", line)
    assert shown[1:] == [f"clockbot> {asked}"]
    assert rows(tmp_path, "SELECT count(*) FROM outbox WHERE kind = 'reminder'") == [(0,)]
