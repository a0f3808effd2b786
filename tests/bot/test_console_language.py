"""A short message is read, and answered, in the conversation's language.

Issue 61 (fresh-eyes findings, docs/languages.md): "verschiebe den Zahnarzt auf
Donnerstag" says too few German words to guess its language, so the tools read
'Donnerstag' in English and said, in English, that it was no time. The tools now
read in the conversation's language (`bot.replies.conversation_language`).
Through the console with no LLM, on a settable clock and a real SQLite store.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.config.settings import Settings
from bot.replies import conversation_language
from clockcore import MessageRef, SettableClock
from tests.support.console import rows, say

TUESDAY = datetime(2026, 12, 1, 20, tzinfo=UTC)  # 21:00 in Berlin and Madrid


def _waiting(home: Path) -> list[tuple[object, ...]]:
    return rows(
        home,
        "SELECT text, due_at, status FROM outbox WHERE kind = 'reminder' "
        "AND status IN ('pending', 'deferred') ORDER BY due_at",
    )


async def test_a_german_move_to_a_weekday_keeps_the_time(tmp_path: Path) -> None:
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "erinnere mich morgen um 15 Uhr an den Zahnarzt", "verschiebe den Zahnarzt auf Donnerstag",
        "schlummer r2 30 Minuten", "verschiebe den Zahnarzt auf Blumenkohl",
    )  # fmt: skip
    assert said[2] == "clockbot> Verschoben: den Zahnarzt, auf Donnerstag 3 Dez., 15:00."
    assert said[3] == "clockbot> Verschoben: den Zahnarzt, auf Donnerstag 3 Dez., 15:30."
    assert said[4].startswith("clockbot> Ich kann „Blumenkohl“ nicht als Zeit lesen."), said[4]
    assert _waiting(tmp_path) == [("den Zahnarzt", "2026-12-03 14:30:00.000000", "pending")]


async def test_a_german_pause_until_a_weekday_pauses(tmp_path: Path) -> None:
    said = await say(
        Settings(home=tmp_path), SettableClock(TUESDAY), "clock: home tz Europe/Berlin",
        "erinnere mich morgen um 15 Uhr an den Zahnarzt", "pausiere meine Erinnerungen bis Montag",
    )  # fmt: skip
    assert said[2].startswith("clockbot> Pausiert bis Montag 7 Dez., 08:00."), said[2]
    assert _waiting(tmp_path) == [("den Zahnarzt", "2026-12-07 07:00:00.000000", "deferred")]


def test_a_short_message_is_in_the_language_of_the_conversation() -> None:
    def ref(text: str, language: str | None = None) -> MessageRef:
        return MessageRef(
            channel="console", thread_id="t", user_id="u", message_id="m", text=text,
            received_at=TUESDAY, language=language,
        )  # fmt: skip

    german = ["erinnere mich morgen um 15 Uhr an den Zahnarzt"]
    assert conversation_language(ref("Montag"), german) == "de"
    assert conversation_language(ref("Montag")) is None
    assert conversation_language(ref("verschiebe r2 auf Donnerstag")) == "de"
    assert conversation_language(ref("pospón r2 30 minutos"), german) == "es"
    assert conversation_language(ref("Montag", "it"), german) == "it"  # the platform's says
