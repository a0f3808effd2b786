""" "What did I clock" in each language lists the clocked actions with their status.

Issue 61 (fresh eyes): "what did I clock", "was hab ich geclockt", "¿qué he registrado?"
and "qu'est-ce que j'ai noté ?" got the no-model paragraph, though "/mydata" shows the
clocked actions. Now a no-model command answers with them alone (`bot.turns.my_data`,
docs/data.md), and "what do you know about me" in each language gives the whole listing.
Through the console with no LLM, on a settable clock and a real SQLite store.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.llm.rules_replies import NEEDS_LLM
from bot.turns.my_data import (
    ACTION_STATUS,
    CLOCKED,
    CLOCKED_NONE,
    KEPT,
    Ask,
    ask_language,
    ask_of,
)
from bot.turns.sender_check import person_wide, privileged
from clockcore import SettableClock
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 16:00 in Berlin

ASKS = [
    ("en", "what did I clock", "what do you know about me"),
    ("en", "what have I clocked?", "What do you know about me?"),
    ("de", "was hab ich geclockt", "was weißt du über mich"),
    ("es", "¿qué he registrado?", "qué sabes de mí"),
    ("fr", "qu'est-ce que j'ai noté ?", "qu'est-ce que tu sais sur moi"),
    ("it", "cosa ho registrato?", "cosa sai di me"),
    ("pt", "o que eu registrei?", "o que você sabe sobre mim"),
    ("nl", "wat heb ik geklokt?", "wat weet je over mij"),
]


@pytest.mark.parametrize(("language", "clocked", "known"), ASKS)
async def test_what_did_i_clock_lists_the_clocked_actions_with_their_status(
    tmp_path: Path, language: str, clocked: str, known: str
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "clock: home tz Europe/Berlin", clocked, linger=0)
    assert said[-1] == f"clockbot> {CLOCKED_NONE.in_(language)}", said
    await say(settings, clock, "clock it: paid the invoice", "clock it: writing the report",
              linger=0)  # fmt: skip
    # Clocked at the same instant (the clock stands still): listed in the store's order.
    stored = rows(tmp_path, "SELECT label, status FROM actions ORDER BY recorded_at, id")
    assert sorted(label for label, _ in stored) == ["paid the invoice", "writing the report"]
    said = await say(settings, clock, clocked, linger=0)
    assert said[0] == f"clockbot> {CLOCKED.in_(language)}", said
    assert len(said) == 3, said
    for line, (label, status) in zip(said[1:], stored, strict=True):
        assert line.startswith(f"- {label} ({ACTION_STATUS[str(status)].in_(language)}), ")
        assert "16:00" in line, line  # when it was clocked, in the person's zone
    assert NEEDS_LLM.in_(language) not in "\n".join(said)
    listed = await say(settings, clock, known, linger=0)
    assert listed[0] == f"clockbot> {KEPT.in_(language)}", listed
    assert any("paid the invoice" in line for line in listed), listed


@pytest.mark.parametrize(("language", "clocked", "known"), ASKS)
def test_what_did_i_clock_is_a_person_wide_read_in_its_language(
    language: str, clocked: str, known: str
) -> None:
    """Refused in a group and held for an unproven sender, as "/mydata" is."""
    assert ask_of(clocked) is Ask.CLOCKED and ask_language(clocked) == language
    assert ask_of(known) is Ask.SHOW
    assert person_wide(clocked) and privileged(clocked)
    assert ask_of("/clocked") is Ask.CLOCKED and ask_of("clock it: what did I clock") is None
