"""A reply that says a reminder was set, snoozed or cancelled when no tool did it (bot.agent.claims)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.agent.claims import unbacked_claim
from wrapper.outbound.reminders import ReminderChange
from wrapper.turns.effects import Effect, Enqueue, NewMemory

AT = datetime(2026, 3, 9, 9, tzinfo=UTC)
NOTE = NewMemory.new("console:me", "leave", due_at=AT, created_at=AT)
REMINDER = Enqueue(
    key="console:m1#1", kind="reminder", channel="console", thread_id="dm:me",
    thread_key="agent:main:console:dm:me", user_key="console:me", user_id="me", text="leave",
    due_at=AT,
)  # fmt: skip


@pytest.mark.parametrize(
    ("asked", "reply", "done"),
    [
        # Qwen2.5-Coder-1.5B, snooze-by-reply (docs/eval.md): nothing was called.
        ("snooze 10 minutes", "The reminder has been snoozed for 10 minutes.", "moved"),
        ("stop this one, I've moved them outside", "Stopped: no more plant reminders.",
         "cancelled"),
        ("recuérdame mañana a las 9 llamar al dentista",
         "I will remind you to call the dentist tomorrow at 9 AM.", "set"),
        ("can you remind me at 5 to leave", "Your reminder is set for 17:00.", "set"),
        ("remind me every day at 7am to take my vitamins", "Set: every day at 07:00.", "set"),
        # The eleventh run, zone-travelling: a fenced "response" and no call (docs/eval.md).
        ("remind me at 8am tomorrow to check out of the hotel",
         "``` This response sets a reminder for 8am tomorrow to check out of the hotel.\n```",
         "set"),
        ("recuérdame todos los días a las 8 de la noche tomar la pastilla",
         "Listo: todos los días a las 20:00.", "set"),
        ("recuérdame mañana a las 9", "Te lo recordaré mañana a las 9:00.", "set"),
        ("erinnere mich morgen um 8 an die Bank", "Ich erinnere dich morgen um 8 Uhr.", "set"),
        ("rappelle-moi chaque lundi à 9h de payer le loyer",
         "C'est noté : chaque lundi à 9h00.", "set"),
        ("lembra-me amanhã às 8 de ligar à mãe", "Vou te lembrar amanhã às 8h.", "set"),
        ("ricordami domani alle 7 di chiamare Luca", "Ti ricorderò domani alle 7.", "set"),
        ("herinner me morgen om 9 uur aan de huur", "Herinnering ingesteld voor 9:00.", "set"),
    ],
)  # fmt: skip
def test_a_change_asked_for_and_claimed_with_no_tool_is_unbacked(
    asked: str, reply: str, done: str
) -> None:
    claim = unbacked_claim(asked, reply, [])
    assert claim is not None and claim.done == done


@pytest.mark.parametrize(
    ("asked", "reply", "staged"),
    [
        (
            "snooze 10 minutes",
            "Snoozed until 09:41.",
            [ReminderChange("console:me", "r4", "move", AT)],
        ),
        ("snooze 10 minutes", "Snoozed until 09:41.", [REMINDER]),  # a sent one comes back
        ("remind me at 5 to leave", "I'll remind you at 17:00.", [NOTE, REMINDER]),
        ("stop this one", "Stopped.", [ReminderChange("console:me", "s2", "cancel")]),
        # Asked for nothing: "I'll remind you" is about an earlier turn; acting would repeat it.
        ("thanks!", "You're welcome, I'll remind you at 9.", []),
        ("what's coming up?", "Your reminder is set for 9:00 tomorrow.", []),
        # Said it is not done: no claim.
        ("snooze 10 minutes", "I couldn't find a reminder to snooze; which one?", []),
        ("recuérdame mañana", "¿A qué hora te lo recuerdo?", []),
        ("remind me to call Sam", "Sure, when should I set it for?", []),
        ("remind me to call Sam", "Set it for what time?", []),
    ],
)
def test_a_claim_a_tool_made_or_nobody_asked_for_is_left(
    asked: str, reply: str, staged: list[Effect]
) -> None:
    assert unbacked_claim(asked, reply, staged) is None


def test_another_change_backs_nothing() -> None:
    """A note is not a reminder; a reminder set is not one stopped."""
    claim = unbacked_claim("remind me at 5 to leave", "I'll remind you at 17:00.", [NOTE])
    assert claim is not None and claim.done == "set"
    claim = unbacked_claim("cancel the dentist one", "It's cancelled.", [REMINDER])
    assert claim is not None and claim.done == "cancelled"


@pytest.mark.parametrize(
    ("asked", "reply", "done"),
    [
        # What Qwen2.5-Coder-1.5B told people in issue 63, nothing stored or changed.
        ("remind me at 10am to call my mother",
         "I've stored that reminder for you to call your mother at 10 AM.", "set"),
        ("remind me in 20 minutes to check the oven", "The reminder was set.", "set"),
        ("remind me in 20 minutes to check the oven",
         "I have set a reminder for you to check the oven in 20 minutes.", "set"),
        ("remind me in 90 minutes to stretch", "I've pinged you in 90 minutes about it.", "set"),
        ("remind me at 7pm to water the plants",
         "To remind you at 7pm, clockbot will send you a message at 2026-12-01T17:00:00+01:00.",
         "set"),
        ("move my 9am reminder to 11",
         "The reminder to call Sam has been updated to 11 AM instead of 9 AM.", "moved"),
        ("recuérdame mañana a las 9 llamar al dentista", "He guardado el recordatorio.", "set"),
        ("erinnere mich morgen um 9 an den Zahnarzt",
         "Ich habe die Erinnerung für morgen 9 Uhr eingestellt.", "set"),
        ("rappelle-moi demain à 9h d'appeler le dentiste", "C'est noté pour demain 9h.", "set"),
        ("lembra-me amanhã às 9 de ligar à mãe", "Criei o lembrete para amanhã.", "set"),
        ("ricordami domani alle 9 di chiamare Luca", "Ho impostato il promemoria.", "set"),
        ("herinner me morgen om 9 uur aan de huur", "Ik heb de herinnering ingesteld.", "set"),
        ("mueve el recordatorio del dentista a las 11", "Lo he movido a las 11.", "moved"),
        ("verschieb die Erinnerung auf 11 Uhr", "Die Erinnerung ist verschoben.", "moved"),
        ("décale le rappel à 11h", "Le rappel est déplacé à 11h.", "moved"),
        ("cancela el recordatorio del dentista", "Recordatorio cancelado.", "cancelled"),
        ("lösch die Erinnerung an die Bank", "Die Erinnerung ist gelöscht.", "cancelled"),
        ("annule le rappel du loyer", "C'est annulé.", "cancelled"),
        ("cancella il promemoria", "Promemoria annullato.", "cancelled"),
        ("verwijder de herinnering", "De herinnering is verwijderd.", "cancelled"),
        ("please remember that my sister arrives on Friday", "I've saved that.", "stored"),
        ("merk dir, dass meine Schwester am Freitag kommt", "Ist gespeichert.", "stored"),
        ("send Anna a message that I'm late", "I've sent it.", "sent"),
    ],
)  # fmt: skip
def test_claims_in_every_tense_and_language_are_read(asked: str, reply: str, done: str) -> None:
    claim = unbacked_claim(asked, reply, [])
    assert claim is not None and claim.done == done


@pytest.mark.parametrize(
    ("asked", "reply"),
    [
        ("recuérdame mañana", "¿A qué hora te lo recuerdo?"),
        ("move my 9am reminder", "Sure: to what time should I move it?"),
        ("remind me at 9 to call Sam", "Should I set it for 9am or 9pm?"),
        ("please remember my sister's name", "What is her name?"),
    ],
)
def test_a_question_claims_nothing(asked: str, reply: str) -> None:
    assert unbacked_claim(asked, reply, []) is None


def test_a_stored_claim_is_backed_by_a_note() -> None:
    assert unbacked_claim("please remember my sister arrives Friday", "Saved.", [NOTE]) is None


@pytest.mark.parametrize(
    "asked",
    [
        "snooze 10 minutes",
        "posponlo 10 minutos",
        "recuérdamelo otra vez en 10 minutos",
        "schieb das 10 Minuten",
        "repousse de 10 minutes",
        "rimanda di 10 minuti",
        "adia 10 minutos",
        "stel 10 minuten uit",
    ],
)
@pytest.mark.parametrize(
    "reply",
    [
        "Hecho, te lo recuerdo otra vez a las 9:41",  # seen after a failed snooze (issue 63)
        "Done! I'll remind you again at 9:41.",
        "Erledigt, ich erinnere dich um 9:41 nochmal.",
    ],
)
def test_a_snooze_said_as_a_new_reminder_with_nothing_done_is_the_snooze_unbacked(
    asked: str, reply: str
) -> None:
    claim = unbacked_claim(asked, reply, [])
    assert claim is not None and claim.done == "moved"


def test_words_of_another_kind_describe_a_change_that_was_made() -> None:
    """After a snooze that was made, "I'll remind you again at 9:41" tells of it."""
    moved = [ReminderChange("console:me", "r4", "move", AT)]
    assert (
        unbacked_claim("snooze 10 minutes", "Done! I'll remind you again at 9:41.", moved) is None
    )
    assert unbacked_claim("thanks again", "I'll remind you again at 9:41.", []) is None
