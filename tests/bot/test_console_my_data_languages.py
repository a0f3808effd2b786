""" "Delete my data" and "what do you know about me" in each language, on the console.

Issue 61, item 4: "lösche meine Daten", "borra mis datos" and "supprime mes données" were
read as cancelling a reminder ("I find no reminder about 'meine Daten'"), and the "nein"
after them got the English fallback. Each runs through `bot.cli.chat.chat` with no LLM on a
real SQLite store, and checks what was said and what was kept.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.rules_replies import NOTHING_ERASED
from bot.turns.my_data import ERASE_ASK, ERASED, KEPT, Ask, ask_of
from bot.turns.sender_check import person_wide, privileged
from clockcore import SettableClock
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)

ASKS = [
    # language, what do you know about me, delete my data, its confirmation, no
    ("en", "what do you know about me", "delete my data", "delete my data: yes", "no"),
    ("de", "Was weißt du über mich?", "lösche meine Daten", "lösche meine Daten: ja", "nein"),
    ("es", "¿qué sabes de mí?", "borra mis datos", "borra mis datos: sí", "no"),
    ("fr", "qu'est-ce que tu sais sur moi ?", "supprime mes données",
     "supprime mes données : oui", "non"),
    ("it", "cosa sai di me?", "cancella i miei dati", "cancella i miei dati: sì", "no"),
    ("pt", "o que você sabe sobre mim?", "apaga os meus dados", "apaga os meus dados: sim",
     "não"),
    ("nl", "wat weet je over mij?", "verwijder mijn gegevens", "verwijder mijn gegevens: ja",
     "nee"),
]  # fmt: skip


@pytest.mark.parametrize(("language", "show", "erase", "confirm", "no"), ASKS)
async def test_delete_my_data_asks_first_in_the_persons_language_and_a_no_keeps_all(
    tmp_path: Path, language: str, show: str, erase: str, confirm: str, no: str
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", erase, no)
    asked = ERASE_ASK.in_(language, confirm=confirm.lower().replace(" :", ":"))
    assert said[-2] == f"clockbot> {asked}"
    assert said[-1] == f"clockbot> {NOTHING_ERASED.in_(language)}"
    assert len(rows(tmp_path, "SELECT * FROM users")) == 1
    listed = await say(settings, clock, show)
    assert listed[0] == f"clockbot> {KEPT.in_(language)}", listed
    said = await say(settings, clock, erase, confirm)
    assert said[-1] == f"clockbot> {ERASED.in_(language)}"
    assert rows(tmp_path, "SELECT * FROM users") == []


@pytest.mark.parametrize(("language", "show", "erase", "confirm", "no"), ASKS)
def test_each_language_is_refused_in_a_group_and_waits_for_an_unproven_sender(
    language: str, show: str, erase: str, confirm: str, no: str
) -> None:
    """The table's order holds for every language: group refusal and sender proof come first."""
    assert (ask_of(show), ask_of(erase), ask_of(confirm), ask_of(no)) == (
        Ask.SHOW, Ask.ERASE, Ask.CONFIRM, None,
    )  # fmt: skip
    assert person_wide(show) and person_wide(erase) and person_wide(confirm)
    assert privileged(show) and privileged(confirm) and not privileged(erase)
