"""A bare hour and the answer to "morning or evening?" through the console (issues 60, 61).

"rappelle-moi à 9 d'appeler maman" was set for 9 January, a month away and without a word;
"à noite" as the answer to "6: morning or evening?" stored 06:00.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from clockcore import SettableClock
from tests.support.console import say, waiting

WEDNESDAY = datetime(2026, 12, 2, 4, tzinfo=UTC)  # 05:00 in Berlin, Wednesday 2 December


@pytest.mark.parametrize(
    ("asked", "due"),
    [
        ("rappelle-moi à 9 d'appeler maman", "2026-12-02 08:00:00.000000"),
        ("rappelle-moi à 3 d'appeler maman", "2026-12-02 14:00:00.000000"),
        ("rappelle-moi demain à 3 d'appeler maman", "2026-12-03 14:00:00.000000"),
    ],
)
async def test_a_french_bare_hour_is_its_next_waking_hour(
    tmp_path: Path, asked: str, due: str
) -> None:
    said = await say(Settings(home=tmp_path), SettableClock(WEDNESDAY),
                     "clock: home tz Europe/Berlin", asked)  # fmt: skip
    assert "Je vous le rappellerai" in said[1], said
    assert [due for _, due in waiting(tmp_path)] == [due], said


@pytest.mark.parametrize(
    ("asked", "answer"),
    [
        ("remind me around 6 to call mom", "in the evening"),
        ("erinnere mich gegen 6 an die Bank", "abends"),
        ("recuérdame a eso de las 6 llamar a mamá", "por la noche"),
        ("rappelle-moi vers 6h d'appeler maman", "le soir"),
        ("ricordami verso le 6 di chiamare la mamma", "di sera"),
        ("lembra-me por volta das 6 de ligar à mãe", "à noite"),
        ("lembra-me por volta das 6 de ligar à mãe", "à tarde"),
        ("herinner me rond 6 uur aan de bank", "'s avonds"),
    ],
)
async def test_the_evening_word_answering_morning_or_evening_is_18_00(
    tmp_path: Path, asked: str, answer: str
) -> None:
    """Issue 60: "à noite" stored 06:00, the night's reading of a 6."""
    said = await say(Settings(home=tmp_path), SettableClock(WEDNESDAY),
                     "clock: home tz Europe/Berlin", asked, answer)  # fmt: skip
    assert said[1].rstrip().endswith("?") or "which do you mean" in said[1], said  # asked
    assert "18:00" in said[2], said
    assert [due for _, due in waiting(tmp_path)] == ["2026-12-02 17:00:00.000000"], said
