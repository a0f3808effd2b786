"""A reply that says a reminder was set, snoozed or cancelled when no tool did it (bot.claims)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.claims import unbacked_claim
from wrapper.effects import Effect, Enqueue, NewMemory
from wrapper.reminders import ReminderChange

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
