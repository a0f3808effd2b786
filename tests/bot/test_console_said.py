"""Every confirmation is said, and clockbot's own advice works, on the console (issue 61).

Items 7 and 4: "delete my data: yes" prints its confirmation (the console has no
route, and the erasure's last word skips the outbox), and a "no" to it, or to
"cancel all my reminders", is answered "nothing was deleted/canceled"; ids work wherever a person can
type them; "cancel all my reminders" asks first; a reminder set twice says so. Each
runs through `bot.cli.chat.chat` with no LLM on a real SQLite store, and checks what was
said and what was stored.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.rules_agent import CANCEL_ALL_CONFIRM
from bot.llm.rules_replies import NEEDS_LLM
from bot.turns.my_data import ERASE_ASK_REPLY, ERASED_REPLY
from clockcore import SettableClock
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York


async def test_deleting_my_data_is_confirmed_on_the_console(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 3pm to call the bank", "delete my data", "delete my data: yes",
    )  # fmt: skip
    assert said[-2:] == [f"clockbot> {ERASE_ASK_REPLY}", f"clockbot> {ERASED_REPLY}"]
    assert rows(tmp_path, "SELECT * FROM memory_items") == []
    assert rows(tmp_path, "SELECT * FROM users") == []
    assert rows(tmp_path, "SELECT * FROM outbox WHERE status IN ('pending', 'deferred')") == []


def _waiting(home: Path) -> list[tuple[object, ...]]:
    """(text, due_at) of every reminder job still to go out, soonest first."""
    return rows(
        home,
        "SELECT text, due_at FROM outbox WHERE kind = 'reminder' "
        "AND status IN ('pending', 'deferred') ORDER BY due_at",
    )


async def test_ids_work_wherever_a_person_types_them(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me friday at 10am to buy bread", "remind me every day at 8pm to stretch",
    )  # fmt: skip
    bread = re.search(
        r"- (r\d+): buy bread", "\n".join(await say(settings, clock, "list my reminders"))
    )
    stretch = re.search(r"Its id is (s\d{4})\.$", said[-1])
    assert bread is not None and stretch is not None, said
    r, s = bread[1], stretch[1]

    # The one-shot by its id: moved on its own day, then cancelled.
    assert await say(settings, clock, f"move {r} to 4pm") == [
        "clockbot> Moved: buy bread, to Friday 12 Jun, 16:00 (in 2 days)."
    ]
    assert _waiting(tmp_path)[1] == ("buy bread", "2026-06-12 20:00:00.000000")
    assert await say(settings, clock, f"cancel {r}") == [f"clockbot> Canceled {r}."]
    assert [text for text, _ in _waiting(tmp_path)] == ["stretch"]

    # The repeating one by its short id: paused, resumed, cancelled.
    assert await say(settings, clock, f"pause {s} until Friday") == [
        "clockbot> Paused until Friday 12 Jun, 08:00 (in 2 days)."
    ]
    assert _waiting(tmp_path) == [("stretch", "2026-06-13 00:00:00.000000")]
    assert await say(settings, clock, f"resume {s}") == ["clockbot> Your reminders are back on."]
    assert _waiting(tmp_path) == [("stretch", "2026-06-11 00:00:00.000000")]
    assert await say(settings, clock, f"cancel {s}") == [f"clockbot> Canceled {s}."]
    assert _waiting(tmp_path) == []
    assert rows(tmp_path, "SELECT state FROM schedules") == [("ended",)]


async def test_a_reminder_set_twice_says_so_and_is_kept_once(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me friday at 10am to buy bread", "remind me friday at 10am to buy bread",
        "remind me every day at 8pm to stretch", "remind me every day at 8pm to stretch",
    )  # fmt: skip
    assert re.fullmatch(
        r"clockbot> You already have that reminder: buy bread, Friday 12 Jun, 10:00 \(in 2 days\)"
        r" \(r\d+\)\.",
        said[2],
    )
    assert re.fullmatch(
        r"clockbot> You already have that reminder: stretch, Wednesday 10 Jun, 20:00 \(in 10 "
        r"hours\) \(s\d{4}\)\.",
        said[4],
    )
    assert [text for text, _ in _waiting(tmp_path)] == ["stretch", "buy bread"]
    assert len(rows(tmp_path, "SELECT id FROM schedules")) == 1


async def test_cancelling_all_my_reminders_asks_first(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me friday at 10am to buy bread", "remind me every day at 8pm to stretch",
    )  # fmt: skip
    asked = await say(settings, clock, "cancel all my reminders")
    assert asked[0] == "clockbot> That cancels all 2 of your reminders:"
    assert asked[-1] == f"To go ahead, write “{CANCEL_ALL_CONFIRM}” (or just “yes”)."
    assert len(_waiting(tmp_path)) == 2  # nothing cancelled yet
    assert await say(settings, clock, "yes") == ["clockbot> Canceled all your reminders (2)."]
    assert _waiting(tmp_path) == []
    assert rows(tmp_path, "SELECT state FROM schedules") == [("ended",)]
    # Written whole, it needs no question; "yes" alone, with no question asked, cancels nothing.
    await say(settings, clock, "remind me friday at 10am to buy bread")
    assert await say(settings, clock, "yes") != ["clockbot> Canceled all your reminders (1)."]
    assert len(_waiting(tmp_path)) == 1
    assert await say(settings, clock, CANCEL_ALL_CONFIRM) == [
        "clockbot> Canceled all your reminders (1)."
    ]
    assert _waiting(tmp_path) == []


_SAY_NO = {
    # (zone, a reminder, cancel them all, no, the answer to no, yes, the answer to yes)
    "en": ("America/New_York", "remind me friday at 10am to buy bread",
           "cancel all my reminders", "no", "All right, nothing was canceled",
           "yes", "Canceled all your reminders (1)."),
    "de": ("Europe/Berlin", "erinnere mich am Freitag um 10 Uhr ans Brotkaufen",
           "lösche alle meine Erinnerungen", "nein", "In Ordnung, nichts wurde gelöscht",
           "ja", "Alle deine Erinnerungen gelöscht (1)."),
    "es": ("Europe/Madrid", "recuérdame el viernes a las 10 comprar pan",
           "cancela todos mis recordatorios", "no", "De acuerdo, no se ha cancelado nada",
           "sí", "Cancelados todos tus recordatorios (1)."),
    "fr": ("Europe/Paris", "rappelle-moi vendredi à 10h d'acheter du pain",
           "annule tous mes rappels", "non", "D'accord, rien n'a été annulé",
           "oui", "Tous vos rappels sont annulés (1)."),
}  # fmt: skip


@pytest.mark.parametrize("language", _SAY_NO)
async def test_no_to_cancelling_all_cancels_nothing_and_says_so(
    tmp_path: Path, language: str
) -> None:
    zone, remind, cancel_all, no, kept, yes, gone = _SAY_NO[language]
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(settings, clock, f"clock: home tz {zone}", remind)
    asked = await say(settings, clock, cancel_all)
    assert "1" in asked[0] and asked[1].startswith("- r")  # the question, listing the one
    assert NEEDS_LLM.in_(language) not in "\n".join(asked)
    said = await say(settings, clock, no)
    assert said[0].startswith(f"clockbot> {kept}")
    assert len(_waiting(tmp_path)) == 1  # "no" cancelled nothing
    await say(settings, clock, cancel_all)
    assert await say(settings, clock, yes) == [f"clockbot> {gone}"]
    assert _waiting(tmp_path) == []


@pytest.mark.parametrize(
    ("no", "kept"),
    [
        ("no", "All right, nothing was deleted"),
        ("nein", "In Ordnung, nichts wurde gelöscht"),
        ("non", "D'accord, rien n'a été supprimé"),
        ("não", "Tudo bem, nada foi apagado"),
        ("nee", "Goed, er is niets verwijderd"),
    ],
)
async def test_no_to_deleting_my_data_deletes_nothing_and_says_so(
    tmp_path: Path, no: str, kept: str
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(
        settings, clock, "clock: home tz America/New_York",
        "remind me tomorrow at 3pm to call the bank", "delete my data", no,
    )  # fmt: skip
    assert said[-2] == f"clockbot> {ERASE_ASK_REPLY}"
    assert said[-1].startswith(f"clockbot> {kept}")
    assert len(rows(tmp_path, "SELECT * FROM users")) == 1
    assert len(_waiting(tmp_path)) == 1
    # A "no" long after, or to something else, is not taken for one.
    assert (await say(settings, clock, no))[0] != said[-1]
    assert len(rows(tmp_path, "SELECT * FROM users")) == 1
