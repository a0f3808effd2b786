""" "What do you know about me" on the console: true, complete in its counts, in a person's words.

Tried as a new user (issue 61): the listing showed ISO stamps with offsets and stopped after
ten items with no word of the rest (the store held about fifty reminders).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.dates import format_datetime

from bot.config.settings import Settings
from bot.llm.everyday_words import said_in
from bot.turns.my_data import KEPT_MEMORY, KEPT_MEMORY_DUE, KEPT_TO_SEND
from clockcore import SettableClock
from clockcore.geo.zones import get_zone
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Berlin
BERLIN = get_zone("Europe/Berlin")
NEW_TIME = datetime(2026, 6, 11, 13, tzinfo=UTC)  # 15:00 in Berlin


async def test_what_it_keeps_is_listed_in_local_words_and_the_rest_is_counted(
    tmp_path: Path,
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    asks = [f"remind me tomorrow at {hour}:00 to do task {hour}" for hour in range(8, 20)]
    await say(settings, clock, "clock: home tz Europe/Berlin", *asks)
    said = "\n".join(await say(settings, clock, "what do you know about me"))
    to_send = re.findall(r"^- to send you on (.+): do task (\d+)$", said, re.MULTILINE)
    assert len(to_send) == 10
    assert to_send[0] == ("Thursday 11 Jun 2026, 08:00", "8")
    assert "- and 2 more to send" in said
    assert not re.search(r"\d{4}-\d\d-\d\dT|[+-]\d\d:\d\d\b", said), said  # no ISO, no offset


@pytest.mark.parametrize(
    ("remind", "move", "what"),
    [
        ("remind me tomorrow at 10 to call the bank", "move the bank reminder to 15:00",
         "call the bank"),
        ("erinnere mich morgen um 10 Uhr, die Bank anzurufen", "verschiebe die Bank auf 15 Uhr",
         "die Bank anzurufen"),
        ("recuérdame mañana a las 10 llamar al banco", "mueve el banco a las 15",
         "llamar al banco"),
        ("rappelle-moi demain à 10h d'appeler la banque", "déplace la banque à 15h",
         "appeler la banque"),
    ],
)  # fmt: skip
async def test_a_moved_reminder_is_due_at_its_new_time_everywhere(
    tmp_path: Path, remind: str, move: str, what: str
) -> None:
    """Issue 61: after a move, /mydata and the export showed the memory item's old time."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", remind, move)
    assert "15:00" in said[2], said[2]
    [(due,)] = rows(tmp_path, "SELECT due_at FROM memory_items")
    [(sent_at,)] = rows(tmp_path, "SELECT due_at FROM outbox WHERE kind = 'reminder'")
    assert due == sent_at == "2026-06-11 13:00:00.000000"  # 15:00 in Berlin
    mine = "\n".join(await say(settings, clock, "/mydata"))
    language = said_in(remind)  # "/mydata" says none: listed in the conversation's language
    when = format_datetime(NEW_TIME, "EEEE d MMM y, HH:mm", tzinfo=BERLIN, locale=language)
    assert KEPT_MEMORY_DUE.in_(language, content=what, when=when) in mine, mine
    assert KEPT_TO_SEND.in_(language, when=when, text=what) in mine, mine
    assert "10:00" not in mine


@pytest.mark.parametrize(
    ("remind", "cancel", "what"),
    [
        ("remind me tomorrow at 10 to call the bank", "cancel r2", "call the bank"),
        ("erinnere mich morgen um 10 Uhr an die Müllabfuhr", "lösche r2", "die Müllabfuhr"),
        ("recuérdame mañana a las 10 llamar al banco", "cancela todos mis recordatorios: sí",
         "llamar al banco"),
    ],
)  # fmt: skip
async def test_a_canceled_reminder_is_no_longer_due_anywhere(
    tmp_path: Path, remind: str, cancel: str, what: str
) -> None:
    """Issue 61: /mydata listed "remembered: die Müllabfuhr (due …)" after "r89 gelöscht"."""
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    await say(settings, clock, "clock: home tz Europe/Berlin", remind, cancel)
    assert rows(tmp_path, "SELECT content, due_at FROM memory_items") == [(what, None)]
    mine = "\n".join(await say(settings, clock, "/mydata"))
    language = said_in(remind)
    assert KEPT_MEMORY.in_(language, content=what) + "\n" in mine, mine  # kept, no time to come
    assert KEPT_TO_SEND.in_(language, when="", text="").split(":")[0].strip() not in mine, mine
